CREATE OR REPLACE FUNCTION parse_amount (p_text IN VARCHAR2) RETURN VARCHAR2 IS
    v_amount NUMBER := TO_NUMBER(p_text);
    v_len    NUMBER := NVL(LENGTH(p_text), 0);
BEGIN
    RETURN NVL(TO_CHAR(v_amount), 'none') || '/' || v_len;
EXCEPTION
    WHEN VALUE_ERROR THEN
        RETURN 'not handled here: declarations raise to the caller';
END parse_amount;
/
