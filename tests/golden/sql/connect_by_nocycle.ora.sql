SELECT e.empno, CONNECT_BY_ROOT e.ename AS root FROM emp e WHERE LEVEL > 1 START WITH e.empno = 1 CONNECT BY NOCYCLE PRIOR e.empno = e.mgr AND LEVEL <= 3
