CREATE UNIQUE INDEX order_lines_uix ON order_lines (order_id, product_id);
-- rules: ddl.index
