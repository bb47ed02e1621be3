-- oracompat: DBMS_SQL's cursor cycle — OPEN_CURSOR, PARSE, BIND_VARIABLE, DEFINE_COLUMN, EXECUTE,
-- FETCH_ROWS / EXECUTE_AND_FETCH, COLUMN_VALUE, LAST_ROW_COUNT, IS_OPEN, CLOSE_CURSOR — over
-- PostgreSQL cursors. A DBMS_SQL cursor is a number; its statement, binds and current row are kept
-- in the session store (not undone by a rollback, like Oracle's cursors), and a query's rows come
-- from a PostgreSQL cursor (portal) named oracompat_dbms_sql_<n>, opened by EXECUTE and read one row
-- per FETCH_ROWS. As in Oracle, PARSE runs DDL at once; binds are matched by name (case-insensitive,
-- the leading ':' optional) and sent as quoted literals (typed, except character values, which
-- PostgreSQL converts where they are compared as Oracle converts them), so a value never becomes
-- SQL text.
-- Limits: the statement text is PostgreSQL's to run (the converter converts a literal one when it
-- converts the PARSE call); a PL/SQL block cannot be run; a portal lives until the end of the
-- transaction (fetching after a COMMIT raises INVALID_CURSOR).
CREATE SCHEMA IF NOT EXISTS oracompat;

CREATE OR REPLACE FUNCTION oracompat.dbms_sql_key(c numeric) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$ SELECT 'oracompat.dbms_sql.' || c::bigint $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_sql_portal(c numeric) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$ SELECT 'oracompat_dbms_sql_' || c::bigint $fn$;

-- the cursor's state; ORA-29471 for a number that is no open DBMS_SQL cursor
CREATE OR REPLACE FUNCTION oracompat.dbms_sql_state(c numeric) RETURNS jsonb
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    v text := CASE WHEN c IS NOT NULL THEN oracompat.pkg_get(oracompat.dbms_sql_key(c)) END;
BEGIN
    IF v IS NULL THEN
        RAISE EXCEPTION 'DBMS_SQL access denied' USING ERRCODE = 'OS471';
    END IF;
    RETURN v::jsonb;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_sql_save(c numeric, p_state jsonb) RETURNS void
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.pkg_set(oracompat.dbms_sql_key(c), p_state::text) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_sql_close_portal(c numeric) RETURNS void
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    cur refcursor := oracompat.dbms_sql_portal(c);
BEGIN
    IF EXISTS (SELECT 1 FROM pg_cursors WHERE name = cur::text) THEN
        CLOSE cur;
    END IF;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_sql_open_cursor() RETURNS integer
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    v_id integer := coalesce(oracompat.pkg_get('oracompat.dbms_sql.last')::integer, 0) + 1;
BEGIN
    PERFORM oracompat.pkg_set('oracompat.dbms_sql.last', v_id::text);
    PERFORM oracompat.dbms_sql_save(v_id, jsonb_build_object('sql', NULL, 'kind', NULL, 'binds', '{}'::jsonb,
                                                             'row', NULL, 'fetched', 0));
    RETURN v_id;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_sql_is_open(c numeric) RETURNS boolean
LANGUAGE sql STABLE AS $fn$
  SELECT c IS NOT NULL AND oracompat.pkg_get(oracompat.dbms_sql_key(c)) IS NOT NULL
$fn$;

-- The :name placeholders of a statement, outside quoted text, upper-cased and without the colon.
CREATE OR REPLACE FUNCTION oracompat.dbms_sql_bind_names(p_sql text) RETURNS text[]
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    names text[] := '{}';
    i integer := 1;
    n integer := length(p_sql);
    ch text;
    q text := NULL;  -- the quote we are inside of
    j integer;
BEGIN
    WHILE i <= n LOOP
        ch := substr(p_sql, i, 1);
        IF q IS NOT NULL THEN
            IF ch = q THEN
                q := NULL;
            END IF;
        ELSIF ch IN ('''', '"') THEN
            q := ch;
        ELSIF ch = ':' AND substr(p_sql, i + 1, 1) ~ '[A-Za-z0-9_]' THEN
            j := i + 1;
            WHILE j <= n AND substr(p_sql, j, 1) ~ '[A-Za-z0-9_$#]' LOOP
                j := j + 1;
            END LOOP;
            names := names || upper(substr(p_sql, i + 1, j - i - 1));
            i := j;
            CONTINUE;
        END IF;
        i := i + 1;
    END LOOP;
    RETURN names;
END;
$fn$;

-- PARSE(c, statement, language_flag): a query or DML statement is kept for EXECUTE; anything else
-- (DDL, ALTER SESSION ...) runs now, as Oracle runs DDL at parse time. A PL/SQL block cannot run.
CREATE OR REPLACE FUNCTION oracompat.dbms_sql_parse(c numeric, statement text, language_flag numeric DEFAULT 1)
RETURNS void LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    st jsonb := oracompat.dbms_sql_state(c);
    head text := upper(substring(statement FROM '^\s*\(*\s*([A-Za-z]+)'));
    kind text;
BEGIN
    PERFORM oracompat.dbms_sql_close_portal(c);
    IF statement IS NULL OR head IS NULL THEN
        RAISE EXCEPTION 'invalid SQL statement' USING ERRCODE = '42601';
    END IF;
    kind := CASE WHEN head IN ('SELECT', 'WITH', 'VALUES', 'TABLE') THEN 'query'
                 WHEN head IN ('INSERT', 'UPDATE', 'DELETE', 'MERGE') THEN 'dml'
                 WHEN head IN ('BEGIN', 'DECLARE') THEN 'plsql'
                 ELSE 'done' END;
    IF kind = 'plsql' THEN
        RAISE EXCEPTION 'DBMS_SQL.PARSE of a PL/SQL block cannot run on PostgreSQL' USING ERRCODE = '0A000';
    END IF;
    IF kind = 'done' THEN
        EXECUTE statement;
    END IF;
    PERFORM oracompat.dbms_sql_save(c, st || jsonb_build_object('sql', statement, 'kind', kind, 'binds', '{}'::jsonb,
                                                                  'row', NULL, 'fetched', 0));
END;
$fn$;

-- BIND_VARIABLE(c, name, value[, out_value_size]): ORA-01006 when the statement has no such bind.
CREATE OR REPLACE FUNCTION oracompat.dbms_sql_bind_variable(c numeric, name text, value anyelement)
RETURNS void LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    st jsonb := oracompat.dbms_sql_state(c);
    v_name text := upper(ltrim(btrim(name), ':'));
BEGIN
    IF NOT v_name = ANY (oracompat.dbms_sql_bind_names(coalesce(st ->> 'sql', ''))) THEN
        RAISE EXCEPTION 'bind variable does not exist' USING ERRCODE = 'OS106';
    END IF;
    st := jsonb_set(st, ARRAY['binds', v_name],
                    jsonb_build_object('v', value::text, 't', pg_typeof(value)::text));
    PERFORM oracompat.dbms_sql_save(c, st);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_sql_bind_variable(c numeric, name text, value anyelement, out_value_size numeric)
RETURNS void LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.dbms_sql_bind_variable(c, name, value) $fn$;

-- DEFINE_COLUMN(c, position, column[, column_size]): the fetched value is converted to the type of
-- the variable COLUMN_VALUE reads it into, so only the position is checked (ORA-01007 below 1).
CREATE OR REPLACE FUNCTION oracompat.dbms_sql_define_column(c numeric, "position" numeric, "column" anyelement)
RETURNS void LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    PERFORM oracompat.dbms_sql_state(c);
    IF "position" IS NULL OR "position" < 1 THEN
        RAISE EXCEPTION 'variable not in select list' USING ERRCODE = 'OS107';
    END IF;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_sql_define_column(c numeric, "position" numeric, "column" anyelement,
                                                            column_size numeric)
RETURNS void LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.dbms_sql_define_column(c, "position", "column") $fn$;

-- the statement with every :name replaced by its bound value as a typed literal (ORA-01008 when one
-- is unbound)
CREATE OR REPLACE FUNCTION oracompat.dbms_sql_bound_text(p_sql text, p_binds jsonb) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    out text := '';
    i integer := 1;
    n integer := length(p_sql);
    ch text;
    q text := NULL;
    j integer;
    v_name text;
    b jsonb;
BEGIN
    WHILE i <= n LOOP
        ch := substr(p_sql, i, 1);
        IF q IS NOT NULL THEN
            IF ch = q THEN
                q := NULL;
            END IF;
        ELSIF ch IN ('''', '"') THEN
            q := ch;
        ELSIF ch = ':' AND substr(p_sql, i + 1, 1) ~ '[A-Za-z0-9_]' THEN
            j := i + 1;
            WHILE j <= n AND substr(p_sql, j, 1) ~ '[A-Za-z0-9_$#]' LOOP
                j := j + 1;
            END LOOP;
            v_name := upper(substr(p_sql, i + 1, j - i - 1));
            b := p_binds -> v_name;
            IF b IS NULL THEN
                RAISE EXCEPTION 'not all variables bound' USING ERRCODE = 'OS108';
            END IF;
            -- a character value is an untyped literal, so PostgreSQL converts it to what it is
            -- compared with, as Oracle converts a VARCHAR2 bind implicitly; others keep their type
            IF (b ->> 't')::regtype IN ('text'::regtype, 'character varying'::regtype, 'character'::regtype)
               AND b ->> 'v' IS NOT NULL THEN
                out := out || quote_literal(b ->> 'v');
            ELSE
                out := out || '(' || quote_nullable(b ->> 'v') || '::' || (b ->> 't')::regtype::text || ')';
            END IF;
            i := j;
            CONTINUE;
        END IF;
        out := out || ch;
        i := i + 1;
    END LOOP;
    RETURN out;
END;
$fn$;

-- EXECUTE(c): the number of rows a DML statement processed; 0 for a query (its cursor is opened)
-- and for a statement PARSE already ran.
CREATE OR REPLACE FUNCTION oracompat.dbms_sql_execute(c numeric) RETURNS integer
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    st jsonb := oracompat.dbms_sql_state(c);
    v_sql text;
    cur refcursor := oracompat.dbms_sql_portal(c);
    n integer := 0;
BEGIN
    IF st ->> 'kind' IS NULL THEN
        RAISE EXCEPTION 'DBMS_SQL cursor % has no parsed statement', c USING ERRCODE = '24000';
    END IF;
    IF st ->> 'kind' = 'done' THEN
        RETURN 0;
    END IF;
    v_sql := oracompat.dbms_sql_bound_text(st ->> 'sql', st -> 'binds');
    PERFORM oracompat.dbms_sql_close_portal(c);
    IF st ->> 'kind' = 'query' THEN
        OPEN cur FOR EXECUTE v_sql;
    ELSE
        EXECUTE v_sql;
        GET DIAGNOSTICS n = ROW_COUNT;
    END IF;
    PERFORM oracompat.dbms_sql_save(c, st || jsonb_build_object('row', NULL, 'fetched', 0));
    RETURN n;
END;
$fn$;

-- FETCH_ROWS(c): 1 and the next row becomes current, or 0 at the end.
CREATE OR REPLACE FUNCTION oracompat.dbms_sql_fetch_rows(c numeric) RETURNS integer
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    st jsonb := oracompat.dbms_sql_state(c);
    cur refcursor := oracompat.dbms_sql_portal(c);
    rec record;
    v_row jsonb;
BEGIN
    IF st ->> 'kind' IS DISTINCT FROM 'query' OR NOT EXISTS (SELECT 1 FROM pg_cursors WHERE name = cur::text) THEN
        RAISE EXCEPTION 'fetch out of sequence' USING ERRCODE = '24000';
    END IF;
    FETCH cur INTO rec;
    IF NOT FOUND THEN
        PERFORM oracompat.dbms_sql_save(c, st || jsonb_build_object('row', NULL));
        PERFORM oracompat.pkg_set('oracompat.dbms_sql.last_row_count', (st ->> 'fetched'));
        RETURN 0;
    END IF;
    -- the row's values as text, in column order (json keeps the order and duplicate names)
    SELECT coalesce(jsonb_agg(e.value ORDER BY e.n), '[]'::jsonb) INTO v_row
      FROM json_each_text(row_to_json(rec)) WITH ORDINALITY AS e(key, value, n);
    PERFORM oracompat.dbms_sql_save(c, st || jsonb_build_object('row', v_row, 'fetched', (st ->> 'fetched')::integer + 1));
    PERFORM oracompat.pkg_set('oracompat.dbms_sql.last_row_count', ((st ->> 'fetched')::integer + 1)::text);
    RETURN 1;
END;
$fn$;

-- EXECUTE_AND_FETCH(c, exact = FALSE): EXECUTE then FETCH_ROWS; with exact, anything but exactly
-- one row is TOO_MANY_ROWS / NO_DATA_FOUND.
CREATE OR REPLACE FUNCTION oracompat.dbms_sql_execute_and_fetch(c numeric, exact boolean DEFAULT false) RETURNS integer
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    got integer;
    cur refcursor := oracompat.dbms_sql_portal(c);
BEGIN
    PERFORM oracompat.dbms_sql_execute(c);
    got := oracompat.dbms_sql_fetch_rows(c);
    IF coalesce(exact, false) THEN
        IF got = 0 THEN
            RAISE no_data_found;
        END IF;
        MOVE NEXT FROM cur;
        IF FOUND THEN
            RAISE too_many_rows;
        END IF;
        MOVE PRIOR FROM cur;
    END IF;
    RETURN got;
END;
$fn$;

-- COLUMN_VALUE(c, position, value OUT): the current row's value at `position` (1-based) in the
-- type of the variable it goes into (the argument carries that type in); ORA-01007 when there is
-- no such column.
CREATE OR REPLACE FUNCTION oracompat.dbms_sql_column_value(c numeric, "position" numeric, INOUT value anyelement)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    st jsonb := oracompat.dbms_sql_state(c);
    v_row jsonb := st -> 'row';
    v_text text;
    v_type text := pg_typeof(value)::text;
BEGIN
    IF v_row IS NULL OR jsonb_typeof(v_row) <> 'array' THEN
        RAISE EXCEPTION 'fetch out of sequence' USING ERRCODE = '24000';
    END IF;
    IF "position" IS NULL OR round("position") < 1 OR round("position") > jsonb_array_length(v_row) THEN
        RAISE EXCEPTION 'variable not in select list' USING ERRCODE = 'OS107';
    END IF;
    v_text := v_row ->> (round("position")::integer - 1);
    IF v_type IN ('smallint', 'integer', 'bigint') THEN  -- a NUMBER into an integer rounds
        EXECUTE format('SELECT $1::numeric::%s', v_type) INTO value USING v_text;
    ELSE
        EXECUTE format('SELECT $1::%s', v_type) INTO value USING v_text;
    END IF;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_sql_last_row_count() RETURNS integer
LANGUAGE sql STABLE AS $fn$ SELECT coalesce(oracompat.pkg_get('oracompat.dbms_sql.last_row_count')::integer, 0) $fn$;

-- CLOSE_CURSOR(c IN OUT): the cursor is gone and c becomes NULL.
CREATE OR REPLACE FUNCTION oracompat.dbms_sql_close_cursor(INOUT c numeric)
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    PERFORM oracompat.dbms_sql_state(c);
    PERFORM oracompat.dbms_sql_close_portal(c);
    PERFORM oracompat.pkg_set(oracompat.dbms_sql_key(c), NULL);
    c := NULL;
END;
$fn$;

-- DESCRIBE_COLUMNS(c, OUT col_cnt, OUT desc_t) / DESCRIBE_COLUMNS2 (longer names, same fields
-- here): the parsed query's columns, read from a temporary view over it (binds as NULLs: a
-- description needs no values). desc_t is an INDEX BY table (a jsonb map 1..n) of DESC_REC:
-- Oracle's type codes (1 VARCHAR2, 2 NUMBER, 12 DATE, 96 CHAR, 100/101 BINARY_FLOAT/DOUBLE, 112
-- CLOB, 113 BLOB, 180 TIMESTAMP, 181 WITH TIME ZONE, 183 INTERVAL DAY TO SECOND), sizes as Oracle
-- reports them (a VARCHAR2's length, 22 for a NUMBER, 7 for a DATE, 11 for a TIMESTAMP, 4000 for a
-- LOB), names in upper case, NUMBER(p,s)'s precision and scale (0 and -127 for a plain NUMBER).
-- Limits: RAW and BLOB are both bytea here (reported as BLOB); col_null_ok is TRUE (a query's
-- column does not carry its table's NOT NULL in PostgreSQL).
DO $do$ BEGIN
    IF to_regtype('oracompat.dbms_sql_desc_rec') IS NULL THEN
        CREATE TYPE oracompat.dbms_sql_desc_rec AS (
            col_type integer, col_max_len integer, col_name varchar, col_name_len integer,
            col_schema_name varchar, col_schema_name_len integer, col_precision integer, col_scale integer,
            col_charsetid integer, col_charsetform integer, col_null_ok boolean);
    END IF;
END $do$;

CREATE OR REPLACE FUNCTION oracompat.dbms_sql_describe_columns(c numeric, OUT col_cnt integer, OUT desc_t jsonb)
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    st jsonb := oracompat.dbms_sql_state(c);
    v_view text := 'oracompat_describe_' || c::bigint;
    v_sql text;
    r record;
    v_rec oracompat.dbms_sql_desc_rec;
BEGIN
    IF st ->> 'kind' IS DISTINCT FROM 'query' THEN
        RAISE EXCEPTION 'ORA-00900: invalid SQL statement (DESCRIBE_COLUMNS needs a parsed query)' USING ERRCODE = 'OS560';
    END IF;
    -- every :name bound to NULL for the description
    SELECT coalesce(jsonb_object_agg(n, jsonb_build_object('v', NULL, 't', 'text')), '{}'::jsonb) INTO v_sql
      FROM unnest(oracompat.dbms_sql_bind_names(st ->> 'sql')) n;
    -- an untyped NULL, so the comparison it stands in takes the column's type
    v_sql := replace(oracompat.dbms_sql_bound_text(st ->> 'sql', v_sql::jsonb), '(NULL::text)', 'NULL');
    EXECUTE format('CREATE OR REPLACE TEMP VIEW %I AS %s', v_view, v_sql);
    col_cnt := 0;
    desc_t := '{}'::jsonb;
    FOR r IN SELECT a.attname::text AS name, t.typname::text AS typ, a.atttypmod AS mod
               FROM pg_attribute a JOIN pg_type t ON t.oid = a.atttypid
              WHERE a.attrelid = format('pg_temp.%I', v_view)::regclass AND a.attnum > 0 AND NOT a.attisdropped
              ORDER BY a.attnum LOOP
        col_cnt := col_cnt + 1;
        v_rec := ROW(
            CASE r.typ WHEN 'varchar' THEN 1 WHEN 'numeric' THEN 2 WHEN 'int2' THEN 2 WHEN 'int4' THEN 2 WHEN 'int8' THEN 2
                       WHEN 'bpchar' THEN 96 WHEN 'float4' THEN 100 WHEN 'float8' THEN 101 WHEN 'text' THEN 112
                       WHEN 'bytea' THEN 113 WHEN 'timestamptz' THEN 181 WHEN 'interval' THEN 183
                       WHEN 'timestamp' THEN CASE WHEN r.mod = 0 THEN 12 ELSE 180 END
                       WHEN 'date' THEN 12 ELSE 1 END,
            CASE WHEN r.typ IN ('varchar', 'bpchar') AND r.mod > 4 THEN r.mod - 4
                 WHEN r.typ IN ('varchar', 'bpchar') THEN 4000
                 WHEN r.typ IN ('numeric', 'int2', 'int4', 'int8') THEN 22
                 WHEN r.typ = 'timestamp' AND r.mod = 0 OR r.typ = 'date' THEN 7
                 WHEN r.typ = 'timestamp' THEN 11 WHEN r.typ = 'timestamptz' THEN 13
                 WHEN r.typ IN ('float4') THEN 4 WHEN r.typ = 'float8' THEN 8 WHEN r.typ = 'interval' THEN 11
                 ELSE 4000 END,
            upper(r.name), length(r.name), '', 0,
            CASE WHEN r.typ = 'numeric' AND r.mod > 4 THEN ((r.mod - 4) >> 16) & 65535
                 WHEN r.typ IN ('int2', 'int4', 'int8') THEN 38 ELSE 0 END,
            CASE WHEN r.typ = 'numeric' AND r.mod > 4 THEN (r.mod - 4) & 65535
                 WHEN r.typ = 'numeric' THEN -127 ELSE 0 END,
            CASE WHEN r.typ IN ('varchar', 'bpchar', 'text') THEN 873 ELSE 0 END,
            CASE WHEN r.typ IN ('varchar', 'bpchar', 'text') THEN 1 ELSE 0 END,
            true)::oracompat.dbms_sql_desc_rec;
        desc_t := desc_t || jsonb_build_object(col_cnt::text, to_jsonb(v_rec));
    END LOOP;
    EXECUTE format('DROP VIEW pg_temp.%I', v_view);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_sql_describe_columns2(c numeric, OUT col_cnt integer, OUT desc_t jsonb)
LANGUAGE sql VOLATILE AS $fn$ SELECT * FROM oracompat.dbms_sql_describe_columns(c) $fn$;
