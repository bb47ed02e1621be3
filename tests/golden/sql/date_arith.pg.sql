SELECT hiredate + INTERVAL '30 DAY', hiredate - (CAST(1 AS DECIMAL) / 24) * INTERVAL '1 DAY', EXTRACT(EPOCH FROM (oracompat.sysdate() - hiredate)) / 86400, hiredate + sal * INTERVAL '1 DAY' FROM emp
