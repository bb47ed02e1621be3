SELECT deptno, LISTAGG(ename, ', ') WITHIN GROUP (ORDER BY ename) FROM emp GROUP BY deptno
