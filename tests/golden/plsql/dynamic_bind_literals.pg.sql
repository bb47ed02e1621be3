-- rules: ddl.varchar2, ddl.number_type, plsql.empty_string_params, expr.concat_null, plsql.dynamic_bind_literals, plsql.exceptions, plsql.function
CREATE OR REPLACE FUNCTION s.count_rows(p_table varchar, p_id varchar, p_day varchar)
RETURNS numeric
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    v_sql varchar(200);
    v_count numeric;
BEGIN
    p_table := nullif(p_table, '');
    p_id := nullif(p_id, '');
    p_day := nullif(p_day, '');
    v_sql := CONCAT('SELECT COUNT(*) FROM ', p_table, ' WHERE id = :id AND created < TO_DATE(:d, ''YYYY-MM-DD'')');
    EXECUTE oracompat.bind_literals(oracompat.bind_positional(v_sql), ARRAY[1, 2], ARRAY[CAST(p_id AS text), CAST(p_day AS text)]) INTO STRICT v_count USING p_id, p_day;
    RETURN v_count;
EXCEPTION
    WHEN OTHERS THEN
        RETURN - 1;
END;
$fn$;
