UPDATE emp SET sal = sal * 1.1, hiredate = NVL(hiredate, SYSDATE) WHERE deptno = DECODE(:x, NULL, 10, 20)
