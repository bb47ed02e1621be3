SELECT deptno, MAX(ename) KEEP (DENSE_RANK FIRST ORDER BY sal), COUNT(*) KEEP (DENSE_RANK LAST ORDER BY sal, hiredate DESC),
       MIN(hiredate) KEEP (DENSE_RANK LAST ORDER BY sal NULLS FIRST) OVER (PARTITION BY deptno)
FROM emp GROUP BY deptno, hiredate, sal
