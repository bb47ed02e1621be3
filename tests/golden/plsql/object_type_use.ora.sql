CREATE OR REPLACE FUNCTION path_length (p_points IN VARCHAR2) RETURN NUMBER IS
  l_points point_list := point_list(point_t.origin(), point_t('3,4'));
  l_total  NUMBER := 0;
BEGIN
  l_points.EXTEND;
  l_points(l_points.COUNT) := point_t(p_points);
  FOR i IN 1 .. l_points.COUNT LOOP
    l_total := l_total + l_points(i).norm1();
  END LOOP;
  FOR r IN (SELECT x, y FROM TABLE(l_points) WHERE x > 0) LOOP
    l_total := l_total + r.x;
  END LOOP;
  RETURN l_total;
END path_length;
/
