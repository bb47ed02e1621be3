ALTER TABLE employees
    ADD COLUMN nickname varchar(30),
    ADD COLUMN badge_no integer DEFAULT 0 NOT NULL;
-- rules: ddl.varchar2, ddl.number_type, ddl.alter_table
