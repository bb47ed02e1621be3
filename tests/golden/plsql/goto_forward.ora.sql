CREATE OR REPLACE FUNCTION split_quoted (p_line IN VARCHAR2) RETURN VARCHAR2 IS
  l_pos    PLS_INTEGER := 0;
  l_char   VARCHAR2(1);
  l_quoted BOOLEAN := FALSE;
  l_field  VARCHAR2(4000);
  l_out    VARCHAR2(4000);
BEGIN
  LOOP
    l_pos := l_pos + 1;
    EXIT WHEN l_pos > NVL(LENGTH(p_line), 0) + 1;
    l_char := SUBSTR(p_line, l_pos, 1);
    IF l_char = '"' THEN
      l_quoted := NOT l_quoted;
      GOTO next_char;  -- the quote itself is not kept
    END IF;
    IF (l_char = ',' AND NOT l_quoted) OR l_char IS NULL THEN
      l_out := l_out || '[' || l_field || ']';
      l_field := NULL;
      IF l_char IS NULL THEN
        GOTO done;
      END IF;
      GOTO next_char;
    END IF;
    l_field := l_field || l_char;
    <<next_char>>
    NULL;
  END LOOP;
  <<done>>
  RETURN l_out;
END split_quoted;
