ALTER TABLE employees
    ALTER COLUMN email TYPE varchar(200),
    ALTER COLUMN email SET NOT NULL,
    ALTER COLUMN status SET DEFAULT 'A';
-- rules: ddl.varchar2, ddl.alter_table
