CREATE OR REPLACE PROCEDURE list_dept(p_dept NUMBER) IS
  TYPE id_list IS TABLE OF emp.id%TYPE;
  TYPE name_map IS TABLE OF emp.name%TYPE INDEX BY PLS_INTEGER;
  CURSOR c_names IS SELECT name FROM emp WHERE dept = p_dept ORDER BY name;
  v_ids   id_list;
  v_names name_map;
  v_found BOOLEAN := FALSE;
BEGIN
  SELECT id BULK COLLECT INTO v_ids FROM emp WHERE dept = p_dept ORDER BY id;
  v_found := v_ids.COUNT > 0;
  OPEN c_names;
  LOOP
    FETCH c_names BULK COLLECT INTO v_names LIMIT 2;
    EXIT WHEN v_names.COUNT = 0;
    FOR i IN 1 .. v_names.COUNT LOOP
      DBMS_OUTPUT.PUT_LINE(v_names(i));
    END LOOP;
    EXIT WHEN c_names%NOTFOUND;
  END LOOP;
  CLOSE c_names;
  IF v_found THEN
    DBMS_OUTPUT.PUT_LINE(v_ids.COUNT || ' employees');
  END IF;
END list_dept;
/
