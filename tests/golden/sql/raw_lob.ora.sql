SELECT RAWTOHEX(HEXTORAW('0AFF')) AS hex_text, TO_CLOB(ename) AS name_clob, EMPTY_CLOB() AS empty_text FROM emp
