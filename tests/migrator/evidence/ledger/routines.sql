-- the account's postings of one month: a window one month too long shows only with the
-- account's own dates (calls whose key and date come from the same rows)
CREATE OR REPLACE FUNCTION month_total (p_acct_id IN NUMBER, p_month IN DATE) RETURN NUMBER IS
    v_total NUMBER;
BEGIN
    SELECT SUM(e.amount)
      INTO v_total
      FROM entries e
      JOIN accounts a ON a.acct_id = e.acct_id
     WHERE e.acct_id = p_acct_id
       AND a.kind <> 'GONE'
       AND e.posted_on >= TRUNC(p_month, 'MM')
       AND e.posted_on < ADD_MONTHS(TRUNC(p_month, 'MM'), 1);
    RETURN v_total;
END month_total;
/

-- a rounding to 2 places shows only with more decimals than 2, and without the cap
CREATE OR REPLACE PROCEDURE grow (p_amount IN OUT NUMBER, p_pct IN NUMBER DEFAULT 3, p_cap IN NUMBER DEFAULT NULL) IS
BEGIN
    p_amount := ROUND(p_amount * (1 + NVL(p_pct, 0) / 100), 2);
    IF p_cap IS NOT NULL THEN
        p_amount := LEAST(p_amount, p_cap);
    END IF;
END grow;
/

-- reads the error being handled: called from a handler only does it read one
CREATE OR REPLACE PROCEDURE note_error (p_where IN VARCHAR2) IS
BEGIN
    DBMS_OUTPUT.PUT_LINE(p_where || ': ' || SUBSTR(DBMS_UTILITY.FORMAT_ERROR_STACK, 1, 200));
END note_error;
/

-- a month at a time from one date to another: the loop runs with the dates far apart, in order
CREATE OR REPLACE FUNCTION grown_balance (p_acct_id IN NUMBER, p_until IN DATE, p_from IN DATE DEFAULT SYSDATE)
RETURN NUMBER IS
    v_bal    NUMBER;
    v_kind   VARCHAR2(10);
    v_month  DATE;
    v_months PLS_INTEGER;
BEGIN
    SELECT balance, kind INTO v_bal, v_kind FROM accounts WHERE acct_id = p_acct_id;
    v_months := FLOOR(MONTHS_BETWEEN(TRUNC(p_until, 'MM'), TRUNC(p_from, 'MM')));
    v_month  := TRUNC(p_from, 'MM');
    FOR m IN 1 .. v_months LOOP
        IF v_kind = 'SAVE' THEN
            v_bal := v_bal + ROUND(v_bal * (LAST_DAY(v_month) - v_month + 1) / 3650, 2);
        END IF;
        v_month := ADD_MONTHS(v_month, 1);
    END LOOP;
    RETURN v_bal;
EXCEPTION
    WHEN NO_DATA_FOUND THEN
        RETURN NULL;
END grown_balance;
/
