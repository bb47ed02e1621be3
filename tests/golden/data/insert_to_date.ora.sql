INSERT INTO departments (department_id, department_name, created_on) VALUES (31, 'Quality Assurance', TO_DATE('2018-07-01 08:30:00', 'YYYY-MM-DD HH24:MI:SS'))
