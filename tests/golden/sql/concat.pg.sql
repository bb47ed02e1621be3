SELECT CONCAT(ename, ' (', job, ')'), NULLIF(CONCAT(ename, oracompat.to_text(comm)), '') FROM emp
