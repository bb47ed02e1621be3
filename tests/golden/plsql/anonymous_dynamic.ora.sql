DECLARE
  TYPE num_list IS TABLE OF NUMBER;
  v_ids num_list := num_list();
  v_n   NUMBER;
BEGIN
  SELECT id BULK COLLECT INTO v_ids FROM emp ORDER BY id;
  FORALL i IN 1 .. v_ids.COUNT
    DELETE FROM emp WHERE id = v_ids(i);
  EXECUTE IMMEDIATE 'SELECT COUNT(*) FROM emp WHERE dept = :d AND id > :x' INTO v_n USING 10, v_ids.FIRST;
  EXECUTE IMMEDIATE 'TRUNCATE TABLE emp_stage';
  v_ids.EXTEND(2);
  v_ids.TRIM;
  DBMS_OUTPUT.PUT_LINE(v_ids.COUNT || ' ' || v_n);
END;
