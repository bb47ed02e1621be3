SELECT TO_CHAR(hiredate, 'DDSPTH "of" Month') FROM emp
