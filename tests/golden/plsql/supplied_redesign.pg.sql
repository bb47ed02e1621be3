-- rules: ddl.varchar2, plsql.empty_string_params, plsql.supplied_package, expr.supplied_package, expr.concat_null, plsql.exceptions, plsql.dbms_output, plsql.procedure
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
    PERFORM oracompat.htp_print(CONCAT('<p>', p_msg, '</p>'));
EXCEPTION
    WHEN SQLSTATE 'OS280' THEN
        RAISE NOTICE '%', 'no log directory';
END;
$fn$;
