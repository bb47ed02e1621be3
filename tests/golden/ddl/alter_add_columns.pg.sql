ALTER TABLE employees
    ADD COLUMN nickname varchar(30),
    ADD COLUMN badge_no numeric(6) DEFAULT 0 NOT NULL;
-- rules: ddl.varchar2, ddl.number_type, ddl.number_precision, ddl.alter_table
