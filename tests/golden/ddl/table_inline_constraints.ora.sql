CREATE TABLE orders (
    order_id     NUMBER(10) CONSTRAINT orders_pk PRIMARY KEY,
    customer_id  NUMBER(10) NOT NULL REFERENCES customers (customer_id) ON DELETE CASCADE,
    manager_id   NUMBER(10) CONSTRAINT orders_mgr_fk REFERENCES employees ON DELETE SET NULL,
    code         VARCHAR2(20) UNIQUE,
    status       VARCHAR2(1) DEFAULT 'N' CONSTRAINT orders_status_ck CHECK (status IN ('N', 'S', 'X')),
    amount       NUMBER(12,2) CHECK (amount >= 0) DISABLE,
    placed       DATE DEFAULT TRUNC(SYSDATE)
)
