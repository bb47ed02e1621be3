SELECT d.dname, COUNT(e.empno) FROM dept d, emp e WHERE d.deptno = e.deptno (+) AND d.loc = p_loc GROUP BY d.dname
