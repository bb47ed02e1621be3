SELECT REGEXP_SUBSTR(ename, '[^,]+', 1, 2), REGEXP_INSTR(ename, 'a.', 1, 1, 0, 'in'),
       REGEXP_COUNT(job, '^A', 1, 'm'), REGEXP_REPLACE(ename, '\s+', ' '),
       REGEXP_REPLACE(ename, 'a b', 'X', 2, 1, 'ix'), REGEXP_SUBSTR(ename, 'x', 1, 1, job)
FROM emp
WHERE REGEXP_LIKE(ename, '^[A-Z]+.[A-Z]+$') AND NOT REGEXP_LIKE(job, 'clerk', 'i')
