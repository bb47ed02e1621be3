UPDATE emp AS e SET sal = e.sal * 2, comm = NULL WHERE e.deptno = 10
