CREATE OR REPLACE PROCEDURE give_raise(p_pct NUMBER) IS
  TYPE id_list IS TABLE OF NUMBER;
  v_ids id_list;
BEGIN
  SELECT id BULK COLLECT INTO v_ids FROM emp WHERE dept = 10;
  FORALL i IN 1 .. v_ids.COUNT
    UPDATE emp SET salary = salary * (1 + p_pct / 100) WHERE id = v_ids(i);
  DBMS_OUTPUT.PUT_LINE(SQL%ROWCOUNT || ' rows');
END give_raise;
/
