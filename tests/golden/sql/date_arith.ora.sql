SELECT hiredate + 30, hiredate - 1/24, SYSDATE - hiredate, hiredate + sal FROM emp
