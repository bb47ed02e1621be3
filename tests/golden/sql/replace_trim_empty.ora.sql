SELECT REPLACE(ename, ' ', ''), REPLACE(ename, 'A'), REPLACE(job, '|', ename), UPPER(TRIM(job)), LTRIM(ename, 'K'), TRANSLATE(job, 'AB', 'C') FROM emp
