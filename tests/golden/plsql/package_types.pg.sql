-- rules: plsql.package, ddl.varchar2, ddl.plsql_integer, ddl.number_type
CREATE SCHEMA IF NOT EXISTS string_util_pkg;

DROP DOMAIN IF EXISTS string_util_pkg.t_max_db_varchar2 CASCADE;
CREATE DOMAIN string_util_pkg.t_max_db_varchar2 AS varchar(4000);

DROP DOMAIN IF EXISTS string_util_pkg.t_flag CASCADE;
CREATE DOMAIN string_util_pkg.t_flag AS integer;

DROP DOMAIN IF EXISTS string_util_pkg.t_str_array CASCADE;
CREATE DOMAIN string_util_pkg.t_str_array AS varchar(4000)[];

DROP DOMAIN IF EXISTS string_util_pkg.t_small CASCADE;
CREATE DOMAIN string_util_pkg.t_small AS numeric[] CHECK (cardinality(VALUE) <= 3);

DROP TYPE IF EXISTS string_util_pkg.t_pair CASCADE;
CREATE TYPE string_util_pkg.t_pair AS (
    name varchar(30),
    val numeric(10,2)
);

DROP DOMAIN IF EXISTS string_util_pkg.t_pairs CASCADE;
CREATE DOMAIN string_util_pkg.t_pairs AS string_util_pkg.t_pair[];

CREATE OR REPLACE FUNCTION string_util_pkg.g_sep()
RETURNS string_util_pkg.t_max_db_varchar2
LANGUAGE plpgsql AS $fn$
DECLARE
    v string_util_pkg.t_max_db_varchar2;
BEGIN
    PERFORM string_util_pkg.initialize__();
    v := oracompat.pkg_get('oracompat_pkg.s__string_util_pkg__g_sep');
    RETURN v;
END;
$fn$;

CREATE OR REPLACE FUNCTION string_util_pkg.set__g_sep(p_value string_util_pkg.t_max_db_varchar2)
RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM string_util_pkg.initialize__();
    PERFORM oracompat.pkg_set('oracompat_pkg.s__string_util_pkg__g_sep', p_value::text);
END;
$fn$;

CREATE OR REPLACE FUNCTION string_util_pkg.g_last_pair()
RETURNS string_util_pkg.t_pair
LANGUAGE plpgsql AS $fn$
DECLARE
    v string_util_pkg.t_pair;
BEGIN
    PERFORM string_util_pkg.initialize__();
    v := oracompat.pkg_get('oracompat_pkg.s__string_util_pkg__g_last_pair');
    RETURN v;
END;
$fn$;

CREATE OR REPLACE FUNCTION string_util_pkg.set__g_last_pair(p_value string_util_pkg.t_pair)
RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM string_util_pkg.initialize__();
    PERFORM oracompat.pkg_set('oracompat_pkg.s__string_util_pkg__g_last_pair', p_value::text);
END;
$fn$;

CREATE OR REPLACE FUNCTION string_util_pkg.initialize__()
RETURNS void
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    v__g_sep string_util_pkg.t_max_db_varchar2 := ',';
    v__g_last_pair string_util_pkg.t_pair;
BEGIN
    IF current_setting('oracompat.init_afe99f4fb9eab906ee4515921038d757', true) = 'Y' OR oracompat.pkg_seen('oracompat_pkg.s__string_util_pkg___initialized', 'oracompat.init_afe99f4fb9eab906ee4515921038d757') THEN
        RETURN;
    END IF;
    PERFORM oracompat.pkg_set('oracompat_pkg.s__string_util_pkg___initialized', 'Y');
    PERFORM set_config('oracompat.init_afe99f4fb9eab906ee4515921038d757', 'Y', false);
    PERFORM oracompat.pkg_set('oracompat_pkg.s__string_util_pkg__g_sep', v__g_sep::text);
    PERFORM oracompat.pkg_set('oracompat_pkg.s__string_util_pkg__g_last_pair', v__g_last_pair::text);
END;
$fn$;
