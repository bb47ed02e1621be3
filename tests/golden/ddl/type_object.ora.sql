CREATE OR REPLACE TYPE address_t AS OBJECT (
    street   VARCHAR2(80),
    city     VARCHAR2(40),
    zip      CHAR(5),
    since    DATE
)
