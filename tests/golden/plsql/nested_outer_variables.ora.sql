CREATE OR REPLACE FUNCTION format_list (p_items IN VARCHAR2, p_sep IN VARCHAR2 := ', ') RETURN VARCHAR2 IS
  l_out   VARCHAR2(4000);
  l_count PLS_INTEGER := 0;
  l_rest  VARCHAR2(4000) := p_items;

  FUNCTION quoted (p_text IN VARCHAR2) RETURN VARCHAR2 IS
  BEGIN
    RETURN '"' || p_text || '"' || CASE WHEN l_count > 0 THEN '*' END;
  END quoted;

  PROCEDURE add_item (p_text IN VARCHAR2) IS
  BEGIN
    IF l_out IS NOT NULL THEN
      l_out := l_out || p_sep;
    END IF;
    l_out := l_out || quoted(p_text);
    l_count := l_count + 1;
  END add_item;
BEGIN
  WHILE l_rest IS NOT NULL LOOP
    IF INSTR(l_rest, ',') > 0 THEN
      add_item(SUBSTR(l_rest, 1, INSTR(l_rest, ',') - 1));
      l_rest := SUBSTR(l_rest, INSTR(l_rest, ',') + 1);
    ELSE
      add_item(l_rest);
      l_rest := NULL;
    END IF;
  END LOOP;
  RETURN l_out || ' (' || l_count || ')';
END format_list;
/
