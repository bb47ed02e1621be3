INSERT INTO emp (empno, ename) VALUES (NEXTVAL('hr.emp_seq'), 'NEW')
