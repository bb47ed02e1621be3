CREATE OR REPLACE FUNCTION count_in_dept (p_dept IN VARCHAR2, p_from_id IN VARCHAR2) RETURN NUMBER IS
  v_count NUMBER;
BEGIN
  EXECUTE IMMEDIATE 'SELECT COUNT(*) FROM emp WHERE dept = :d AND id >= :i' INTO v_count USING p_dept, p_from_id;
  INSERT INTO emp (id, name, dept) VALUES (p_from_id, p_dept, p_dept);
  UPDATE emp SET dept = p_dept, name = v_count WHERE id = p_from_id;
  RETURN v_count;
EXCEPTION
  WHEN OTHERS THEN
    RETURN -1;
END count_in_dept;
