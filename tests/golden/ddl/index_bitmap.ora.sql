CREATE BITMAP INDEX emp_status_bix ON employees (status) NOLOGGING
