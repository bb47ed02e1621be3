DO $grant$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'app_role') THEN
        GRANT SELECT, INSERT, UPDATE ON TABLE employees TO app_role WITH GRANT OPTION;
    ELSE
        RAISE NOTICE 'role app_role does not exist: skipped: %', 'GRANT SELECT, INSERT, UPDATE ON TABLE employees TO app_role WITH GRANT OPTION';
    END IF;
END
$grant$;
GRANT SELECT, INSERT, UPDATE ON TABLE employees TO public;
-- note: grant to app_role runs only if that role exists in PostgreSQL
-- rules: ddl.grant
