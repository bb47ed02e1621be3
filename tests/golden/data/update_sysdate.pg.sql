UPDATE employees SET last_modified = CURRENT_TIMESTAMP, termination_date = LOCALTIMESTAMP(0) WHERE employee_id = 104;
-- rules: expr.sysdate, data.insert
