CREATE MATERIALIZED VIEW dept_totals AS
SELECT department_id, COUNT(*) AS headcount, SUM(salary) AS total_salary FROM employees GROUP BY department_id
WITH DATA;
-- note: materialized view options dropped: BUILD IMMEDIATE REFRESH COMPLETE ON DEMAND ENABLE QUERY REWRITE; PostgreSQL refreshes only on REFRESH MATERIALIZED VIEW (no FAST/ON COMMIT/scheduled refresh)
-- rules: ddl.materialized_view
