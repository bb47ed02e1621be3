SELECT ename || ' (' || job || ')', ename || comm FROM emp
