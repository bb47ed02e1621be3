CREATE OR REPLACE FUNCTION words (p_text IN VARCHAR2) RETURN point_list PIPELINED IS
  l_words point_list := point_list();
BEGIN
  FOR i IN 1 .. REGEXP_COUNT(p_text, '[^ ]+') LOOP
    PIPE ROW (point_t(i, LENGTH(REGEXP_SUBSTR(p_text, '[^ ]+', 1, i))));
  END LOOP;
  FOR r IN (SELECT x FROM TABLE(l_words)) LOOP
    PIPE ROW (point_t(r.x, 0));
  END LOOP;
  RETURN;
END words;
/
