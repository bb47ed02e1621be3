-- rules: ddl.number_type, sql.for_update_of, plsql.where_current_of, plsql.procedure
CREATE OR REPLACE PROCEDURE s.raise_cut(p_dept numeric, OUT p_n numeric)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    sql__rowcount integer := 0;
    c_emp CURSOR FOR SELECT id, salary FROM emp WHERE dept = p_dept FOR UPDATE OF emp;
BEGIN
    p_n := 0;
    FOR r IN c_emp LOOP
        IF r.salary > 1500 THEN
            UPDATE emp SET salary = salary - 100 WHERE CURRENT OF c_emp;
            GET DIAGNOSTICS sql__rowcount = ROW_COUNT;
            p_n := p_n + sql__rowcount;
        ELSE
            DELETE FROM emp WHERE CURRENT OF c_emp;
            GET DIAGNOSTICS sql__rowcount = ROW_COUNT;
        END IF;
    END LOOP;
END;
$fn$;
