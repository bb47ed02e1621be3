SELECT TO_CHAR(sal, 'FMXXXX'), TO_CHAR(sal, '$99,999.99'), TO_CHAR(sal, '9.99EEEE'), TO_CHAR(comm / 100, '.99'), TO_CHAR(sal, 'TM') FROM emp
