CREATE OR REPLACE FUNCTION padded_code (p_id IN NUMBER) RETURN VARCHAR2 IS
  v_code CHAR(6);
  v_text VARCHAR2(20);
BEGIN
  SELECT name INTO v_code FROM emp WHERE id = p_id;
  v_text := v_code;
  IF v_code = v_text THEN
    RETURN 'never';
  END IF;
  RETURN v_code || '|' || LENGTH(v_code) || '|' || LENGTH(v_text);
END padded_code;
/
