SELECT d.dname, COUNT(e.empno) FROM dept AS d LEFT JOIN emp AS e ON d.deptno = e.deptno WHERE d.loc = p_loc GROUP BY d.dname
