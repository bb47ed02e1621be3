SELECT TRUNC(hiredate), TRUNC(hiredate, 'YYYY'), TRUNC(sal, 1), ROUND(hiredate, 'MM'), ROUND(sal) FROM emp
