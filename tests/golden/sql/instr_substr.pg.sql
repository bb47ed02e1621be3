SELECT STRPOS(ename, 'A'), oracompat.instr(ename, 'A', 2), oracompat.instr(ename, 'A', -1, 2), oracompat.substr(ename, 0, 2), oracompat.substr(ename, -3) FROM emp
