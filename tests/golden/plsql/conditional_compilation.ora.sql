CREATE OR REPLACE FUNCTION build_info (p_tag IN VARCHAR2) RETURN VARCHAR2 IS
  l_out VARCHAR2(200);
BEGIN
  $IF DBMS_DB_VERSION.VER_LE_11_2 $THEN
    l_out := 'legacy';
  $ELSIF DBMS_DB_VERSION.VERSION >= 18 AND $$trace_level IS NULL $THEN
    l_out := 'current';
    $IF $$PLSQL_OPTIMIZE_LEVEL > 1 $THEN
      l_out := l_out || '/optimized';
    $END
  $ELSE
    $ERROR 'unsupported release ' || DBMS_DB_VERSION.VERSION $END
  $END
  RETURN $$PLSQL_UNIT || '@' || $$PLSQL_LINE || ': ' || l_out || ' ' || p_tag;
END build_info;
