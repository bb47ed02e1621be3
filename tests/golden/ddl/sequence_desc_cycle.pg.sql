CREATE SEQUENCE countdown_seq START WITH 100 INCREMENT BY -5 MINVALUE 0 MAXVALUE 100 CYCLE;
-- note: sequence options dropped (no effect on one PostgreSQL server): ORDER
-- rules: ddl.sequence
