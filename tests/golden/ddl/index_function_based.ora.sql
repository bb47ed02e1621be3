CREATE INDEX hr.emp_name_ix ON hr.employees (UPPER(last_name), hire_date DESC) TABLESPACE idx PCTFREE 5 COMPUTE STATISTICS
