CREATE TABLE orders (
    order_id numeric(10) CONSTRAINT orders_pk PRIMARY KEY,
    customer_id numeric(10) NOT NULL REFERENCES customers (customer_id) ON DELETE CASCADE,
    manager_id numeric(10) CONSTRAINT orders_mgr_fk REFERENCES employees ON DELETE SET NULL,
    code varchar(20) UNIQUE,
    status varchar(1) DEFAULT 'N' CONSTRAINT orders_status_ck CHECK (status IN ('N', 'S', 'X')),
    amount numeric(12,2),
    placed timestamp(0) DEFAULT CAST(DATE_TRUNC('day', oracompat.sysdate()) AS TIMESTAMP(0))
);
-- note: constraint state dropped (no PostgreSQL equivalent): DISABLE
-- note: disabled constraint check not created (Oracle does not enforce it)
-- rules: ddl.number_type, ddl.number_precision, ddl.varchar2, ddl.date_type, expr.trunc_date, expr.sysdate
