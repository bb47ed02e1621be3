SELECT ename FROM emp WHERE job = NULL OR ename = 'X'
