UPDATE emp e SET e.sal = e.sal * 2, emp.comm = NULL WHERE e.deptno = 10
