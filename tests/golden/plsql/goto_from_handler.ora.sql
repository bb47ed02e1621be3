CREATE OR REPLACE PROCEDURE checked_count (p_n IN NUMBER, p_msg OUT VARCHAR2) IS
BEGIN
  p_msg := 'start';
  BEGIN
    IF p_n IS NULL THEN
      GOTO finish;
    END IF;
    p_msg := p_msg || ' counted ' || p_n;
  EXCEPTION
    WHEN OTHERS THEN
      p_msg := 'failed';
      GOTO finish;
  END;
  p_msg := p_msg || ' checked';
  <<finish>>
  p_msg := p_msg || ' end';
END checked_count;
