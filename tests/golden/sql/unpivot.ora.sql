SELECT empno, kind, amount FROM emp UNPIVOT (amount FOR kind IN (sal AS 'SALARY', comm)) ORDER BY empno, kind
