SELECT LPAD(ename, 10, '*'), NULLIF(RPAD(ename, n), ''), CASE WHEN sal IS NULL OR comm IS NULL THEN NULL ELSE GREATEST(sal, comm) END, LEAST(1, 2) FROM emp
