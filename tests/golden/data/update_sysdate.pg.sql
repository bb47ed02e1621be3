UPDATE employees SET last_modified = CURRENT_TIMESTAMP, termination_date = oracompat.sysdate() WHERE employee_id = 104;
-- rules: expr.sysdate, data.insert
