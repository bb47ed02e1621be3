SELECT NVL(e.comm, 0), NVL2(e.comm, 'has', 'none') FROM emp e
