DO $grant$
BEGIN
    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'app_role') THEN
        REVOKE DELETE ON TABLE employees FROM app_role;
    ELSE
        RAISE NOTICE 'role app_role does not exist: skipped: %', 'REVOKE DELETE ON TABLE employees FROM app_role';
    END IF;
END
$grant$;
-- note: grant to app_role runs only if that role exists in PostgreSQL
-- rules: ddl.grant
