SELECT e.empno, d.dname FROM emp e JOIN dept d ON d.deptno = e.deptno WHERE e.ename = 7788 OR e.mgr = d.loc OR e.hiredate < d.dname OR e.empno = '7788' OR e.job = d.loc
