-- rules: ddl.number_type, ddl.varchar2, ddl.lob_types, plsql.supplied_package, ddl.plsql_integer, expr.supplied_package, expr.concat_null, expr.implicit_to_text, plsql.exceptions, plsql.procedure
CREATE OR REPLACE PROCEDURE s.lob_and_sql(p_id numeric, OUT p_out varchar)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    v_clob text;
    v_amt numeric := 3;
    v_buf varchar(100);
    v_names jsonb := '{}'::jsonb;
    v_count integer;
    c numeric(38);
    v_rows numeric(38);
BEGIN
    v_clob := oracompat.dbms_lob_createtemporary(v_clob, TRUE, 12);
    v_clob := oracompat.dbms_lob_append(v_clob, 'abcdef');
    SELECT * FROM oracompat.dbms_lob_erase(v_clob, v_amt, 2) INTO v_clob, v_amt;
    SELECT * FROM oracompat.dbms_lob_read(lob_loc => v_clob, amount => v_amt, "offset" => 1) INTO v_amt, v_buf;
    SELECT * FROM oracompat.dbms_utility_comma_to_table('emp,dept') INTO v_count, v_names;
    c := oracompat.dbms_sql_open_cursor();
    PERFORM oracompat.dbms_sql_parse(c, 'SELECT name FROM emp WHERE id = :id', 1);
    PERFORM oracompat.dbms_sql_bind_variable(c, ':id', p_id);
    PERFORM oracompat.dbms_sql_define_column(c, 1, v_buf, 100);
    v_rows := oracompat.dbms_sql_execute(c);
    IF oracompat.dbms_sql_fetch_rows(c) > 0 THEN
        v_buf := oracompat.dbms_sql_column_value(c, 1, v_buf);
    END IF;
    c := oracompat.dbms_sql_close_cursor(c);
    PERFORM oracompat.dbms_application_info_set_module('lob_and_sql', NULL);
    p_out := CONCAT(v_buf, ' ', (oracompat.aa_get(v_names, ((v_count)::bigint)::text) #>> '{}')::varchar(227), ' ', oracompat.to_text(oracompat.dbms_lob_getlength(v_clob)));
EXCEPTION
    WHEN SQLSTATE 'OS443' THEN
        p_out := NULL;
    WHEN OTHERS THEN
        DECLARE
            error__context text;
        BEGIN
            GET STACKED DIAGNOSTICS error__context = PG_EXCEPTION_CONTEXT;
            p_out := NULLIF(CONCAT(oracompat.dbms_utility_format_error_stack(SQLSTATE, SQLERRM), oracompat.dbms_utility_format_error_backtrace(error__context)), '');
        END;
END;
$fn$;
