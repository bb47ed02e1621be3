SELECT oracompat.to_number(ename, 'S999G999G990D00', 'NLS_NUMERIC_CHARACTERS='',.'''), TRANSLATE(oracompat.number_fit(TO_CHAR(sal, 'FM999,990.00'), 11), '.,', ',.'), TO_CHAR(hiredate, 'DY') FROM emp
