ALTER TABLE employees ADD CONSTRAINT employees_dept_fk FOREIGN KEY (department_id) REFERENCES departments (department_id) ON DELETE SET NULL ENABLE NOVALIDATE
