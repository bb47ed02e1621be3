SELECT * FROM (SELECT deptno, job, sal FROM emp) PIVOT (SUM(sal) AS total, COUNT(*) AS n FOR job IN ('CLERK' AS clerk, 'MGR' AS mgr, 'PRES')) p WHERE deptno > 10 ORDER BY deptno
