SELECT TO_NUMBER(TRANSLATE(ename, ',.', '.,'), 'S999,999,990.00'), TRANSLATE(TO_CHAR(sal, 'FM999,990.00'), '.,', ',.'), TO_CHAR(hiredate, 'DY') FROM emp
