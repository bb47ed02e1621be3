SELECT CAST(ename AS CHAR(10)) || '|' || LENGTH(CAST(ename AS CHAR(10))), SUBSTR(CAST(job AS CHAR(12)), 8)
FROM emp WHERE CAST(ename AS CHAR(10)) = job OR CAST(ename AS CHAR(10)) = 'KING'
