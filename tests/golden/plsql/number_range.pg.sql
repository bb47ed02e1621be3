-- rules: ddl.number_type, ddl.varchar2, ddl.number_precision, ddl.plsql_integer, plsql.number_range, expr.concat_null, expr.implicit_to_text, plsql.exceptions, plsql.function
CREATE OR REPLACE FUNCTION s.credit_check(p_amount numeric)
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    DECLARE
        credit_limit CONSTANT numeric(3) := p_amount;
        tries oracompat.positive := 1;
        flag oracompat.signtype := SIGN(p_amount);
    BEGIN
        RETURN CONCAT('within ', oracompat.to_text(credit_limit), oracompat.to_text(tries), oracompat.to_text(flag));
    END;
EXCEPTION
    WHEN numeric_value_out_of_range OR string_data_right_truncation OR invalid_text_representation OR null_value_not_allowed OR invalid_datetime_format OR datetime_field_overflow THEN
        RETURN 'raised in declaration';
END;
$fn$;
