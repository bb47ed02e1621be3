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
