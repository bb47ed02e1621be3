SELECT * FROM (SELECT ename, sal FROM emp ORDER BY sal DESC) AS subquery__1 LIMIT 3
