CREATE OR REPLACE PACKAGE str_pkg AS
  g_max_db_varchar2_def VARCHAR2(4000);
  SUBTYPE t_max_db_varchar2 IS g_max_db_varchar2_def%TYPE;
  TYPE t_token IS RECORD (token t_max_db_varchar2, raw_key RAW(16));
  FUNCTION hex_of (p_key IN RAW) RETURN t_max_db_varchar2;
END str_pkg;
/
