SELECT ADD_MONTHS(hiredate, 6), MONTHS_BETWEEN(SYSDATE, hiredate), LAST_DAY(hiredate) FROM emp
