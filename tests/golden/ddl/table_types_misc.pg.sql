CREATE TABLE misc_types (
    a varchar(100),
    b char(2),
    c numeric,
    d real,
    e double precision,
    f timestamp with time zone,
    g timestamp(3) with time zone,
    h interval year to month,
    i interval day to second(2),
    j bytea,
    k text,
    l xml,
    m text,
    n numeric(5,-2),
    o numeric(38)
);
-- note: physical attributes dropped (storage only, no behaviour): ORGANIZATION HEAP NOCACHE PARALLEL 4 ENABLE ROW MOVEMENT
-- rules: ddl.varchar2, ddl.char_type, ddl.number_type, ddl.binary_float, ddl.timestamp_type, ddl.interval_type, ddl.lob_types, ddl.xml_type, ddl.rowid_type, ddl.physical_attributes
