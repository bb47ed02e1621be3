CREATE OR REPLACE PACKAGE BODY counter_pkg AS
  TYPE name_map IS TABLE OF VARCHAR2(40) INDEX BY VARCHAR2(10);
  g_names name_map;
  g_inits PLS_INTEGER := 0;
  FUNCTION next_val RETURN PLS_INTEGER IS
  BEGIN
    g_count := g_count + c_step;
    g_names('k' || g_count) := 'v';
    RETURN g_count;
  END next_val;
  PROCEDURE reset IS
  BEGIN
    g_names.DELETE;
    g_count := next_val - next_val;
  END reset;
BEGIN
  g_inits := g_inits + 1;
END counter_pkg;
