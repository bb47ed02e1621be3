-- rules: ddl.number_type, ddl.ref_cursor, ddl.varchar2, plsql.dbms_output, expr.concat_null, expr.implicit_to_text, plsql.function
CREATE OR REPLACE FUNCTION s.cursor_walk(p_dept numeric)
RETURNS refcursor
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    c_emp__found boolean;
    c_emp__rowcount integer := 0;
    sql__rowcount integer := 0;
    c_emp CURSOR (cp_dept numeric) FOR SELECT name, salary FROM emp WHERE dept = cp_dept ORDER BY id;
    v_name varchar(40);
    v_sal numeric(10,2);
    v_rc refcursor;
BEGIN
    c_emp__rowcount := 0;
    OPEN c_emp(p_dept);
    LOOP
        FETCH c_emp INTO v_name, v_sal;
        c_emp__found := FOUND;
        IF FOUND THEN c_emp__rowcount := c_emp__rowcount + 1; END IF;
        EXIT WHEN (NOT c_emp__found);
        RAISE NOTICE '%', coalesce((NULLIF(CONCAT(v_name, oracompat.to_text(c_emp__rowcount)), ''))::text, '');
    END LOOP;
    CLOSE c_emp;
    DECLARE
        r record;
    BEGIN
        FOR r IN SELECT id FROM emp WHERE dept = p_dept LOOP
            UPDATE emp SET salary = salary + 1 WHERE id = r.id;
            GET DIAGNOSTICS sql__rowcount = ROW_COUNT;
        END LOOP;
    END;
    IF sql__rowcount = 0 THEN
        NULL;
    END IF;
    OPEN v_rc FOR SELECT * FROM emp WHERE dept = p_dept;
    RETURN v_rc;
END;
$fn$;
