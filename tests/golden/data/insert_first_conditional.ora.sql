INSERT FIRST
  WHEN salary > 5000 THEN INTO high_paid (id) VALUES (employee_id)
  ELSE INTO low_paid (id) VALUES (employee_id)
SELECT employee_id, salary FROM employees
