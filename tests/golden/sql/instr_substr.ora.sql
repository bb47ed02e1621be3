SELECT INSTR(ename, 'A'), INSTR(ename, 'A', 2), INSTR(ename, 'A', -1, 2), SUBSTR(ename, 0, 2), SUBSTR(ename, -3) FROM emp
