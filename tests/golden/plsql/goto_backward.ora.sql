CREATE OR REPLACE FUNCTION halvings (p_n IN NUMBER) RETURN NUMBER IS
  l_n     NUMBER := p_n;
  l_count NUMBER := 0;
BEGIN
  <<again>>
  IF l_n > 1 THEN
    l_n := TRUNC(l_n / 2);
    l_count := l_count + 1;
    GOTO again;
  END IF;
  RETURN l_count;
END halvings;
/
