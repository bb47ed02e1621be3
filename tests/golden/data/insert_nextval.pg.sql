INSERT INTO employees (employee_id, last_name) VALUES (NEXTVAL('employees_seq'), COALESCE(NULL, 'unknown'));
-- rules: expr.nvl, expr.empty_string_null, sql.sequence_nextval, data.insert
