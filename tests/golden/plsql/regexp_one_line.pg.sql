-- rules: ddl.varchar2, ddl.number_type, plsql.empty_string_params, expr.regexp_match, plsql.function
CREATE OR REPLACE FUNCTION s.one_line(p_text varchar)
RETURNS numeric
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    p_text := nullif(p_text, '');
    IF REGEXP_LIKE(p_text, '^[a-z]+.[a-z]+$', 'p') THEN
        RETURN 1;
    ELSIF REGEXP_LIKE(p_text, '^[a-z]+$', 'n') THEN
        RETURN 2;
    END IF;
    RETURN REGEXP_COUNT(p_text, CHR(10), 1, 'p') + 10;
END;
$fn$;
