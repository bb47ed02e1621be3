SELECT oracompat.to_number(amount_text, '9,999,990.99'), oracompat.to_number(ename, '9G999D99', 'NLS_NUMERIC_CHARACTERS='',.'''), oracompat.to_number(ename, 'XXXX'), CAST(ename AS DECIMAL) FROM emp
