INSERT INTO departments (department_id, department_name, created_on) VALUES (31, 'Quality Assurance', CAST(TO_TIMESTAMP('2018-07-01 08:30:00', 'YYYY-MM-DD HH24:MI:SS') AS TIMESTAMP(0)));
-- rules: expr.to_date, data.insert
