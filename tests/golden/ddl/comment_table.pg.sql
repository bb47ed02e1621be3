COMMENT ON TABLE employees IS 'Employees'' master data';
-- rules: ddl.comment
