UPDATE emp SET sal = sal * 1.1, hiredate = NVL(hiredate, SYSDATE) WHERE deptno = DECODE(v_dept, NULL, 10, v_dept)
