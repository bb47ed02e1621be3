INSERT INTO employees (employee_id, last_name) VALUES (employees_seq.NEXTVAL, NVL('', 'unknown'))
