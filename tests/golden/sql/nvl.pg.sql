SELECT COALESCE(e.comm, 0), CASE WHEN NOT e.comm IS NULL THEN 'has' ELSE 'none' END FROM emp AS e
