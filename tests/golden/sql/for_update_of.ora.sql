SELECT e.ename, d.dname FROM emp e, dept d WHERE d.deptno = e.deptno AND e.empno = p_id FOR UPDATE OF e.sal, comm NOWAIT
