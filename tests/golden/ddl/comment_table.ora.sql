COMMENT ON TABLE employees IS q'[Employees' master data]'
