SELECT ename FROM emp WHERE job = '' OR ename = 'X'
