CREATE OR REPLACE PROCEDURE move_emp(p_id NUMBER, p_dept NUMBER) IS
  e_no_dept EXCEPTION;
  PRAGMA EXCEPTION_INIT(e_no_dept, -2291);
  e_frozen EXCEPTION;
  PRAGMA EXCEPTION_INIT(e_frozen, -20010);
BEGIN
  IF p_dept = 0 THEN
    RAISE_APPLICATION_ERROR(-20010, 'department 0 is frozen');
  END IF;
  UPDATE emp SET dept = p_dept WHERE id = p_id;
EXCEPTION
  WHEN e_no_dept THEN
    DBMS_OUTPUT.PUT_LINE('no such department: ' || SQLERRM);
  WHEN e_frozen THEN
    DBMS_OUTPUT.PUT_LINE('frozen: ' || SQLCODE);
    RAISE;
END move_emp;
/
