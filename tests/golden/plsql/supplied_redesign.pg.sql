-- rules: ddl.varchar2, plsql.empty_string_params, plsql.supplied_package, expr.supplied_package, plsql.exceptions, plsql.dbms_output, plsql.procedure
-- unconverted: needs an Oracle-supplied package with no PostgreSQL equivalent: HTP: 1 call site(s): line 7 HTP.P
CREATE OR REPLACE PROCEDURE s.write_log(p_msg varchar)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    f oracompat.utl_file_file_type;
BEGIN
    p_msg := nullif(p_msg, '');
    f := oracompat.utl_file_fopen('LOGDIR', 'app.log', 'a');
    PERFORM oracompat.utl_file_put_line(f, p_msg);
    f := oracompat.utl_file_fclose(f);
    /* MIGRATOR_UNCONVERTED(Oracle-supplied package HTP): HTP.P('<p>' || p_msg || '</p>') */ MIGRATOR_UNCONVERTED;
EXCEPTION
    WHEN SQLSTATE 'OS280' THEN
        RAISE NOTICE '%', 'no log directory';
END;
$fn$;
