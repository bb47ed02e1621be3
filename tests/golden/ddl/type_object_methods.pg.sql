CREATE TYPE money_t AS (
    amount numeric(14,2),
    currency char(3)
);
-- note: 2 MEMBER/STATIC method(s) of money_t become functions money_t__<method>(self money_t, ...) created by the TYPE BODY
-- note: type modifiers dropped: NOT FINAL (no inheritance in composite types)
-- rules: ddl.number_type, ddl.char_type, ddl.object_type
