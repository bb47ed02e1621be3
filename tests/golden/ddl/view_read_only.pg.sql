CREATE OR REPLACE VIEW emp_v (id, full_name, hired) AS
SELECT e.employee_id, CONCAT(oracompat.to_text(e.first_name), ' ', e.last_name), e.hire_date FROM employees AS e WHERE e.status = 'A';
-- note: FORCE dropped: PostgreSQL needs the view's tables to exist (deploy order handles it)
-- note: WITH READ ONLY: PostgreSQL views on one table are updatable; revoke INSERT/UPDATE/DELETE on the view to keep it read-only
-- rules: expr.concat_null, expr.implicit_to_text, ddl.view
