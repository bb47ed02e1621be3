INSERT INTO depts (dept_id, dept_name) VALUES (10, 'Sales');
INSERT INTO depts (dept_id, dept_name) VALUES (20, 'Research');
INSERT INTO depts (dept_id, dept_name) VALUES (30, 'Support');
INSERT INTO staff (staff_id, dept_id, salary, raise_count) VALUES (101, 10, 6000, 0);
INSERT INTO staff (staff_id, dept_id, salary, raise_count) VALUES (102, 20, 5000, 1);
INSERT INTO staff (staff_id, dept_id, salary, raise_count) VALUES (103, 30, 4000, 0);
INSERT INTO staff (staff_id, dept_id, salary, raise_count) VALUES (104, 10, 3000, 2);
