COMMENT ON COLUMN hr.employees.salary IS 'Monthly gross salary';
-- rules: ddl.comment
