CREATE OR REPLACE PROCEDURE write_log (p_msg IN VARCHAR2) IS
  f UTL_FILE.FILE_TYPE;
BEGIN
  f := UTL_FILE.FOPEN('LOGDIR', 'app.log', 'a');
  UTL_FILE.PUT_LINE(f, p_msg);
  SYS.UTL_FILE.FCLOSE(f);
  HTP.P('<p>' || p_msg || '</p>');
EXCEPTION
  WHEN UTL_FILE.INVALID_PATH THEN
    DBMS_OUTPUT.PUT_LINE('no log directory');
END write_log;
/
