-- rules: ddl.number_type, ddl.varchar2, plsql.empty_string_params, plsql.exceptions, expr.concat_null, expr.implicit_to_text, plsql.function
CREATE OR REPLACE FUNCTION s.name_in_dept(p_dept numeric, p_default varchar DEFAULT 'none')
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    v_name varchar(40);
BEGIN
    p_default := nullif(p_default, '');
    SELECT name FROM emp WHERE dept = p_dept INTO STRICT v_name;
    RETURN v_name;
EXCEPTION
    WHEN no_data_found THEN
        RETURN p_default;
    WHEN too_many_rows OR numeric_value_out_of_range OR string_data_right_truncation OR invalid_text_representation OR null_value_not_allowed OR invalid_datetime_format OR datetime_field_overflow THEN
        RETURN CONCAT('many:', oracompat.to_text(oracompat.sqlcode(SQLSTATE)), oracompat.sqlerrm(SQLSTATE, SQLERRM));
END;
$fn$;
