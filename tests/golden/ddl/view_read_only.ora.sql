CREATE OR REPLACE FORCE VIEW emp_v (id, full_name, hired) AS
SELECT e.employee_id, e.first_name || ' ' || e.last_name, e.hire_date
FROM employees e
WHERE e.status = 'A'
WITH READ ONLY
