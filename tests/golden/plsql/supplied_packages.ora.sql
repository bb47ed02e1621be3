CREATE OR REPLACE PROCEDURE lob_and_sql (p_id IN NUMBER, p_out OUT VARCHAR2) IS
  v_clob  CLOB;
  v_amt   NUMBER := 3;
  v_buf   VARCHAR2(100);
  v_names DBMS_UTILITY.UNCL_ARRAY;
  v_count BINARY_INTEGER;
  c       INTEGER;
  v_rows  INTEGER;
BEGIN
  DBMS_LOB.CREATETEMPORARY(v_clob, TRUE, DBMS_LOB.CALL);
  DBMS_LOB.APPEND(v_clob, 'abcdef');
  DBMS_LOB.ERASE(v_clob, v_amt, 2);
  DBMS_LOB.READ(lob_loc => v_clob, amount => v_amt, offset => 1, buffer => v_buf);
  DBMS_UTILITY.COMMA_TO_TABLE('emp,dept', v_count, v_names);
  c := DBMS_SQL.OPEN_CURSOR;
  DBMS_SQL.PARSE(c, 'SELECT name FROM emp WHERE id = :id', DBMS_SQL.NATIVE);
  DBMS_SQL.BIND_VARIABLE(c, ':id', p_id);
  DBMS_SQL.DEFINE_COLUMN(c, 1, v_buf, 100);
  v_rows := DBMS_SQL.EXECUTE(c);
  IF DBMS_SQL.FETCH_ROWS(c) > 0 THEN
    DBMS_SQL.COLUMN_VALUE(c, 1, v_buf);
  END IF;
  DBMS_SQL.CLOSE_CURSOR(c);
  DBMS_APPLICATION_INFO.SET_MODULE('lob_and_sql', NULL);
  p_out := v_buf || ' ' || v_names(v_count) || ' ' || DBMS_LOB.GETLENGTH(v_clob);
EXCEPTION
  WHEN DBMS_ASSERT.INVALID_SQL_NAME THEN
    p_out := NULL;
  WHEN OTHERS THEN
    p_out := DBMS_UTILITY.FORMAT_ERROR_STACK || DBMS_UTILITY.FORMAT_ERROR_BACKTRACE;
END lob_and_sql;
/
