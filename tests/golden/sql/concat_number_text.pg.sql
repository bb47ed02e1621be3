SELECT CONCAT('Pay ', oracompat.to_text(sal), ' since ', oracompat.to_text(hiredate), ' x', '9.5', ename, job, oracompat.to_text(comm), oracompat.to_text(sal)) FROM emp
