CREATE TABLE order_lines (
    order_id numeric(10),
    line_no numeric(3),
    product_id numeric(10) NOT NULL,
    qty numeric(8,3) DEFAULT 1,
    CONSTRAINT order_lines_pk PRIMARY KEY (order_id, line_no),
    CONSTRAINT order_lines_order_fk FOREIGN KEY (order_id) REFERENCES orders (order_id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT order_lines_qty_ck CHECK (qty > 0 AND qty < 1e6)
);
-- rules: ddl.number_type, ddl.number_precision
