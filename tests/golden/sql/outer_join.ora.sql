SELECT e.ename, d.dname FROM emp e, dept d WHERE e.deptno = d.deptno(+) AND d.loc(+) = 'NY' AND e.sal > 0
