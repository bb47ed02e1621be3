CREATE OR REPLACE VIEW active_emp AS
SELECT * FROM employees WHERE status = 'A'
WITH CHECK OPTION;
-- note: check option constraint name dropped: CONSTRAINT active_emp_ck
-- rules: ddl.view
