CREATE OR REPLACE PROCEDURE countdown (p_from IN PLS_INTEGER, p_total OUT NUMBER, p_acc IN OUT NUMBER) IS
  v_i PLS_INTEGER := 0;
BEGIN
  p_total := 0;
  FOR i IN REVERSE 1 .. p_from LOOP
    DBMS_OUTPUT.PUT_LINE('i=' || i);
    p_total := p_total + i;
  END LOOP;
  WHILE v_i < 3 LOOP
    v_i := v_i + 1;
    CONTINUE WHEN v_i = 2;
    p_acc := p_acc + v_i;
  END LOOP;
  <<outer>>
  LOOP
    EXIT outer WHEN p_acc > 100;
    p_acc := p_acc * 2;
  END LOOP outer;
  CASE p_from
    WHEN 1 THEN NULL;
    WHEN 2 THEN log_it('two');
  END CASE;
END countdown;
