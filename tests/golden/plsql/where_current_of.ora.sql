CREATE OR REPLACE PROCEDURE raise_cut (p_dept IN NUMBER, p_n OUT NUMBER) IS
  CURSOR c_emp IS SELECT id, salary FROM emp WHERE dept = p_dept FOR UPDATE OF salary;
BEGIN
  p_n := 0;
  FOR r IN c_emp LOOP
    IF r.salary > 1500 THEN
      UPDATE emp SET salary = salary - 100 WHERE CURRENT OF c_emp;
      p_n := p_n + SQL%ROWCOUNT;
    ELSE
      DELETE FROM emp WHERE CURRENT OF c_emp;
    END IF;
  END LOOP;
END raise_cut;
/
