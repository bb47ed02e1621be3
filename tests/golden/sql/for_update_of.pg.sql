SELECT e.ename, d.dname FROM emp AS e, dept AS d WHERE d.deptno = e.deptno AND e.empno = p_id FOR UPDATE OF e NOWAIT
