CREATE VIEW active_emp AS SELECT * FROM employees WHERE status = 'A' WITH CHECK OPTION CONSTRAINT active_emp_ck
