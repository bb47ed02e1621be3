SELECT a.id, b.v FROM a LEFT JOIN b ON a.id = b.id AND a.k = b.k LEFT JOIN c ON b.cid = c.id
