CREATE OR REPLACE VIEW v_corners AS
SELECT c.x, c.y, point_t(c.x, 0) AS p, w.COLUMN_VALUE AS word, word_list('a', 'b') AS pair, point_list() AS empty_list
FROM TABLE(corners(3)) c, TABLE(words('a b')) w
