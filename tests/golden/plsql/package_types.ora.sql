CREATE OR REPLACE PACKAGE string_util_pkg AS
  SUBTYPE t_max_db_varchar2 IS VARCHAR2(4000);
  SUBTYPE t_flag IS PLS_INTEGER RANGE 0 .. 1;
  TYPE t_str_array IS TABLE OF VARCHAR2(4000);
  TYPE t_small IS VARRAY(3) OF NUMBER;
  TYPE t_pair IS RECORD (name VARCHAR2(30), val NUMBER(10,2));
  TYPE t_pairs IS TABLE OF t_pair;
  TYPE t_index IS TABLE OF NUMBER INDEX BY VARCHAR2(30);
  g_sep t_max_db_varchar2 := ',';
  g_last_pair t_pair;
  FUNCTION split_str (p_str IN t_max_db_varchar2, p_sep IN VARCHAR2 := ',') RETURN t_str_array;
END string_util_pkg;
/
