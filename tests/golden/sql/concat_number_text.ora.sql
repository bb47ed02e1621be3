SELECT 'Pay ' || sal || ' since ' || hiredate || ' x' || 9.50 || ename || CONCAT(job, comm) || TO_CHAR(sal) FROM emp
