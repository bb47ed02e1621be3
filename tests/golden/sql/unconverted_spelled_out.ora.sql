SELECT TO_CHAR(hiredate, 'DD "of" Month, YEAR') FROM emp
