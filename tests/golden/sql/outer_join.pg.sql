SELECT e.ename, d.dname FROM emp AS e LEFT JOIN dept AS d ON e.deptno = d.deptno AND d.loc = 'NY' WHERE e.sal > 0
