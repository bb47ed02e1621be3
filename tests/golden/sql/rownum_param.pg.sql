SELECT * FROM (SELECT ename FROM emp ORDER BY sal DESC) AS subquery__1 LIMIT LEAST(GREATEST(FLOOR(p_limit), 0), GREATEST(CEIL(p_other) - 1, 0))
