-- rules: plsql.package, ddl.plsql_integer, ddl.varchar2, expr.concat_null, expr.implicit_to_text, plsql.function, plsql.collections, plsql.procedure
CREATE SCHEMA IF NOT EXISTS counter_pkg;

CREATE OR REPLACE FUNCTION counter_pkg.g_names()
RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
    v jsonb;
BEGIN
    PERFORM counter_pkg.initialize__();
    v := oracompat.pkg_get('oracompat_pkg.s__counter_pkg__g_names');
    RETURN v;
END;
$fn$;

CREATE OR REPLACE FUNCTION counter_pkg.set__g_names(p_value jsonb)
RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM counter_pkg.initialize__();
    PERFORM oracompat.pkg_set('oracompat_pkg.s__counter_pkg__g_names', p_value::text);
END;
$fn$;

CREATE OR REPLACE FUNCTION counter_pkg.g_inits()
RETURNS integer
LANGUAGE plpgsql AS $fn$
DECLARE
    v integer;
BEGIN
    PERFORM counter_pkg.initialize__();
    v := oracompat.pkg_get('oracompat_pkg.s__counter_pkg__g_inits');
    RETURN v;
END;
$fn$;

CREATE OR REPLACE FUNCTION counter_pkg.set__g_inits(p_value integer)
RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM counter_pkg.initialize__();
    PERFORM oracompat.pkg_set('oracompat_pkg.s__counter_pkg__g_inits', p_value::text);
END;
$fn$;

CREATE OR REPLACE FUNCTION counter_pkg.initialize__()
RETURNS void
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    tmp__1 integer;
    v__g_count integer := 0;
    v__g_names jsonb := '{}'::jsonb;
    v__g_inits integer := 0;
BEGIN
    IF current_setting('oracompat.init_04d3c1ffa8b50644b10f7d20ab605641', true) = 'Y' OR oracompat.pkg_seen('oracompat_pkg.s__counter_pkg___initialized', 'oracompat.init_04d3c1ffa8b50644b10f7d20ab605641') THEN
        RETURN;
    END IF;
    PERFORM oracompat.pkg_set('oracompat_pkg.s__counter_pkg___initialized', 'Y');
    PERFORM set_config('oracompat.init_04d3c1ffa8b50644b10f7d20ab605641', 'Y', false);
    PERFORM oracompat.pkg_set('oracompat_pkg.s__counter_pkg__g_count', v__g_count::text);
    PERFORM oracompat.pkg_set('oracompat_pkg.s__counter_pkg__g_names', v__g_names::text);
    PERFORM oracompat.pkg_set('oracompat_pkg.s__counter_pkg__g_inits', v__g_inits::text);
    DECLARE
        tmp__1 integer;
    BEGIN
        tmp__1 := counter_pkg.g_inits() + 1;
        PERFORM counter_pkg.set__g_inits(tmp__1);
    END;
END;
$fn$;

CREATE OR REPLACE FUNCTION counter_pkg.next_val()
RETURNS integer
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    tmp__2 integer;
    tmp__3 jsonb;
BEGIN
    PERFORM counter_pkg.initialize__();
    tmp__2 := counter_pkg.g_count() + counter_pkg.c_step();
    PERFORM counter_pkg.set__g_count(tmp__2);
    tmp__3 := counter_pkg.g_names();
    tmp__3 := oracompat.aa_set(tmp__3, (CONCAT('k', oracompat.to_text(counter_pkg.g_count())))::text, ('v')::varchar(40));
    PERFORM counter_pkg.set__g_names(tmp__3);
    RETURN counter_pkg.g_count();
END;
$fn$;

CREATE OR REPLACE PROCEDURE counter_pkg.reset()
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    tmp__4 jsonb;
    tmp__5 jsonb;
    tmp__6 integer;
BEGIN
    PERFORM counter_pkg.initialize__();
    tmp__5 := counter_pkg.g_names();
    tmp__5 := '{}'::jsonb;
    PERFORM counter_pkg.set__g_names(tmp__5);
    tmp__6 := counter_pkg.next_val() - counter_pkg.next_val();
    PERFORM counter_pkg.set__g_count(tmp__6);
END;
$fn$;
