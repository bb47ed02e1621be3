/* MIGRATOR_UNCONVERTED(CREATE TABLE): CREATE TABLE sales (
    sale_id NUMBER(12),
    sold_on DATE
)
PARTITION BY RANGE (sold_on) (
    PARTITION p2023 VALUES LESS THAN (TO_DATE('2024-01-01', 'YYYY-MM-DD')),
    PARTITION pmax VALUES LESS THAN (MAXVALUE)
) */ MIGRATOR_UNCONVERTED;
-- unconverted: CREATE TABLE: partitioned table: partitioning clause not converted
-- rules: ddl.number_type, ddl.number_precision, ddl.date_type
