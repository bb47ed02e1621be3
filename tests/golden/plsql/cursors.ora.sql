CREATE OR REPLACE FUNCTION cursor_walk (p_dept IN NUMBER) RETURN SYS_REFCURSOR IS
  CURSOR c_emp (cp_dept NUMBER) IS SELECT name, salary FROM emp WHERE dept = cp_dept ORDER BY id;
  v_name emp.name%TYPE;
  v_sal  emp.salary%TYPE;
  v_rc   SYS_REFCURSOR;
BEGIN
  OPEN c_emp(p_dept);
  LOOP
    FETCH c_emp INTO v_name, v_sal;
    EXIT WHEN c_emp%NOTFOUND;
    DBMS_OUTPUT.PUT_LINE(v_name || c_emp%ROWCOUNT);
  END LOOP;
  CLOSE c_emp;
  FOR r IN (SELECT id FROM emp WHERE dept = p_dept) LOOP
    UPDATE emp SET salary = salary + 1 WHERE id = r.id;
  END LOOP;
  IF SQL%ROWCOUNT = 0 THEN NULL; END IF;
  OPEN v_rc FOR SELECT * FROM emp WHERE dept = p_dept;
  RETURN v_rc;
END;
