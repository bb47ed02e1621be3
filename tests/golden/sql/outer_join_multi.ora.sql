SELECT a.id, b.v FROM a, b, c WHERE (a.id = b.id(+) AND a.k = b.k(+)) AND b.cid = c.id(+)
