-- rules: plsql.package, ddl.varchar2, ddl.lob_types
CREATE SCHEMA IF NOT EXISTS str_pkg;

DROP DOMAIN IF EXISTS str_pkg.t_max_db_varchar2 CASCADE;
CREATE DOMAIN str_pkg.t_max_db_varchar2 AS varchar(4000);

DROP TYPE IF EXISTS str_pkg.t_token CASCADE;
CREATE TYPE str_pkg.t_token AS (
    token str_pkg.t_max_db_varchar2,
    raw_key bytea
);

CREATE OR REPLACE FUNCTION str_pkg.g_max_db_varchar2_def()
RETURNS varchar(4000)
LANGUAGE plpgsql AS $fn$
DECLARE
    v varchar(4000);
BEGIN
    PERFORM str_pkg.initialize__();
    v := oracompat.pkg_get('oracompat_pkg.s__str_pkg__g_max_db_varchar2_def');
    RETURN v;
END;
$fn$;

CREATE OR REPLACE FUNCTION str_pkg.set__g_max_db_varchar2_def(p_value varchar(4000))
RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM str_pkg.initialize__();
    PERFORM oracompat.pkg_set('oracompat_pkg.s__str_pkg__g_max_db_varchar2_def', p_value::text);
END;
$fn$;

CREATE OR REPLACE FUNCTION str_pkg.initialize__()
RETURNS void
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    v__g_max_db_varchar2_def varchar(4000);
BEGIN
    IF current_setting('oracompat.init_7e34949ac223299b2386a1c3908f02e6', true) = 'Y' OR oracompat.pkg_seen('oracompat_pkg.s__str_pkg___initialized', 'oracompat.init_7e34949ac223299b2386a1c3908f02e6') THEN
        RETURN;
    END IF;
    PERFORM oracompat.pkg_set('oracompat_pkg.s__str_pkg___initialized', 'Y');
    PERFORM set_config('oracompat.init_7e34949ac223299b2386a1c3908f02e6', 'Y', false);
    PERFORM oracompat.pkg_set('oracompat_pkg.s__str_pkg__g_max_db_varchar2_def', v__g_max_db_varchar2_def::text);
END;
$fn$;
