UPDATE emp SET sal = sal * 1.1, hiredate = COALESCE(hiredate, oracompat.sysdate()) WHERE deptno = CASE WHEN v_dept IS NULL THEN 10 ELSE v_dept END
