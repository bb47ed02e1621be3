SELECT CONCAT(ename, ' (', job, ')'), NULLIF(CONCAT(ename, comm), '') FROM emp
