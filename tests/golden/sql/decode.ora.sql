SELECT DECODE(deptno, 10, 'ACCOUNTING', NULL, 'NONE', 'OTHER'), DECODE(mgr, empno, 'self', 'other') FROM emp
