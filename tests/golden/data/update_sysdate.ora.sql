UPDATE employees SET last_modified = SYSTIMESTAMP, termination_date = SYSDATE WHERE employee_id = 104
