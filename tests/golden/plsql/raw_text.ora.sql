CREATE OR REPLACE FUNCTION raw_demo (p_hex IN VARCHAR2) RETURN VARCHAR2 IS
  l_raw  RAW(16) := 'CAFE';
  l_more RAW(16);
BEGIN
  l_more := p_hex;
  RETURN 'raw ' || l_raw || '/' || UTL_RAW.LENGTH(l_more) || '/' || RAWTOHEX(UTL_RAW.CONCAT(l_raw, l_more));
END raw_demo;
/
