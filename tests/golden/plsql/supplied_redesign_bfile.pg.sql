-- rules: ddl.varchar2, ddl.lob_types, plsql.empty_string_params, expr.supplied_package, plsql.supplied_package, plsql.declaration_order, plsql.function
CREATE OR REPLACE FUNCTION s.file_blob(p_file varchar)
RETURNS bytea
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    p_file := nullif(p_file, '');
    DECLARE
        l_bfile oracompat.bfile := oracompat.bfilename('DIR', p_file);
        l_blob bytea;
    BEGIN
        l_blob := oracompat.dbms_lob_createtemporary(l_blob, TRUE);
        l_bfile := oracompat.dbms_lob_fileopen(l_bfile, 0);
        l_blob := oracompat.dbms_lob_loadfromfile(l_blob, l_bfile, oracompat.dbms_lob_getlength(l_bfile));
        l_bfile := oracompat.dbms_lob_fileclose(l_bfile);
        RETURN l_blob;
    END;
END;
$fn$;
