CREATE TABLE emp_copy AS
SELECT employee_id, last_name FROM employees WHERE 1 = 0;
