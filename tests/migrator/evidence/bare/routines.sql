CREATE OR REPLACE FUNCTION team_points (p_team_id IN NUMBER) RETURN NUMBER IS
    v_total  NUMBER;
    v_status VARCHAR2(6);
BEGIN
    SELECT status INTO v_status FROM teams WHERE team_id = p_team_id;
    IF v_status = 'PAUSED' THEN
        RETURN 0;
    END IF;
    SELECT NVL(SUM(points), 0) * 2 INTO v_total FROM members WHERE team_id = p_team_id;
    RETURN v_total;
EXCEPTION
    WHEN NO_DATA_FOUND THEN
        RETURN -1;
END team_points;
/

CREATE OR REPLACE TRIGGER members_bi
BEFORE INSERT OR UPDATE ON members
FOR EACH ROW
BEGIN
    IF :NEW.member_id IS NULL THEN
        :NEW.member_id := members_seq.NEXTVAL;
    END IF;
    IF :NEW.points < 0 THEN
        RAISE_APPLICATION_ERROR(-20001, 'negative points');
    END IF;
    :NEW.points := NVL(:NEW.points, 5);
END;
/
