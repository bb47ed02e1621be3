SELECT deptno, STRING_AGG(ename, '' ORDER BY ename) AS names FROM emp GROUP BY deptno
