SELECT deptno, LISTAGG(ename) WITHIN GROUP (ORDER BY ename) AS names FROM emp GROUP BY deptno
