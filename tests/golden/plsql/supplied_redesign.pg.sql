-- rules: ddl.varchar2, plsql.empty_string_params, expr.concat_null, plsql.supplied_package, plsql.exceptions, plsql.dbms_output, plsql.procedure
-- unconverted: needs an Oracle-supplied package with no PostgreSQL equivalent: UTL_FILE: 5 call site(s): line 2 UTL_FILE.FILE_TYPE, line 4 UTL_FILE.FOPEN, line 5 UTL_FILE.PUT_LINE, line 6 SYS.UTL_FILE.FCLOSE, line 9 UTL_FILE.INVALID_PATH
CREATE OR REPLACE PROCEDURE s.write_log(p_msg varchar)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    f /* MIGRATOR_UNCONVERTED(Oracle-supplied package UTL_FILE): UTL_FILE.FILE_TYPE */ MIGRATOR_UNCONVERTED;
BEGIN
    p_msg := nullif(p_msg, '');
    f := /* MIGRATOR_UNCONVERTED(Oracle-supplied package UTL_FILE): utl_file.FOPEN('LOGDIR', 'app.log', 'a') */ MIGRATOR_UNCONVERTED;
    /* MIGRATOR_UNCONVERTED(Oracle-supplied package UTL_FILE): UTL_FILE.PUT_LINE(f, p_msg) */ MIGRATOR_UNCONVERTED;
    /* MIGRATOR_UNCONVERTED(Oracle-supplied package UTL_FILE): SYS.UTL_FILE.FCLOSE(f) */ MIGRATOR_UNCONVERTED;
    PERFORM oracompat.htp_print(CONCAT('<p>', p_msg, '</p>'));
EXCEPTION
    WHEN /* MIGRATOR_UNCONVERTED(Oracle-supplied package UTL_FILE): UTL_FILE.INVALID_PATH */ MIGRATOR_UNCONVERTED THEN
        RAISE NOTICE '%', 'no log directory';
END;
$fn$;
