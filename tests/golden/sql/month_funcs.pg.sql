SELECT oracompat.add_months(hiredate, 6), oracompat.months_between(oracompat.sysdate(), hiredate), oracompat.last_day(hiredate) FROM emp
