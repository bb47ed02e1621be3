CREATE OR REPLACE PROCEDURE reserve_seat (p_row IN NUMBER, p_seat OUT NUMBER, p_note IN OUT VARCHAR2) IS
  PRAGMA AUTONOMOUS_TRANSACTION;
BEGIN
  p_seat := p_row * 100 + 1;
  p_note := p_note || ' row ' || p_row;
  COMMIT;
END reserve_seat;
/
