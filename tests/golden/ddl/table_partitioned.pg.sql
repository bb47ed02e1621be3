CREATE TABLE sales (
    sale_id numeric(12),
    sold_on timestamp(0)
)
PARTITION BY RANGE (sold_on);
CREATE TABLE sales_p2023 PARTITION OF sales FOR VALUES FROM (MINVALUE) TO (CAST(TO_TIMESTAMP('2024-01-01', 'YYYY-MM-DD') AS TIMESTAMP(0)));
CREATE TABLE sales_pmax PARTITION OF sales DEFAULT;
-- note: partition pmax (VALUES LESS THAN MAXVALUE) → the DEFAULT partition: it also takes NULL keys, as Oracle's does
-- rules: ddl.number_type, ddl.number_precision, ddl.date_type, expr.to_date, ddl.partitioned_table
