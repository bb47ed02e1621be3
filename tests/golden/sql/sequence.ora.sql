INSERT INTO emp (empno, ename) VALUES (hr.emp_seq.NEXTVAL, 'NEW')
