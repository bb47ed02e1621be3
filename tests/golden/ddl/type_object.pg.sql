CREATE TYPE address_t AS (
    street varchar(80),
    city varchar(40),
    zip char(5),
    since timestamp(0)
);
-- rules: ddl.varchar2, ddl.char_type, ddl.date_type, ddl.object_type
