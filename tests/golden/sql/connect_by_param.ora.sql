SELECT LEVEL, e.ename FROM emp e START WITH e.empno = p_root CONNECT BY PRIOR e.empno = e.mgr AND e.deptno <> p_skip
