SELECT LPAD(ename, 10, '*'), RPAD(ename, n), GREATEST(sal, comm), LEAST(1, 2) FROM emp
