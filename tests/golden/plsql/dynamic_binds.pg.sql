-- rules: ddl.varchar2, ddl.number_type, plsql.empty_string_params, expr.implicit_from_text, plsql.dynamic_bind_types, plsql.exceptions, plsql.function
CREATE OR REPLACE FUNCTION s.count_in_dept(p_dept varchar, p_from_id varchar)
RETURNS numeric
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    v_count numeric;
BEGIN
    p_dept := nullif(p_dept, '');
    p_from_id := nullif(p_from_id, '');
    EXECUTE 'SELECT COUNT(*) FROM emp WHERE dept = CAST($1 AS DECIMAL) AND id >= CAST($2 AS DECIMAL)' INTO STRICT v_count USING p_dept, p_from_id;
    INSERT INTO emp (id, name, dept) VALUES (CAST(p_from_id AS DECIMAL), p_dept, CAST(p_dept AS DECIMAL));
    UPDATE emp SET dept = CAST(p_dept AS DECIMAL), name = v_count WHERE id = CAST(p_from_id AS DECIMAL);
    RETURN v_count;
EXCEPTION
    WHEN OTHERS THEN
        RETURN - 1;
END;
$fn$;
