CREATE TABLE hr.departments (
    department_id    NUMBER(5)       NOT NULL,
    department_name  VARCHAR2(60 CHAR) NOT NULL,
    cost_center      CHAR(6 BYTE),
    budget           NUMBER,
    ratio            NUMBER(*,4),
    created_on       DATE            DEFAULT SYSDATE NOT NULL,
    updated_at       TIMESTAMP(6)    DEFAULT SYSTIMESTAMP,
    notes            CLOB,
    photo            BLOB,
    CONSTRAINT departments_pk PRIMARY KEY (department_id) USING INDEX TABLESPACE idx ENABLE,
    CONSTRAINT departments_name_uk UNIQUE (department_name)
)
TABLESPACE users
PCTFREE 10 INITRANS 2
STORAGE (INITIAL 64K NEXT 1M MINEXTENTS 1 MAXEXTENTS UNLIMITED)
LOGGING NOCOMPRESS
SEGMENT CREATION IMMEDIATE
