INSERT ALL
  INTO emp_names (id, name) VALUES (employee_id, last_name)
  INTO emp_pay (id, pay) VALUES (employee_id, salary)
SELECT employee_id, last_name, salary FROM employees
