-- rules: ddl.varchar2, plsql.empty_string_params, ddl.number_type, expr.to_number, expr.nvl, expr.concat_null, expr.implicit_to_text, plsql.exceptions, plsql.declaration_order, plsql.function
CREATE OR REPLACE FUNCTION s.parse_amount(p_text varchar)
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    p_text := nullif(p_text, '');
    DECLARE
        v_amount numeric := CAST(p_text AS DECIMAL);
        v_len numeric := COALESCE(LENGTH(p_text), 0);
    BEGIN
        RETURN CONCAT(COALESCE(oracompat.to_text(v_amount), 'none'), '/', oracompat.to_text(v_len));
    EXCEPTION
        WHEN numeric_value_out_of_range OR string_data_right_truncation OR invalid_text_representation OR null_value_not_allowed OR invalid_datetime_format OR datetime_field_overflow THEN
            RETURN 'not handled here: declarations raise to the caller';
    END;
END;
$fn$;
