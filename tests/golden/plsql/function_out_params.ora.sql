CREATE OR REPLACE PACKAGE BODY ledger_pkg AS
  FUNCTION take (p_balance IN OUT NUMBER, p_amount IN NUMBER, p_short OUT NUMBER) RETURN BOOLEAN IS
  BEGIN
    p_short := GREATEST(p_amount - p_balance, 0);
    IF p_short > 0 THEN
      RETURN FALSE;
    END IF;
    p_balance := p_balance - p_amount;
    RETURN TRUE;
  END take;

  PROCEDURE settle (p_balance IN OUT NUMBER) IS
    v_short NUMBER;
    v_ok    BOOLEAN;
  BEGIN
    v_ok := take(p_balance, 10, v_short);
    IF p_balance > 100 THEN
      DBMS_OUTPUT.PUT_LINE('rich');
    ELSIF take(p_amount => 5, p_balance => p_balance, p_short => v_short) THEN
      DBMS_OUTPUT.PUT_LINE('took 5, left ' || p_balance);
    END IF;
    WHILE take(p_balance, 1, v_short) LOOP
      DBMS_OUTPUT.PUT_LINE('left ' || p_balance);
    END LOOP;
    DBMS_OUTPUT.PUT_LINE('short ' || v_short);
  END settle;
END ledger_pkg;
