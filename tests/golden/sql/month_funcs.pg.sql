SELECT oracompat.add_months(hiredate, 6), oracompat.months_between(LOCALTIMESTAMP(0), hiredate), oracompat.last_day(hiredate) FROM emp
