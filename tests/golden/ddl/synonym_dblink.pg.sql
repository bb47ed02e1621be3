/* MIGRATOR_UNCONVERTED(synonym over a database link): CREATE SYNONYM remote_emp FOR employees@hq_link */ MIGRATOR_UNCONVERTED;
-- unconverted: synonym over a database link: use postgres_fdw for remote objects
