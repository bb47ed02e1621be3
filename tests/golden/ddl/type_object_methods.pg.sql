CREATE TYPE money_t AS (
    amount numeric(14,2),
    currency char(3)
);
/* MIGRATOR_UNCONVERTED(object type methods): MEMBER FUNCTION to_string RETURN VARCHAR2
STATIC FUNCTION zero (p_currency CHAR) RETURN money_t */ MIGRATOR_UNCONVERTED;
-- unconverted: object type methods: 2 method declaration(s) of money_t: PostgreSQL composite types have no methods (convert them to functions taking the type)
-- note: type modifiers dropped: NOT FINAL (no inheritance in composite types)
-- rules: ddl.number_type, ddl.char_type, ddl.object_type
