SELECT hiredate + NUMTODSINTERVAL(36, 'HOUR'), hiredate - NUMTODSINTERVAL(sal, job),
       ADD_MONTHS(hiredate, 1) + NUMTOYMINTERVAL(1, 'YEAR'), TO_DSINTERVAL('2 10:00:00'),
       TO_YMINTERVAL('01-02'), (hiredate + NUMTODSINTERVAL(12, 'HOUR')) - hiredate
FROM emp
