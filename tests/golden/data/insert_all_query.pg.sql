INSERT INTO emp_names (id, name) SELECT employee_id, last_name FROM (SELECT employee_id, last_name, salary FROM employees) AS src;
INSERT INTO emp_pay (id, pay) SELECT employee_id, salary FROM (SELECT employee_id, last_name, salary FROM employees) AS src;
-- note: INSERT ALL over a query: the query runs once per target table
-- rules: data.insert_all
