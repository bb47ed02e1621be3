SELECT TO_CHAR(hiredate, 'FMDay, DD Month YYYY'), TO_CHAR(hiredate, 'FMMonth FMDD'), TO_CHAR(hiredate, 'DdSPTH "of" MONTH'), TO_CHAR(hiredate, 'SYYYY-MM-DD HH24:MI:SSXFF3 SSSSS') FROM emp
