CREATE GLOBAL TEMPORARY TABLE tmp_lines (
    line_id  NUMBER(10) CONSTRAINT tmp_lines_pk PRIMARY KEY,
    code     VARCHAR2(10) UNIQUE,
    qty      NUMBER DEFAULT 0 NOT NULL CHECK (qty >= 0)
)
