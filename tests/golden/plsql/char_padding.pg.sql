-- rules: ddl.number_type, ddl.varchar2, ddl.char_type, expr.char_semantics, expr.concat_null, expr.implicit_to_text, plsql.function
CREATE OR REPLACE FUNCTION s.padded_code(p_id numeric)
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    v_code char(6);
    v_text varchar(20);
BEGIN
    SELECT name FROM emp WHERE id = p_id INTO STRICT v_code;
    v_text := oracompat.to_text(v_code);
    IF oracompat.to_text(v_code) = v_text THEN
        RETURN 'never';
    END IF;
    RETURN CONCAT(v_code, '|', oracompat.to_text(LENGTH(oracompat.to_text(v_code))), '|', oracompat.to_text(LENGTH(v_text)));
END;
$fn$;
