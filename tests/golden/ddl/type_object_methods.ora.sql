CREATE OR REPLACE TYPE money_t AS OBJECT (
    amount   NUMBER(14,2),
    currency CHAR(3),
    MEMBER FUNCTION to_string RETURN VARCHAR2,
    STATIC FUNCTION zero (p_currency CHAR) RETURN money_t
) NOT FINAL
