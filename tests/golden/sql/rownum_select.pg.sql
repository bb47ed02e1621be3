SELECT ROW_NUMBER() OVER () AS rn, ename FROM emp WHERE deptno = 10 LIMIT 4
