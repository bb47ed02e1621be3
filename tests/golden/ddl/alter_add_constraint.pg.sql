ALTER TABLE employees
    ADD CONSTRAINT employees_dept_fk FOREIGN KEY (department_id) REFERENCES departments (department_id) ON DELETE SET NULL;
-- note: constraint state dropped (no PostgreSQL equivalent): ENABLE NOVALIDATE
-- rules: ddl.alter_table
