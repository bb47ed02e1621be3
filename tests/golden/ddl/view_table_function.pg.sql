CREATE OR REPLACE VIEW v_corners AS
SELECT c.x, c.y, (CAST(ROW(c.x, 0) AS hr.point_t)) AS p, w.COLUMN_VALUE AS word, CAST(ARRAY['a', 'b'] AS hr.word_list) AS pair, CAST('{}' AS hr.point_list) AS empty_list FROM LATERAL (SELECT * FROM CORNERS(3)) AS c, LATERAL (SELECT u.column_value FROM UNNEST(WORDS('a b')) AS u(column_value)) AS w;
-- rules: sql.table_collection, expr.type_constructor, ddl.view
