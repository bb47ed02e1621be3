CREATE OR REPLACE FUNCTION one_line (p_text IN VARCHAR2) RETURN NUMBER IS
BEGIN
  IF REGEXP_LIKE(p_text, '^[a-z]+.[a-z]+$') THEN
    RETURN 1;
  ELSIF REGEXP_LIKE(p_text, '^[a-z]+$', 'm') THEN
    RETURN 2;
  END IF;
  RETURN REGEXP_COUNT(p_text, CHR(10)) + 10;
END one_line;
/
