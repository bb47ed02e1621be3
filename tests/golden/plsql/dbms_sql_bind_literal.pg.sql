-- rules: ddl.varchar2, ddl.number_type, plsql.empty_string_params, expr.supplied_package, plsql.supplied_package, plsql.dynamic_bind_literals, plsql.function
CREATE OR REPLACE FUNCTION s.first_qty(p_id varchar)
RETURNS numeric
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    c numeric(38);
    n numeric(38);
    v numeric;
BEGIN
    p_id := nullif(p_id, '');
    c := oracompat.dbms_sql_open_cursor();
    PERFORM oracompat.dbms_sql_parse(c, 'SELECT qty FROM items WHERE item_id = :id AND added > :d', 1);
    PERFORM oracompat.dbms_sql_bind_variable(c, ':id', p_id);
    PERFORM oracompat.dbms_sql_bind_variable(c, ':d', CAST('2024-01-01' AS text));
    PERFORM oracompat.dbms_sql_define_column(c, 1, v);
    n := oracompat.dbms_sql_execute(c);
    IF oracompat.dbms_sql_fetch_rows(c) > 0 THEN
        v := oracompat.dbms_sql_column_value(c, 1, v);
    END IF;
    c := oracompat.dbms_sql_close_cursor(c);
    RETURN v;
END;
$fn$;
