SELECT deptno, STRING_AGG(ename, ', ' ORDER BY ename) FROM emp GROUP BY deptno
