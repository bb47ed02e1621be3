CREATE OR REPLACE FUNCTION credit_check (p_amount IN NUMBER) RETURN VARCHAR2 IS
BEGIN
    DECLARE
        credit_limit CONSTANT NUMBER(3) := p_amount;
        tries POSITIVE := 1;
        flag SIGNTYPE := SIGN(p_amount);
    BEGIN
        RETURN 'within ' || credit_limit || tries || flag;
    END;
EXCEPTION
    WHEN VALUE_ERROR THEN
        RETURN 'raised in declaration';
END credit_check;
/
