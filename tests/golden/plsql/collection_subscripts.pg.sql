-- rules: ddl.number_type, ddl.varchar2, plsql.collections, expr.concat_null, expr.implicit_to_text, plsql.exceptions, plsql.function
CREATE OR REPLACE FUNCTION s.pick(p_i numeric)
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    l_days varchar(3)[] := ARRAY['MON', 'TUE']::varchar(3)[];
    l_list varchar(10)[] := ARRAY['x']::varchar(10)[];
BEGIN
    l_list[1] := oracompat.arr_get(l_days, p_i, 7);
    RETURN CONCAT(oracompat.to_text(7), '/', oracompat.to_text(NULL), '/', oracompat.arr_get(l_list, 1));
EXCEPTION
    WHEN array_subscript_error THEN
        RETURN 'beyond';
    WHEN SQLSTATE 'OS532' THEN
        RETURN 'outside';
END;
$fn$;
