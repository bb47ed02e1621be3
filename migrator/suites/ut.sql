-- ut: utPLSQL v3's expectations on PostgreSQL, for a team's converted utPLSQL suites.
--
-- A converted test calls `PERFORM ut.to_equal(ut.expect(actual), expected)` where the Oracle test
-- said `ut.expect(actual).to_equal(expected)`. `ut.expect` captures the actual value with its type
-- (an Oracle type name: number, varchar2, date, boolean, refcursor, collection ...); each matcher
-- compares it with the expected value *typed*, as utPLSQL does (a number never equals a varchar2;
-- NULL equals NULL unless a_nulls_are_equal is false), and a failed expectation is recorded and
-- does not stop the test, with utPLSQL's message ("Actual: 1 (number) was expected to equal:
-- 2 (number)"). The records are session state kept by oracompat.pkg_set (prepared statements),
-- which a rolled-back block or an exception handler does not undo, as utPLSQL's package state is
-- not. `ut.end_test()` raises every recorded failure at the end of a test as one error with
-- SQLSTATE 'UTF01', which the runner reports as `failed` with its message.
--
-- Needs the oracompat support library (deployed before any converted unit).
CREATE SCHEMA IF NOT EXISTS ut;

DO $do$
BEGIN
    IF to_regtype('ut.expectation') IS NULL THEN
        -- actual: the value as jsonb (a cursor's rows, a collection's elements); data_type: its
        -- Oracle type name; message: the optional second argument of ut.expect
        CREATE TYPE ut.expectation AS (actual jsonb, data_type text, message text);
    END IF;
END
$do$;

-- The Oracle type name utPLSQL shows for a PostgreSQL type (every numeric type is NUMBER: the
-- converter maps NUMBER, PLS_INTEGER and their subtypes to several of them).
CREATE OR REPLACE FUNCTION ut.data_type(p_type regtype) RETURNS text
LANGUAGE sql STABLE AS $fn$
SELECT CASE
    WHEN p_type IN ('smallint', 'integer', 'bigint', 'numeric', 'real', 'double precision') THEN 'number'
    WHEN p_type IN ('text', 'character varying', 'character', 'name', 'unknown') THEN 'varchar2'
    WHEN p_type IN ('timestamp without time zone', 'date') THEN 'date'
    WHEN p_type = 'timestamp with time zone'::regtype THEN 'timestamp with time zone'
    WHEN p_type = 'boolean'::regtype THEN 'boolean'
    WHEN p_type = 'interval'::regtype THEN 'interval'
    WHEN p_type = 'bytea'::regtype THEN 'blob'
    WHEN p_type = 'refcursor'::regtype THEN 'refcursor'
    WHEN p_type IN ('json', 'jsonb') THEN 'json'
    WHEN (SELECT t.typcategory FROM pg_type t WHERE t.oid = p_type) = 'A' THEN 'collection'
    WHEN (SELECT t.typtype FROM pg_type t WHERE t.oid = p_type) = 'c' THEN 'object'
    ELSE format_type(p_type, NULL)
END
$fn$;

-- A cursor's rows: each row an array of [column, value] pairs, so column order and names count.
-- utPLSQL reads the cursor to the end and closes it; so does this.
CREATE OR REPLACE FUNCTION ut.cursor_rows(p_cursor refcursor) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
    r record;
    rows jsonb := '[]';
BEGIN
    IF p_cursor IS NULL THEN
        RETURN NULL;
    END IF;
    FOR r IN EXECUTE format('FETCH ALL FROM %I', p_cursor::text) LOOP
        rows := rows || jsonb_build_array(
            (SELECT coalesce(jsonb_agg(jsonb_build_array(upper(c.key), c.value) ORDER BY c.n), '[]')
               FROM json_each(to_json(r)) WITH ORDINALITY AS c(key, value, n)));
    END LOOP;
    EXECUTE format('CLOSE %I', p_cursor::text);
    RETURN rows;
END
$fn$;

-- The value compared: normalised per type family, so 1 and 1.0 are equal numbers and a DATE
-- literal equals the same TIMESTAMP(0) variable (the converter's DATE).
CREATE OR REPLACE FUNCTION ut.value(p_value anyelement) RETURNS jsonb
LANGUAGE plpgsql AS $fn$
DECLARE
    t text := ut.data_type(pg_typeof(p_value));
BEGIN
    IF t = 'refcursor' THEN
        RETURN ut.cursor_rows(p_value::text::refcursor);
    END IF;
    IF p_value IS NULL THEN
        RETURN NULL;
    END IF;
    IF t = 'number' THEN
        RETURN to_jsonb(p_value::numeric);
    ELSIF t = 'date' THEN
        RETURN to_jsonb(p_value::timestamp);
    ELSIF t = 'varchar2' THEN
        RETURN to_jsonb(p_value::text);
    END IF;
    RETURN to_jsonb(p_value);
END
$fn$;

CREATE OR REPLACE FUNCTION ut.expect(a_actual anyelement, a_message text DEFAULT NULL) RETURNS ut.expectation
LANGUAGE sql AS $fn$
SELECT ROW(ut.value(a_actual), ut.data_type(pg_typeof(a_actual)), a_message)::ut.expectation
$fn$;

-- ---- showing values as utPLSQL does ---------------------------------------------------------
CREATE OR REPLACE FUNCTION ut.row_text(p_row jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT string_agg(format('<%s>%s</%s>', c ->> 0, coalesce(c ->> 1, ''), c ->> 0), '' ORDER BY n)
  FROM jsonb_array_elements(p_row) WITH ORDINALITY AS x(c, n)
$fn$;

CREATE OR REPLACE FUNCTION ut.show(p_value jsonb, p_type text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT CASE
    WHEN p_type IN ('refcursor', 'collection') THEN
        p_type || CASE WHEN p_value IS NULL THEN ' [ null ]'
                       ELSE format(' [ count = %s ]', jsonb_array_length(p_value)) END
    WHEN p_value IS NULL OR jsonb_typeof(p_value) = 'null' THEN 'NULL'
    WHEN p_type = 'varchar2' THEN '''' || (p_value #>> '{}') || ''''
    WHEN p_type = 'number' THEN trim_scale((p_value #>> '{}')::numeric)::text
    -- DATE and TIMESTAMP both arrive as timestamp: fractions of a second are shown when there are any
    WHEN p_type = 'date' THEN to_char((p_value #>> '{}')::timestamp, 'YYYY-MM-DD"T"HH24:MI:SS')
        || CASE WHEN date_part('microseconds', (p_value #>> '{}')::timestamp)::bigint % 1000000 <> 0
                THEN rtrim(to_char((p_value #>> '{}')::timestamp, '.US'), '0') ELSE '' END
    WHEN p_type = 'boolean' THEN upper(p_value #>> '{}')
    ELSE p_value #>> '{}'
END
$fn$;

CREATE OR REPLACE FUNCTION ut.describe(p_value jsonb, p_type text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT CASE WHEN p_type IN ('refcursor', 'collection') THEN ut.show(p_value, p_type)
            ELSE ut.show(p_value, p_type) || ' (' || p_type || ')' END
$fn$;

-- ---- the record of one test ----------------------------------------------------------------
CREATE OR REPLACE FUNCTION ut.begin_test() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.pkg_set('ut.failures', '[]');
    PERFORM oracompat.pkg_set('ut.expectations', '0');
END
$fn$;

CREATE OR REPLACE FUNCTION ut.failures() RETURNS text[]
LANGUAGE sql STABLE AS $fn$
SELECT coalesce(ARRAY(SELECT jsonb_array_elements_text(
           coalesce(oracompat.pkg_get('ut.failures'), '[]')::jsonb)), ARRAY[]::text[])
$fn$;

CREATE OR REPLACE FUNCTION ut.fail(a_message text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.pkg_set('ut.failures',
        (coalesce(oracompat.pkg_get('ut.failures'), '[]')::jsonb || to_jsonb(coalesce(a_message, '')))::text);
END
$fn$;

-- one expectation's outcome: a failure is kept with the expectation's own message first
CREATE OR REPLACE FUNCTION ut.report(p_ok boolean, p_expectation ut.expectation, p_text text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.pkg_set('ut.expectations',
        (coalesce(oracompat.pkg_get('ut.expectations'), '0')::int + 1)::text);
    IF p_ok IS NOT TRUE THEN
        PERFORM ut.fail(coalesce(p_expectation.message || E'\n', '') || p_text);
    END IF;
END
$fn$;

-- raise every failure recorded since ut.begin_test(): the runner's `failed`
CREATE OR REPLACE FUNCTION ut.end_test() RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    failures text[] := ut.failures();
BEGIN
    IF cardinality(failures) > 0 THEN
        RAISE EXCEPTION USING ERRCODE = 'UTF01', MESSAGE = array_to_string(failures, E'\n');
    END IF;
END
$fn$;

-- --%throws: the test ended without raising, or raised something not listed
CREATE OR REPLACE FUNCTION ut.nothing_raised(p_expected text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM ut.fail(format('Expected one of exceptions (%s) but nothing was raised.', p_expected));
END
$fn$;

CREATE OR REPLACE FUNCTION ut.unexpected_raised(p_expected text, p_state text, p_message text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM ut.fail(format('Actual: %s was expected to be one of: (%s)', oracompat.sqlcode(p_state), p_expected)
                    || E'\n' || oracompat.sqlerrm(p_state, p_message));
END
$fn$;

-- ---- matchers --------------------------------------------------------------------------------
CREATE OR REPLACE FUNCTION ut.type_mismatch(p_actual ut.expectation, p_type text, p_matcher text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM ut.report(false, p_actual, format('Actual (%s) cannot be compared to Expected (%s) using matcher ''%s''.',
                                              p_actual.data_type, p_type, p_matcher));
END
$fn$;

CREATE OR REPLACE FUNCTION ut.wrong_type(p_actual ut.expectation, p_matcher text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM ut.report(false, p_actual, format('The matcher ''%s'' cannot be used with data type (%s).',
                                              p_matcher, p_actual.data_type));
END
$fn$;

-- the rows (or elements) of two cursors (or collections) that differ, as utPLSQL lists them
CREATE OR REPLACE FUNCTION ut.rows_diff(p_actual jsonb, p_expected jsonb, p_type text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    na int := coalesce(jsonb_array_length(p_actual), 0);
    ne int := coalesce(jsonb_array_length(p_expected), 0);
    lines text[] := ARRAY[]::text[];
    differences int := 0;
    i int;
    a jsonb;
    e jsonb;
BEGIN
    FOR i IN 0 .. greatest(na, ne) - 1 LOOP
        a := p_actual -> i;
        e := p_expected -> i;
        CONTINUE WHEN a IS NOT DISTINCT FROM e;
        differences := differences + 1;
        IF a IS NULL THEN
            lines := lines || format('Row No. %s - Missing:  %s', i + 1, ut.item_text(e, p_type));
        ELSIF e IS NULL THEN
            lines := lines || format('Row No. %s - Extra:    %s', i + 1, ut.item_text(a, p_type));
        ELSE
            lines := lines || ARRAY[format('Row No. %s - Actual:   %s', i + 1, ut.item_text(a, p_type)),
                                    format('Row No. %s - Expected: %s', i + 1, ut.item_text(e, p_type))];
        END IF;
    END LOOP;
    RETURN format('Diff:' || E'\n' || 'Rows: [ %s differences ]', differences)
           || E'\n  ' || array_to_string(lines, E'\n  ');
END
$fn$;

CREATE OR REPLACE FUNCTION ut.item_text(p_item jsonb, p_type text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT CASE WHEN p_type = 'refcursor' THEN ut.row_text(p_item) ELSE p_item::text END
$fn$;

-- a cursor's rows with only the columns `p_include` names (all when NULL), less those `p_exclude`
-- names: utPLSQL's `.include('A,B')` / `.exclude('C')` (comma-separated column names)
CREATE OR REPLACE FUNCTION ut.columns_of(p_rows jsonb, p_include text, p_exclude text) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $fn$
SELECT CASE WHEN p_rows IS NULL OR (p_include IS NULL AND p_exclude IS NULL) THEN p_rows ELSE (
    SELECT coalesce(jsonb_agg((
        SELECT coalesce(jsonb_agg(c.v ORDER BY c.n), '[]')
          FROM jsonb_array_elements(r.row_) WITH ORDINALITY AS c(v, n)
         WHERE (p_include IS NULL OR c.v ->> 0 = ANY (string_to_array(upper(replace(p_include, ' ', '')), ',')))
           AND (p_exclude IS NULL OR c.v ->> 0 <> ALL (string_to_array(upper(replace(p_exclude, ' ', '')), ',')))
    ) ORDER BY r.k), '[]')
      FROM jsonb_array_elements(p_rows) WITH ORDINALITY AS r(row_, k)) END
$fn$;

-- p_unordered (utPLSQL's `.unordered`): rows of cursors / elements of collections in any order
CREATE OR REPLACE FUNCTION ut.equal_matcher(p_actual ut.expectation, p_expected jsonb, p_type text,
                                            p_nulls_are_equal boolean, p_negated boolean,
                                            p_unordered boolean DEFAULT false, p_include text DEFAULT NULL,
                                            p_exclude text DEFAULT NULL) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    ok boolean;
    txt text;
BEGIN
    IF p_actual.data_type <> p_type THEN
        PERFORM ut.type_mismatch(p_actual, p_type, 'equal');
        RETURN;
    END IF;
    IF p_type = 'refcursor' THEN
        p_actual.actual := ut.columns_of(p_actual.actual, p_include, p_exclude);
        p_expected := ut.columns_of(p_expected, p_include, p_exclude);
    END IF;
    IF p_unordered AND p_type IN ('refcursor', 'collection') THEN
        p_actual.actual := (SELECT coalesce(jsonb_agg(x.v ORDER BY x.v), '[]')
                              FROM jsonb_array_elements(p_actual.actual) AS x(v));
        p_expected := (SELECT coalesce(jsonb_agg(x.v ORDER BY x.v), '[]') FROM jsonb_array_elements(p_expected) AS x(v));
    END IF;
    IF p_actual.actual IS NULL AND p_expected IS NULL THEN
        ok := coalesce(p_nulls_are_equal, true);
    ELSE
        ok := coalesce(p_actual.actual = p_expected, false);
    END IF;
    txt := format('Actual: %s was expected %sto equal: %s', ut.describe(p_actual.actual, p_actual.data_type),
                  CASE WHEN p_negated THEN 'not ' ELSE '' END, ut.describe(p_expected, p_type));
    IF NOT ok AND NOT p_negated AND p_type IN ('refcursor', 'collection') THEN
        txt := txt || E'\n' || ut.rows_diff(p_actual.actual, p_expected, p_type);
    END IF;
    PERFORM ut.report(ok <> p_negated, p_actual, txt);
END
$fn$;

CREATE OR REPLACE FUNCTION ut.to_equal(a ut.expectation, a_expected anyelement, a_nulls_are_equal boolean DEFAULT true,
                                       a_unordered boolean DEFAULT false, a_include text DEFAULT NULL,
                                       a_exclude text DEFAULT NULL)
RETURNS void LANGUAGE sql AS $fn$
SELECT ut.equal_matcher(a, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), a_nulls_are_equal, false,
                        a_unordered, a_include, a_exclude)
$fn$;

CREATE OR REPLACE FUNCTION ut.not_to_equal(a ut.expectation, a_expected anyelement, a_nulls_are_equal boolean DEFAULT true,
                                       a_unordered boolean DEFAULT false, a_include text DEFAULT NULL,
                                       a_exclude text DEFAULT NULL)
RETURNS void LANGUAGE sql AS $fn$
SELECT ut.equal_matcher(a, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), a_nulls_are_equal, true,
                        a_unordered, a_include, a_exclude)
$fn$;

-- be_null / be_true / be_false / be_empty: one function each way, so a converted call says which
CREATE OR REPLACE FUNCTION ut.state_matcher(a ut.expectation, p_what text, p_negated boolean) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    ok boolean;
BEGIN
    IF p_what IN ('true', 'false') AND a.data_type <> 'boolean' THEN
        PERFORM ut.wrong_type(a, 'be ' || p_what);
        RETURN;
    END IF;
    IF p_what = 'empty' AND a.data_type NOT IN ('refcursor', 'collection') THEN
        PERFORM ut.wrong_type(a, 'be empty');
        RETURN;
    END IF;
    ok := CASE p_what
        WHEN 'null' THEN a.actual IS NULL
        WHEN 'true' THEN (a.actual #>> '{}')::boolean
        WHEN 'false' THEN NOT (a.actual #>> '{}')::boolean
        WHEN 'empty' THEN jsonb_array_length(a.actual) = 0
    END;
    -- NULL is neither true nor false: both be_true and not_to_be_true fail on it
    PERFORM ut.report(CASE WHEN p_negated THEN NOT ok ELSE ok END, a,
                      format('Actual: %s was expected %sto be %s', ut.describe(a.actual, a.data_type),
                             CASE WHEN p_negated THEN 'not ' ELSE '' END, p_what));
END
$fn$;

CREATE OR REPLACE FUNCTION ut.to_be_null(a ut.expectation) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.state_matcher(a, 'null', false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_null(a ut.expectation) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.state_matcher(a, 'null', true) $fn$;
CREATE OR REPLACE FUNCTION ut.to_be_true(a ut.expectation) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.state_matcher(a, 'true', false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_true(a ut.expectation) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.state_matcher(a, 'true', true) $fn$;
CREATE OR REPLACE FUNCTION ut.to_be_false(a ut.expectation) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.state_matcher(a, 'false', false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_false(a ut.expectation) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.state_matcher(a, 'false', true) $fn$;
-- be_not_null: utPLSQL's other spelling of not_to_be_null
CREATE OR REPLACE FUNCTION ut.to_be_not_null(a ut.expectation) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.state_matcher(a, 'null', true) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_not_null(a ut.expectation) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.state_matcher(a, 'null', false) $fn$;
CREATE OR REPLACE FUNCTION ut.to_be_empty(a ut.expectation) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.state_matcher(a, 'empty', false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_empty(a ut.expectation) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.state_matcher(a, 'empty', true) $fn$;

-- ordering of two values of one Oracle type: -1, 0, 1, or NULL when either is NULL
CREATE OR REPLACE FUNCTION ut.compare(p_a jsonb, p_b jsonb, p_type text) RETURNS int
LANGUAGE sql IMMUTABLE AS $fn$
SELECT CASE
    WHEN p_a IS NULL OR p_b IS NULL OR jsonb_typeof(p_a) = 'null' OR jsonb_typeof(p_b) = 'null' THEN NULL
    WHEN p_type = 'number' THEN sign((p_a #>> '{}')::numeric - (p_b #>> '{}')::numeric)::int
    WHEN p_type = 'date' THEN CASE WHEN (p_a #>> '{}')::timestamp < (p_b #>> '{}')::timestamp THEN -1
                                   WHEN (p_a #>> '{}')::timestamp > (p_b #>> '{}')::timestamp THEN 1 ELSE 0 END
    WHEN p_type = 'timestamp with time zone' THEN
        CASE WHEN (p_a #>> '{}')::timestamptz < (p_b #>> '{}')::timestamptz THEN -1
             WHEN (p_a #>> '{}')::timestamptz > (p_b #>> '{}')::timestamptz THEN 1 ELSE 0 END
    WHEN p_type = 'interval' THEN CASE WHEN (p_a #>> '{}')::interval < (p_b #>> '{}')::interval THEN -1
                                       WHEN (p_a #>> '{}')::interval > (p_b #>> '{}')::interval THEN 1 ELSE 0 END
    -- Oracle compares VARCHAR2 by its binary collation by default
    ELSE CASE WHEN (p_a #>> '{}') COLLATE "C" < (p_b #>> '{}') COLLATE "C" THEN -1
              WHEN (p_a #>> '{}') COLLATE "C" > (p_b #>> '{}') COLLATE "C" THEN 1 ELSE 0 END
END
$fn$;

CREATE OR REPLACE FUNCTION ut.order_matcher(a ut.expectation, p_expected jsonb, p_type text, p_op text, p_negated boolean)
RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
    c int;
    ok boolean;
BEGIN
    IF a.data_type NOT IN ('number', 'date', 'timestamp with time zone', 'interval') THEN
        PERFORM ut.wrong_type(a, replace(p_op, '_', ' '));
        RETURN;
    END IF;
    IF a.data_type <> p_type THEN
        PERFORM ut.type_mismatch(a, p_type, replace(p_op, '_', ' '));
        RETURN;
    END IF;
    c := ut.compare(a.actual, p_expected, p_type);
    ok := CASE p_op WHEN 'be_greater_than' THEN c > 0 WHEN 'be_greater_or_equal' THEN c >= 0
                    WHEN 'be_less_than' THEN c < 0 WHEN 'be_less_or_equal' THEN c <= 0 END;
    PERFORM ut.report(CASE WHEN p_negated THEN NOT ok ELSE ok END, a,
                      format('Actual: %s was expected %sto %s: %s', ut.describe(a.actual, a.data_type),
                             CASE WHEN p_negated THEN 'not ' ELSE '' END, replace(p_op, '_', ' '),
                             ut.describe(p_expected, p_type)));
END
$fn$;

CREATE OR REPLACE FUNCTION ut.to_be_greater_than(a ut.expectation, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.order_matcher(a, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), 'be_greater_than', false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_greater_than(a ut.expectation, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.order_matcher(a, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), 'be_greater_than', true) $fn$;
CREATE OR REPLACE FUNCTION ut.to_be_greater_or_equal(a ut.expectation, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.order_matcher(a, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), 'be_greater_or_equal', false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_greater_or_equal(a ut.expectation, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.order_matcher(a, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), 'be_greater_or_equal', true) $fn$;
CREATE OR REPLACE FUNCTION ut.to_be_less_than(a ut.expectation, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.order_matcher(a, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), 'be_less_than', false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_less_than(a ut.expectation, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.order_matcher(a, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), 'be_less_than', true) $fn$;
CREATE OR REPLACE FUNCTION ut.to_be_less_or_equal(a ut.expectation, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.order_matcher(a, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), 'be_less_or_equal', false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_less_or_equal(a ut.expectation, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.order_matcher(a, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), 'be_less_or_equal', true) $fn$;

CREATE OR REPLACE FUNCTION ut.between_matcher(a ut.expectation, p_low jsonb, p_high jsonb, p_type text, p_negated boolean)
RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
    ok boolean;
BEGIN
    IF a.data_type NOT IN ('number', 'date', 'timestamp with time zone', 'interval', 'varchar2') THEN
        PERFORM ut.wrong_type(a, 'be between');
        RETURN;
    END IF;
    IF a.data_type <> p_type THEN
        PERFORM ut.type_mismatch(a, p_type, 'be between');
        RETURN;
    END IF;
    ok := ut.compare(a.actual, p_low, p_type) >= 0 AND ut.compare(a.actual, p_high, p_type) <= 0;
    PERFORM ut.report(CASE WHEN p_negated THEN NOT ok ELSE ok END, a,
                      format('Actual: %s was expected %sto be between: %s and %s', ut.describe(a.actual, a.data_type),
                             CASE WHEN p_negated THEN 'not ' ELSE '' END,
                             ut.describe(p_low, p_type), ut.describe(p_high, p_type)));
END
$fn$;

CREATE OR REPLACE FUNCTION ut.to_be_between(a ut.expectation, a_lower_bound anycompatible, a_upper_bound anycompatible) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.between_matcher(a, ut.value(a_lower_bound), ut.value(a_upper_bound), ut.data_type(pg_typeof(a_lower_bound)), false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_between(a ut.expectation, a_lower_bound anycompatible, a_upper_bound anycompatible) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.between_matcher(a, ut.value(a_lower_bound), ut.value(a_upper_bound), ut.data_type(pg_typeof(a_lower_bound)), true) $fn$;

-- to_match: Oracle's REGEXP_LIKE, with its match parameter ('i', 'c', 'n', 'm', 'x')
CREATE OR REPLACE FUNCTION ut.text_matcher(a ut.expectation, p_kind text, p_pattern text, p_option text, p_negated boolean)
RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
    ok boolean;
    s text := a.actual #>> '{}';
BEGIN
    IF a.data_type <> 'varchar2' THEN
        PERFORM ut.wrong_type(a, p_kind);
        RETURN;
    END IF;
    IF p_kind = 'match' THEN
        ok := regexp_match(s, oracompat.regexp_pattern(p_pattern, coalesce(p_option, '')),
                           oracompat.regexp_flags(coalesce(p_option, ''))) IS NOT NULL;
    ELSE
        -- Oracle's LIKE has no escape character unless ESCAPE names one (PostgreSQL's is '\')
        ok := s LIKE p_pattern ESCAPE coalesce(p_option, '');
    END IF;
    PERFORM ut.report(CASE WHEN p_negated THEN NOT ok ELSE ok END, a,
                      format('Actual: %s was expected %sto %s: ''%s''%s', ut.describe(a.actual, a.data_type),
                             CASE WHEN p_negated THEN 'not ' ELSE '' END,
                             CASE WHEN p_kind = 'match' THEN 'match' ELSE 'be like' END, p_pattern,
                             CASE WHEN p_option IS NULL THEN ''
                                  WHEN p_kind = 'match' THEN format(', modifiers ''%s''', p_option)
                                  ELSE format(', escape ''%s''', p_option) END));
END
$fn$;

CREATE OR REPLACE FUNCTION ut.to_match(a ut.expectation, a_pattern text, a_modifiers text DEFAULT NULL) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.text_matcher(a, 'match', a_pattern, a_modifiers, false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_match(a ut.expectation, a_pattern text, a_modifiers text DEFAULT NULL) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.text_matcher(a, 'match', a_pattern, a_modifiers, true) $fn$;
CREATE OR REPLACE FUNCTION ut.to_be_like(a ut.expectation, a_mask text, a_escape_char text DEFAULT NULL) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.text_matcher(a, 'be like', a_mask, a_escape_char, false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_like(a ut.expectation, a_mask text, a_escape_char text DEFAULT NULL) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.text_matcher(a, 'be like', a_mask, a_escape_char, true) $fn$;

-- to_have_count: rows of a cursor, elements of a collection
CREATE OR REPLACE FUNCTION ut.count_matcher(a ut.expectation, p_count int, p_negated boolean) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    ok boolean;
BEGIN
    IF a.data_type NOT IN ('refcursor', 'collection') THEN
        PERFORM ut.wrong_type(a, 'have count');
        RETURN;
    END IF;
    ok := coalesce(jsonb_array_length(a.actual), 0) = p_count;
    PERFORM ut.report(CASE WHEN p_negated THEN NOT ok ELSE ok END, a,
                      format('Actual: (%s) was expected %sto have [ count = %s ]', ut.show(a.actual, a.data_type),
                             CASE WHEN p_negated THEN 'not ' ELSE '' END, p_count));
END
$fn$;

CREATE OR REPLACE FUNCTION ut.to_have_count(a ut.expectation, a_expected numeric) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.count_matcher(a, a_expected::int, false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_have_count(a ut.expectation, a_expected numeric) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.count_matcher(a, a_expected::int, true) $fn$;

-- to_contain: every row (element) of the expected cursor (collection) is in the actual one, as
-- many times as it is expected (utPLSQL compares them as multisets)
CREATE OR REPLACE FUNCTION ut.contain_matcher(a ut.expectation, p_expected jsonb, p_type text, p_negated boolean)
RETURNS void LANGUAGE plpgsql AS $fn$
DECLARE
    missing jsonb;
    ok boolean;
    txt text;
BEGIN
    IF a.data_type NOT IN ('refcursor', 'collection') THEN
        PERFORM ut.wrong_type(a, 'contain');
        RETURN;
    END IF;
    IF a.data_type <> p_type THEN
        PERFORM ut.type_mismatch(a, p_type, 'contain');
        RETURN;
    END IF;
    SELECT coalesce(jsonb_agg(e.v), '[]') INTO missing
      FROM (SELECT x.v, count(*) AS n FROM jsonb_array_elements(p_expected) AS x(v) GROUP BY x.v) AS e
     WHERE e.n > (SELECT count(*) FROM jsonb_array_elements(a.actual) AS y(w) WHERE y.w = e.v);
    ok := a.actual IS NOT NULL AND p_expected IS NOT NULL AND jsonb_array_length(missing) = 0;
    txt := format('Actual: %s was expected %sto contain: %s', ut.show(a.actual, a.data_type),
                  CASE WHEN p_negated THEN 'not ' ELSE '' END, ut.show(p_expected, p_type));
    IF NOT ok AND NOT p_negated AND jsonb_array_length(missing) > 0 THEN
        txt := txt || E'\n' || 'Diff:' || E'\n' || (
            SELECT string_agg('  Missing:  ' || ut.item_text(m.v, p_type), E'\n')
              FROM jsonb_array_elements(missing) AS m(v));
    END IF;
    PERFORM ut.report(CASE WHEN p_negated THEN NOT ok ELSE ok END, a, txt);
END
$fn$;

CREATE OR REPLACE FUNCTION ut.to_contain(a ut.expectation, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.contain_matcher(a, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_contain(a ut.expectation, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.contain_matcher(a, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), true) $fn$;

-- A string literal has no type in PostgreSQL until a function says so, and a polymorphic one
-- cannot: these overloads take `ut.expect('abc')` and `.to_equal('abc')` as the varchar2 Oracle
-- sees.
CREATE OR REPLACE FUNCTION ut.expect(a_actual text, a_message text DEFAULT NULL) RETURNS ut.expectation
LANGUAGE sql AS $fn$ SELECT ROW(ut.value(a_actual), 'varchar2', a_message)::ut.expectation $fn$;
CREATE OR REPLACE FUNCTION ut.to_equal(a ut.expectation, a_expected text, a_nulls_are_equal boolean DEFAULT true,
                                       a_unordered boolean DEFAULT false)
RETURNS void LANGUAGE sql AS $fn$ SELECT ut.equal_matcher(a, ut.value(a_expected), 'varchar2', a_nulls_are_equal, false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_equal(a ut.expectation, a_expected text, a_nulls_are_equal boolean DEFAULT true,
                                       a_unordered boolean DEFAULT false)
RETURNS void LANGUAGE sql AS $fn$ SELECT ut.equal_matcher(a, ut.value(a_expected), 'varchar2', a_nulls_are_equal, true) $fn$;
CREATE OR REPLACE FUNCTION ut.to_be_between(a ut.expectation, a_lower_bound text, a_upper_bound text) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.between_matcher(a, ut.value(a_lower_bound), ut.value(a_upper_bound), 'varchar2', false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_between(a ut.expectation, a_lower_bound text, a_upper_bound text) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.between_matcher(a, ut.value(a_lower_bound), ut.value(a_upper_bound), 'varchar2', true) $fn$;
CREATE OR REPLACE FUNCTION ut.to_be_greater_than(a ut.expectation, a_expected text) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.order_matcher(a, ut.value(a_expected), 'varchar2', 'be_greater_than', false) $fn$;
CREATE OR REPLACE FUNCTION ut.to_be_less_than(a ut.expectation, a_expected text) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.order_matcher(a, ut.value(a_expected), 'varchar2', 'be_less_than', false) $fn$;

-- to_be_within(distance).of_(expected), to_be_within_pct(pct).of_(expected): numbers, and dates
-- within an interval (or a number of days, Oracle's date arithmetic)
CREATE OR REPLACE FUNCTION ut.within_matcher(a ut.expectation, p_distance text, p_expected jsonb, p_type text,
                                             p_pct boolean, p_negated boolean) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    ok boolean;
    act text := a.actual #>> '{}';
    exp text := p_expected #>> '{}';
BEGIN
    IF a.data_type NOT IN ('number', 'date') OR (p_pct AND a.data_type <> 'number') THEN
        PERFORM ut.wrong_type(a, CASE WHEN p_pct THEN 'be within pct' ELSE 'be within' END);
        RETURN;
    END IF;
    IF a.data_type <> p_type THEN
        PERFORM ut.type_mismatch(a, p_type, 'be within');
        RETURN;
    END IF;
    IF a.data_type = 'number' THEN
        ok := abs(act::numeric - exp::numeric)
              <= CASE WHEN p_pct THEN abs(exp::numeric) * p_distance::numeric / 100 ELSE p_distance::numeric END;
    ELSE
        ok := greatest(act::timestamp - exp::timestamp, exp::timestamp - act::timestamp)
              <= CASE WHEN p_distance ~ '^\s*[-+]?[0-9.]+\s*$' THEN p_distance::numeric * interval '1 day'
                      ELSE p_distance::interval END;
    END IF;
    PERFORM ut.report(CASE WHEN p_negated THEN NOT ok ELSE ok END, a,
                      format('Actual: %s was expected %sto be within %s%s of %s', ut.describe(a.actual, a.data_type),
                             CASE WHEN p_negated THEN 'not ' ELSE '' END, p_distance,
                             CASE WHEN p_pct THEN ' %' ELSE '' END, ut.describe(p_expected, p_type)));
END
$fn$;

CREATE OR REPLACE FUNCTION ut.to_be_within(a ut.expectation, a_distance numeric, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.within_matcher(a, trim_scale(a_distance)::text, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), false, false) $fn$;
CREATE OR REPLACE FUNCTION ut.to_be_within(a ut.expectation, a_distance interval, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.within_matcher(a, a_distance::text, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), false, false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_within(a ut.expectation, a_distance numeric, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.within_matcher(a, trim_scale(a_distance)::text, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), false, true) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_within(a ut.expectation, a_distance interval, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.within_matcher(a, a_distance::text, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), false, true) $fn$;
CREATE OR REPLACE FUNCTION ut.to_be_within_pct(a ut.expectation, a_pct numeric, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.within_matcher(a, trim_scale(a_pct)::text, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), true, false) $fn$;
CREATE OR REPLACE FUNCTION ut.not_to_be_within_pct(a ut.expectation, a_pct numeric, a_expected anyelement) RETURNS void
LANGUAGE sql AS $fn$ SELECT ut.within_matcher(a, trim_scale(a_pct)::text, ut.value(a_expected), ut.data_type(pg_typeof(a_expected)), true, true) $fn$;
