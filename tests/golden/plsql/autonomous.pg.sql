-- rules: ddl.number_type, ddl.varchar2, plsql.empty_string_params, plsql.exceptions, plsql.procedure, plsql.autonomous, plsql.autonomous_output
CREATE OR REPLACE PROCEDURE s.log_salary__autonomous(p_id numeric, p_note varchar)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    p_note := nullif(p_note, '');
    INSERT INTO emp (id, name, salary, dept) VALUES (p_id, p_note, 0, 0);
    NULL;  -- COMMIT: done by the autonomous (dblink) session
EXCEPTION
    WHEN OTHERS THEN
        NULL;  -- ROLLBACK: done by the autonomous (dblink) session
        RAISE;
END;
$fn$;

CREATE OR REPLACE PROCEDURE s.log_salary(p_id numeric, p_note varchar)
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.autonomous(format('CALL s.log_salary__autonomous(%L::numeric, %L::varchar)', p_id, p_note));
END;
$fn$;
