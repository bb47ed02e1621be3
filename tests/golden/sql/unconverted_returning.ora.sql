UPDATE emp SET sal = 1 WHERE empno = 7 RETURNING sal INTO v_sal
