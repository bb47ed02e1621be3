-- rules: ddl.lob_types, plsql.empty_string_params, ddl.number_type, expr.supplied_package, plsql.supplied_package, plsql.raise_application_error, plsql.function
CREATE OR REPLACE FUNCTION s.clob_to_blob(p_clob text)
RETURNS bytea
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    l_blob bytea;
    l_dest_offset numeric(38) := 1;
    l_src_offset numeric(38) := 1;
    l_lang_context numeric(38) := 0;
    l_warning numeric(38);
BEGIN
    p_clob := nullif(p_clob, '');
    l_blob := oracompat.dbms_lob_createtemporary(l_blob, TRUE);
    SELECT * FROM oracompat.dbms_lob_converttoblob(dest_lob => l_blob, src_clob => p_clob, amount => 18446744073709551615, dest_offset => l_dest_offset, src_offset => l_src_offset, blob_csid => 0, lang_context => l_lang_context) INTO l_blob, l_dest_offset, l_src_offset, l_lang_context, l_warning;
    IF l_warning = 1 THEN
        RAISE EXCEPTION USING ERRCODE = 'O2001', MESSAGE = coalesce('inconvertible character', '');
    END IF;
    RETURN l_blob;
END;
$fn$;
