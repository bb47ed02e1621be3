SELECT ename, (CAST(sal AS DECIMAL) / SUM(sal) OVER (PARTITION BY deptno)), (CAST(sal AS DECIMAL) / SUM(sal) OVER ()) FROM emp
