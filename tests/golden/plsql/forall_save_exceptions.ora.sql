CREATE OR REPLACE PROCEDURE load_emps (p_report OUT VARCHAR2) IS
  TYPE t_ids IS TABLE OF NUMBER;
  l_ids t_ids := t_ids(10, 1, 11, 2, 12);
  e_dml EXCEPTION;
  PRAGMA EXCEPTION_INIT(e_dml, -24381);
BEGIN
  FORALL i IN 1 .. l_ids.COUNT SAVE EXCEPTIONS
    INSERT INTO emp (id, name, salary, dept) VALUES (l_ids(i), 'x' || l_ids(i), 1, 1);
  p_report := 'all ' || SQL%BULK_ROWCOUNT(1);
EXCEPTION
  WHEN e_dml THEN
    p_report := SQL%BULK_EXCEPTIONS.COUNT || ':';
    FOR j IN 1 .. SQL%BULK_EXCEPTIONS.COUNT LOOP
      p_report := p_report || ' #' || SQL%BULK_EXCEPTIONS(j).ERROR_INDEX || ' ' || SQLERRM(-SQL%BULK_EXCEPTIONS(j).ERROR_CODE);
    END LOOP;
END load_emps;
/
