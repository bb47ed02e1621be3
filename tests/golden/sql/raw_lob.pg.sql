SELECT UPPER(ENCODE(DECODE('0AFF', 'hex'), 'hex')) AS hex_text, CAST(ename AS TEXT) AS name_clob, CAST('' AS TEXT) AS empty_text FROM emp
