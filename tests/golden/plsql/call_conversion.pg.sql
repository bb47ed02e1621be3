-- rules: plsql.package, ddl.plsql_integer, ddl.number_type, ddl.number_precision, plsql.out_after_default, plsql.procedure, ddl.varchar2, expr.concat_null, expr.implicit_to_text, plsql.function, ddl.date_type, plsql.empty_string_params, expr.to_char, expr.format_model, plsql.call_conversion, expr.division, plsql.dbms_output
CREATE SCHEMA IF NOT EXISTS counter_pkg;

CREATE OR REPLACE FUNCTION counter_pkg.initialize__()
RETURNS void
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    v__g_count integer := 0;
BEGIN
    IF current_setting('oracompat.init_04d3c1ffa8b50644b10f7d20ab605641', true) = 'Y' OR oracompat.pkg_seen('oracompat_pkg.s__counter_pkg___initialized', 'oracompat.init_04d3c1ffa8b50644b10f7d20ab605641') THEN
        RETURN;
    END IF;
    PERFORM oracompat.pkg_set('oracompat_pkg.s__counter_pkg___initialized', 'Y');
    PERFORM set_config('oracompat.init_04d3c1ffa8b50644b10f7d20ab605641', 'Y', false);
    PERFORM oracompat.pkg_set('oracompat_pkg.s__counter_pkg__g_count', v__g_count::text);
END;
$fn$;

CREATE OR REPLACE PROCEDURE counter_pkg.bump(p_id numeric(10), p_by integer DEFAULT 1, INOUT p_total integer DEFAULT NULL)
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    PERFORM counter_pkg.initialize__();
    p_total := NULL;
    UPDATE emp SET salary = salary + p_by WHERE id = p_id RETURNING salary INTO p_total;
END;
$fn$;

CREATE OR REPLACE FUNCTION counter_pkg.label(p_dept numeric(5))
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    PERFORM counter_pkg.initialize__();
    RETURN CONCAT('dept ', oracompat.to_text(p_dept));
END;
$fn$;

CREATE OR REPLACE FUNCTION counter_pkg.label(p_name varchar, p_since timestamp(0))
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    PERFORM counter_pkg.initialize__();
    p_name := nullif(p_name, '');
    RETURN CONCAT(p_name, ' since ', TO_CHAR(p_since, 'YYYY'));
END;
$fn$;

CREATE OR REPLACE FUNCTION counter_pkg.kind_of(p numeric)
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    PERFORM counter_pkg.initialize__();
    RETURN 'number';
END;
$fn$;

CREATE OR REPLACE FUNCTION counter_pkg.kind_of(p varchar)
RETURNS varchar
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
BEGIN
    PERFORM counter_pkg.initialize__();
    p := nullif(p, '');
    RETURN 'string';
END;
$fn$;

CREATE OR REPLACE FUNCTION counter_pkg.next_val()
RETURNS integer
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    tmp__1 integer;
    tmp__2 integer;
    tmp__3 integer;
    v_id numeric := 1;
    v_text varchar(10) := '2';
    v_total numeric;
    v_name varchar(40);
BEGIN
    PERFORM counter_pkg.initialize__();
    CALL counter_pkg.bump(v_id, p_total => tmp__1);
    v_total := tmp__1;
    CALL counter_pkg.bump(p_id => CAST(v_text AS DECIMAL), p_by => CAST(v_id AS INT), p_total => tmp__2);
    v_total := tmp__2;
    SELECT counter_pkg.label(CAST(CAST(salary AS DECIMAL) / 100 AS DECIMAL)) FROM emp WHERE id = v_id INTO STRICT v_name;
    RAISE NOTICE '%', coalesce((NULLIF(CONCAT(oracompat.to_text(counter_pkg.label(CAST(v_id * 10 AS DECIMAL))), oracompat.to_text(counter_pkg.label(v_name, CAST('2024-01-31' AS TIMESTAMP(0)))), oracompat.to_text(counter_pkg.kind_of(v_text)), oracompat.to_text(counter_pkg.kind_of(v_id))), ''))::text, '');
    tmp__3 := counter_pkg.g_count() + counter_pkg.c_step();
    PERFORM counter_pkg.set__g_count(tmp__3);
    RETURN v_total;
END;
$fn$;

CREATE OR REPLACE PROCEDURE counter_pkg.reset()
LANGUAGE plpgsql AS $fn$
#variable_conflict use_column
DECLARE
    tmp__4 integer;
BEGIN
    PERFORM counter_pkg.initialize__();
    tmp__4 := 0;
    PERFORM counter_pkg.set__g_count(tmp__4);
END;
$fn$;
