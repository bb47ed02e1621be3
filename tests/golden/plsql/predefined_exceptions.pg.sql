-- rules: ddl.number_type, ddl.varchar2, plsql.exceptions, expr.division, expr.concat_null, expr.implicit_to_text, plsql.function
CREATE OR REPLACE FUNCTION s.predefined(p_case numeric)
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    v numeric;
BEGIN
    IF p_case = 1 THEN
        RAISE SQLSTATE 'OS501';
    END IF;
    IF p_case = 2 THEN
        RAISE out_of_memory;
    END IF;
    IF p_case = 3 THEN
        v := CAST(1 AS DECIMAL) / 0;
    END IF;
    IF p_case = 4 THEN
        RAISE datatype_mismatch;
    END IF;
    IF p_case = 5 THEN
        RAISE SQLSTATE 'OS051';
    END IF;
    IF p_case = 6 THEN
        RAISE SQLSTATE 'OS625';
    END IF;
    IF p_case = 7 THEN
        RAISE SQLSTATE 'OS548';
    END IF;
    IF p_case = 8 THEN
        RAISE SQLSTATE 'OS012';
    END IF;
    RETURN 'none';
EXCEPTION
    WHEN SQLSTATE 'OS501' THEN
        RETURN CONCAT('program_error ', oracompat.to_text(oracompat.sqlcode(SQLSTATE)));
    WHEN out_of_memory OR invalid_password THEN
        RETURN CONCAT('storage_error ', oracompat.to_text(oracompat.sqlcode(SQLSTATE)));
    WHEN division_by_zero THEN
        RETURN CONCAT('zero_divide ', oracompat.to_text(oracompat.sqlcode(SQLSTATE)));
    WHEN datatype_mismatch THEN
        RETURN CONCAT('rowtype_mismatch ', oracompat.to_text(oracompat.sqlcode(SQLSTATE)));
    WHEN SQLSTATE 'OS051' OR SQLSTATE 'OS012' THEN
        RETURN CONCAT('resource ', oracompat.to_text(oracompat.sqlcode(SQLSTATE)));
    WHEN SQLSTATE 'OS625' THEN
        RETURN CONCAT('self_is_null ', oracompat.sqlerrm(SQLSTATE, SQLERRM));
    WHEN SQLSTATE 'OS548' THEN
        RETURN CONCAT('no_data_needed ', oracompat.to_text(oracompat.sqlcode(SQLSTATE)));
    WHEN null_value_not_allowed OR array_subscript_error OR SQLSTATE 'OS532' THEN
        RETURN 'collection';
    WHEN duplicate_cursor OR invalid_cursor_name OR invalid_cursor_state OR case_not_found OR invalid_text_representation THEN
        RETURN 'cursor';
    WHEN unique_violation OR too_many_rows OR no_data_found OR invalid_text_representation OR numeric_value_out_of_range OR string_data_right_truncation OR null_value_not_allowed OR invalid_datetime_format OR datetime_field_overflow THEN
        RETURN 'data';
END;
$fn$;
