CREATE TABLE hr.departments (
    department_id numeric(5) NOT NULL,
    department_name varchar(60) NOT NULL,
    cost_center char(6),
    budget numeric,
    ratio numeric(38,4),
    created_on timestamp(0) DEFAULT oracompat.sysdate() NOT NULL,
    updated_at timestamp(6) DEFAULT CURRENT_TIMESTAMP,
    notes text,
    photo bytea,
    CONSTRAINT departments_pk PRIMARY KEY (department_id),
    CONSTRAINT departments_name_uk UNIQUE (department_name)
);
-- note: constraint state dropped (no PostgreSQL equivalent): USING INDEX TABLESPACE idx ENABLE
-- note: physical attributes dropped (storage only, no behaviour): TABLESPACE users PCTFREE 10 INITRANS 2 STORAGE (INITIAL 64 K NEXT 1 M MINEXTENTS 1 MAXEXTENTS UNLIMITED) LOGGING NOCOMPRESS SEGMENT CREATION IMMEDIATE
-- rules: ddl.number_type, ddl.number_precision, ddl.varchar2, ddl.char_type, ddl.date_type, ddl.default_sysdate, ddl.timestamp_type, ddl.lob_types, ddl.physical_attributes
