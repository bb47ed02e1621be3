CREATE INDEX emp_name_ix ON hr.employees ((UPPER(last_name)), hire_date DESC);
-- note: index options dropped (storage/build only, no behaviour): TABLESPACE idx PCTFREE 5 COMPUTE STATISTICS
-- rules: ddl.physical_attributes, ddl.index
