/* MIGRATOR_UNCONVERTED(system privilege or role grant): GRANT CREATE SESSION, CREATE TABLE TO app_user */ MIGRATOR_UNCONVERTED;
-- unconverted: system privilege or role grant: system privileges and role grants are administered outside the schema
