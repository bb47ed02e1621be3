CREATE TABLE order_lines (
    order_id bigint,
    line_no smallint,
    product_id bigint NOT NULL,
    qty numeric(8,3) DEFAULT 1,
    CONSTRAINT order_lines_pk PRIMARY KEY (order_id, line_no),
    CONSTRAINT order_lines_order_fk FOREIGN KEY (order_id) REFERENCES orders (order_id) ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED,
    CONSTRAINT order_lines_qty_ck CHECK (qty > 0 AND qty < 1e6)
);
-- rules: ddl.number_type
