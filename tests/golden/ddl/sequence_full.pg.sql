CREATE SEQUENCE hr.emp_seq START WITH 1000 INCREMENT BY 1 MINVALUE 1 NO MAXVALUE CACHE 20 NO CYCLE;
-- note: sequence options dropped (no effect on one PostgreSQL server): NOORDER
-- note: MAXVALUE 999999999999999999999999999 is beyond bigint; PostgreSQL's default bound used instead
-- rules: ddl.sequence
