CREATE OR REPLACE FUNCTION pick (p_i IN NUMBER) RETURN VARCHAR2 IS
  TYPE t_days IS VARRAY(7) OF VARCHAR2(3);
  TYPE t_list IS TABLE OF VARCHAR2(10);
  l_days t_days := t_days('MON', 'TUE');
  l_list t_list := t_list('x');
BEGIN
  l_list(1) := l_days(p_i);
  RETURN l_days.LIMIT || '/' || l_list.LIMIT || '/' || l_list(1);
EXCEPTION
  WHEN SUBSCRIPT_BEYOND_COUNT THEN
    RETURN 'beyond';
  WHEN SUBSCRIPT_OUTSIDE_LIMIT THEN
    RETURN 'outside';
END pick;
/
