-- from every root, leads' names in order
CREATE OR REPLACE PROCEDURE print_crew_tree IS
BEGIN
    FOR r IN (SELECT LEVEL AS lvl, last_name
                FROM crew
               START WITH lead_id IS NULL
             CONNECT BY PRIOR crew_id = lead_id
               ORDER SIBLINGS BY last_name)
    LOOP
        DBMS_OUTPUT.PUT_LINE(LPAD('-', r.lvl, '-') || r.last_name);
    END LOOP;
END print_crew_tree;
/

-- a default that shows only for a team with a leaver
CREATE OR REPLACE FUNCTION team_size (p_team_id IN NUMBER, p_with_leavers IN NUMBER DEFAULT 0) RETURN NUMBER IS
    v_n NUMBER;
BEGIN
    SELECT COUNT(*) INTO v_n FROM crew WHERE team_id = p_team_id AND (p_with_leavers = 1 OR status <> 'X');
    RETURN v_n;
END team_size;
/

-- the second parameter decides only when the first is NULL
CREATE OR REPLACE FUNCTION crew_label (p_left IN DATE, p_status IN CHAR) RETURN VARCHAR2 IS
BEGIN
    IF p_left IS NULL THEN
        RETURN CASE WHEN p_status = 'A' THEN 'active' WHEN p_status = 'S' THEN 'sick' ELSE 'other' END;
    END IF;
    RETURN 'left';
END crew_label;
/

CREATE OR REPLACE FUNCTION short_code (p_code IN VARCHAR2) RETURN VARCHAR2 IS
BEGIN
    IF LENGTH(p_code) <= 6 THEN
        RETURN p_code;
    END IF;
    RETURN SUBSTR(p_code, 1, 3) || '~';
END short_code;
/

CREATE OR REPLACE FUNCTION read_amount (p_text IN VARCHAR2) RETURN NUMBER IS
BEGIN
    RETURN TO_NUMBER(p_text, '9999D99', 'NLS_NUMERIC_CHARACTERS='',.''');
EXCEPTION
    WHEN VALUE_ERROR OR INVALID_NUMBER THEN
        RETURN -1;
END read_amount;
/

-- writes a random number: the column is left out of the check, the call kept
CREATE OR REPLACE PROCEDURE log_visit (p_crew_id IN NUMBER) IS
BEGIN
    INSERT INTO visits (crew_id, token) VALUES (p_crew_id, DBMS_RANDOM.VALUE);
END log_visit;
/

-- a limit the four crew members never reach: shows with the data copied once
CREATE OR REPLACE FUNCTION first_crew (p_limit IN NUMBER DEFAULT 4) RETURN NUMBER IS
    v_n NUMBER;
BEGIN
    SELECT COUNT(*) INTO v_n FROM crew WHERE ROWNUM <= p_limit;
    RETURN v_n;
END first_crew;
/

-- a bound per kind: a shift of 1 hour of another kind than NIGHT is the only one `<= 1` refuses
CREATE OR REPLACE TRIGGER shifts_bi
BEFORE INSERT ON shifts
FOR EACH ROW
BEGIN
    CASE :NEW.kind
        WHEN 'NIGHT' THEN
            IF :NEW.hours > 8 THEN
                RAISE_APPLICATION_ERROR(-20011, 'Night shifts are 8 hours at most');
            END IF;
        ELSE
            IF :NEW.hours <= 0 THEN
                RAISE_APPLICATION_ERROR(-20012, 'Hours must be positive');
            END IF;
    END CASE;
END shifts_bi;
/

-- the sum of nothing: a crew member's last shift deleted (every crew member has two)
CREATE OR REPLACE TRIGGER shifts_total_trg
AFTER DELETE ON shifts
BEGIN
    UPDATE crew c
       SET c.bonus = (SELECT NVL(SUM(s.hours), 0) FROM shifts s WHERE s.crew_id = c.crew_id)
     WHERE c.status = 'A';
END shifts_total_trg;
/

-- a cutoff months before SYSDATE (frozen): a posting 6 months and a day old is stale, 7 months would not tell
CREATE OR REPLACE PROCEDURE close_stale_postings (p_months IN NUMBER DEFAULT 6, p_as_of IN DATE DEFAULT SYSDATE) IS
BEGIN
    UPDATE postings SET status = 'STALE' WHERE status = 'OPEN' AND posted_on < ADD_MONTHS(TRUNC(p_as_of), -p_months);
END close_stale_postings;
/

-- a percentage clamped at 100: shows only with more hours than the export's rows hold
CREATE OR REPLACE FUNCTION load_pct (p_crew_id IN NUMBER) RETURN NUMBER IS
    v_hours NUMBER;
BEGIN
    SELECT hours INTO v_hours FROM loads WHERE crew_id = p_crew_id;
    RETURN LEAST(ROUND(100 * v_hours / 40), 100);
END load_pct;
/
