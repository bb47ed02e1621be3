CREATE OR REPLACE TYPE t_span AS OBJECT (
    lo NUMBER,
    hi NUMBER,
    CONSTRUCTOR FUNCTION t_span (p_text IN VARCHAR2) RETURN SELF AS RESULT,
    MEMBER FUNCTION width RETURN NUMBER,
    MEMBER PROCEDURE widen (p_by IN NUMBER),
    STATIC FUNCTION of_width (p_width IN NUMBER) RETURN t_span
);
/

CREATE OR REPLACE TYPE BODY t_span AS
    CONSTRUCTOR FUNCTION t_span (p_text IN VARCHAR2) RETURN SELF AS RESULT IS
        l_dash PLS_INTEGER := INSTR(p_text, '-');
    BEGIN
        IF l_dash = 0 THEN
            lo := TO_NUMBER(p_text);
            hi := lo;
        ELSE
            lo := TO_NUMBER(SUBSTR(p_text, 1, l_dash - 1));
            hi := TO_NUMBER(SUBSTR(p_text, l_dash + 1));
        END IF;
        RETURN;
    END;

    MEMBER FUNCTION width RETURN NUMBER IS
    BEGIN
        RETURN NVL(hi, 0) - NVL(lo, 0) + 1;
    END;

    MEMBER PROCEDURE widen (p_by IN NUMBER) IS
    BEGIN
        hi := hi + NVL(p_by, 1);
    END;

    STATIC FUNCTION of_width (p_width IN NUMBER) RETURN t_span IS
    BEGIN
        RETURN t_span(1, p_width);
    END;
END;
/
