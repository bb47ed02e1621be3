SELECT LEVEL AS lvl, b.code, (SELECT COUNT(*) FROM accounts a WHERE a.code = b.code) AS n FROM branches b START WITH b.parent IS NULL CONNECT BY PRIOR b.code = b.parent ORDER SIBLINGS BY b.code
