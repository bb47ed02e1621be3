-- oracompat: DBMS_UTILITY, DBMS_RANDOM, DBMS_ASSERT, DBMS_APPLICATION_INFO, DBMS_SESSION and
-- SYS_CONTEXT, for the members that have a faithful PostgreSQL meaning. Session values (module,
-- action, client info, contexts) live in the non-transactional session store that package state
-- uses (oracompat.pkg_get / pkg_set in runtime.sql): like Oracle's, a rollback does not undo them.
CREATE SCHEMA IF NOT EXISTS oracompat;

-- ---- DBMS_UTILITY ----------------------------------------------------------------------------
-- GET_TIME: hundredths of a second from an arbitrary point, within a signed 32-bit range; only
-- differences between two calls mean something (as in Oracle).
CREATE OR REPLACE FUNCTION oracompat.dbms_utility_get_time() RETURNS integer
LANGUAGE sql VOLATILE AS $fn$
  SELECT (floor(extract(epoch FROM clock_timestamp()) * 100)::bigint % 2147483648)::integer
$fn$;

-- FORMAT_ERROR_STACK inside a handler: the current error's Oracle message and a line feed.
CREATE OR REPLACE FUNCTION oracompat.dbms_utility_format_error_stack(p_state text, p_message text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE WHEN p_state IS NULL THEN NULL ELSE oracompat.sqlerrm(p_state, p_message) || chr(10) END
$fn$;

-- FORMAT_ERROR_BACKTRACE inside a handler: one "ORA-06512: at <unit>, line <n>" line per PL/pgSQL
-- frame of the error's context (innermost first, as Oracle lists them). The line numbers are those
-- of the PostgreSQL function bodies, not of the Oracle source.
CREATE OR REPLACE FUNCTION oracompat.dbms_utility_format_error_backtrace(p_context text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT string_agg(format('ORA-06512: at "%s", line %s', upper(m[1]), m[2]), chr(10) ORDER BY n) || chr(10)
    FROM regexp_split_to_table(p_context, E'\n') WITH ORDINALITY AS l(line, n),
         LATERAL regexp_match(l.line, '^PL/pgSQL function ([^(]+)\(.*\) line ([0-9]+)') AS m
   WHERE m IS NOT NULL
$fn$;

-- FORMAT_CALL_STACK: Oracle's header, then one line per PL/pgSQL caller (innermost first) with
-- the line and the routine; the object handle column has no meaning here and shows 0.
CREATE OR REPLACE FUNCTION oracompat.dbms_utility_format_call_stack() RETURNS text
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    v_context text;
    v_out text := '----- PL/SQL Call Stack -----' || chr(10) || '  object      line  object' || chr(10)
                  || '  handle    number  name' || chr(10);
    m text[];
    v_line text;
    v_first boolean := true;
BEGIN
    GET DIAGNOSTICS v_context = PG_CONTEXT;
    FOREACH v_line IN ARRAY string_to_array(v_context, E'\n') LOOP
        m := regexp_match(v_line, '^PL/pgSQL function ([^(]+)\(.*\) line ([0-9]+)');
        CONTINUE WHEN m IS NULL;
        IF v_first THEN  -- this function's own frame
            v_first := false;
            CONTINUE;
        END IF;
        v_out := v_out || format('%-10s%10s  %s', '0x0', m[2], upper(m[1])) || chr(10);
    END LOOP;
    RETURN v_out;
END;
$fn$;

-- COMMA_TO_TABLE(list, tablen OUT, tab OUT): the names of a comma-separated list, each a (possibly
-- dotted, possibly quoted) name kept as written; tab holds them at 1..tablen and a NULL at
-- tablen + 1, as Oracle leaves it. An element that is no name: ORA-20001.
CREATE OR REPLACE FUNCTION oracompat.dbms_utility_comma_to_table(list text, OUT tablen integer, OUT tab jsonb)
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    v_items text[];
    v_item text;
    k integer := 0;
BEGIN
    tab := '{}'::jsonb;
    v_items := string_to_array(coalesce(list, ''), ',');
    FOREACH v_item IN ARRAY v_items LOOP
        IF btrim(v_item) !~ '^("[^"]+"|[A-Za-z][A-Za-z0-9_$#]*)(\s*\.\s*("[^"]+"|[A-Za-z][A-Za-z0-9_$#]*))*(@("[^"]+"|[A-Za-z][A-Za-z0-9_$#.]*))?$' THEN
            RAISE EXCEPTION 'comma-separated list invalid near %', btrim(v_item) USING ERRCODE = 'O2001';
        END IF;
        k := k + 1;
        tab := tab || jsonb_build_object(k::text, v_item);
    END LOOP;
    tablen := k;
    tab := tab || jsonb_build_object((k + 1)::text, NULL);
END;
$fn$;

-- TABLE_TO_COMMA(tab, tablen OUT, list OUT): tab(1), tab(2), ... up to the first NULL or gap.
CREATE OR REPLACE FUNCTION oracompat.dbms_utility_table_to_comma(tab jsonb, OUT tablen integer, OUT list text)
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    k integer := 1;
BEGIN
    tablen := 0;
    WHILE tab ? k::text AND jsonb_typeof(tab -> k::text) <> 'null' LOOP
        list := CASE WHEN k = 1 THEN '' ELSE list || ',' END || (tab ->> k::text);
        tablen := k;
        k := k + 1;
    END LOOP;
END;
$fn$;

-- ---- DBMS_RANDOM -----------------------------------------------------------------------------
-- VALUE: 0 <= x < 1; VALUE(low, high): low <= x < high. RANDOM: a 32-bit integer. NORMAL: standard
-- normal distribution. STRING(opt, len): opt U/u upper, L/l lower, A/a mixed case, X/x upper
-- alphanumeric, P/p printable; anything else upper case. SEED / INITIALIZE: setseed (Oracle's
-- generator differs, so a seeded sequence repeats itself but not Oracle's numbers).
CREATE OR REPLACE FUNCTION oracompat.dbms_random_value() RETURNS numeric
LANGUAGE sql VOLATILE AS $fn$ SELECT random()::numeric $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_random_value(low numeric, high numeric) RETURNS numeric
LANGUAGE sql VOLATILE AS $fn$ SELECT low + (high - low) * random()::numeric $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_random_random() RETURNS integer
LANGUAGE sql VOLATILE AS $fn$ SELECT (floor(random() * 4294967296) - 2147483648)::integer $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_random_normal() RETURNS numeric
LANGUAGE sql VOLATILE AS $fn$
  SELECT (sqrt(-2 * ln(1 - random())) * cos(2 * pi() * random()))::numeric
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_random_string(opt text, len numeric) RETURNS text
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    chars text := CASE
        WHEN opt IN ('u', 'U') THEN 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
        WHEN opt IN ('l', 'L') THEN 'abcdefghijklmnopqrstuvwxyz'
        WHEN opt IN ('a', 'A') THEN 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'
        WHEN opt IN ('x', 'X') THEN '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'
        WHEN opt IN ('p', 'P') THEN (SELECT string_agg(chr(c), '' ORDER BY c) FROM generate_series(32, 126) AS c)
        ELSE 'ABCDEFGHIJKLMNOPQRSTUVWXYZ' END;
    n integer := least(greatest(coalesce(round(len), 0), 0), 4000);
    out text := '';
BEGIN
    FOR i IN 1 .. n LOOP
        out := out || substr(chars, 1 + floor(random() * length(chars))::integer, 1);
    END LOOP;
    RETURN nullif(out, '');
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_random_seed(val text) RETURNS void
LANGUAGE sql VOLATILE AS $fn$
  SELECT setseed(((('x' || substr(md5(coalesce(val, '')), 1, 8))::bit(32)::integer)::double precision / 2147483648.0))
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_random_seed(val numeric) RETURNS void
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.dbms_random_seed(val::text) $fn$;

-- ---- DBMS_ASSERT ------------------------------------------------------------------------------
-- A simple SQL name: a letter then letters, digits, _ $ #; or a quoted name (inner quotes doubled).
CREATE OR REPLACE FUNCTION oracompat.assert_is_name(p text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT p ~ '^([A-Za-z][A-Za-z0-9_$#]*|"([^"]|"")+")$'
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_assert_noop(str text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$ SELECT str $fn$;

-- SIMPLE_SQL_NAME(str): str (surrounding blanks ignored) when it is one simple name, else ORA-44003.
CREATE OR REPLACE FUNCTION oracompat.dbms_assert_simple_sql_name(str text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
BEGIN
    IF str IS NULL OR NOT oracompat.assert_is_name(btrim(str)) THEN
        RAISE EXCEPTION 'invalid SQL name' USING ERRCODE = 'OS443';
    END IF;
    RETURN str;
END;
$fn$;

-- QUALIFIED_SQL_NAME(str): names joined by '.', optionally @ a database link name, else ORA-44004.
CREATE OR REPLACE FUNCTION oracompat.dbms_assert_qualified_sql_name(str text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    v_name text := '([A-Za-z][A-Za-z0-9_$#]*|"([^"]|"")+")';
BEGIN
    IF str IS NULL OR btrim(str) !~ ('^' || v_name || '(\s*\.\s*' || v_name || ')*(@' || v_name || '(\.' || v_name || ')*)?$') THEN
        RAISE EXCEPTION 'invalid qualified SQL name' USING ERRCODE = 'OS444';
    END IF;
    RETURN str;
END;
$fn$;

-- ENQUOTE_NAME(str, capitalize = TRUE): str in double quotes, upper-cased unless already quoted or
-- capitalize is FALSE; a quote inside that is not doubled: ORA-44003.
CREATE OR REPLACE FUNCTION oracompat.dbms_assert_enquote_name(str text, capitalize boolean DEFAULT true) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
BEGIN
    IF str ~ '^".*"$' AND length(str) >= 2 THEN
        IF substr(str, 2, length(str) - 2) ~ '(^|[^"])"("")*([^"]|$)' THEN
            RAISE EXCEPTION 'invalid SQL name' USING ERRCODE = 'OS443';
        END IF;
        RETURN str;
    END IF;
    IF strpos(coalesce(str, ''), '"') > 0 THEN
        RAISE EXCEPTION 'invalid SQL name' USING ERRCODE = 'OS443';
    END IF;
    RETURN '"' || CASE WHEN coalesce(capitalize, true) THEN upper(coalesce(str, '')) ELSE coalesce(str, '') END || '"';
END;
$fn$;

-- ENQUOTE_LITERAL(str): str in single quotes; a quote inside that is not doubled: VALUE_ERROR.
CREATE OR REPLACE FUNCTION oracompat.dbms_assert_enquote_literal(str text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    v_inner text := coalesce(str, '');
BEGIN
    IF v_inner ~ '^''.*''$' AND length(v_inner) >= 2 THEN
        v_inner := substr(v_inner, 2, length(v_inner) - 2);
    END IF;
    IF replace(v_inner, '''''', '') ~ '''' THEN
        PERFORM oracompat.lob_value_error('unpaired quote in literal');
    END IF;
    RETURN '''' || v_inner || '''';
END;
$fn$;

-- An Oracle name as PostgreSQL stores it: a plain upper-case name folds to lower case (an
-- unquoted Oracle name), a quoted one keeps its text.
CREATE OR REPLACE FUNCTION oracompat.assert_pg_name(p text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
  SELECT CASE WHEN p ~ '^".*"$' THEN replace(substr(p, 2, length(p) - 2), '""', '"')
              WHEN p = upper(p) THEN lower(p)
              ELSE p END
$fn$;

-- SCHEMA_NAME(str): str when it names an existing schema, else ORA-44001.
CREATE OR REPLACE FUNCTION oracompat.dbms_assert_schema_name(str text) RETURNS text
LANGUAGE plpgsql STABLE AS $fn$
BEGIN
    IF str IS NULL OR NOT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = oracompat.assert_pg_name(btrim(str))) THEN
        RAISE EXCEPTION 'invalid schema' USING ERRCODE = 'OS441';
    END IF;
    RETURN str;
END;
$fn$;

-- SQL_OBJECT_NAME(str): str when it names an existing table, view, sequence or routine (optionally
-- schema-qualified), else ORA-44002.
CREATE OR REPLACE FUNCTION oracompat.dbms_assert_sql_object_name(str text) RETURNS text
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    v_parts text[];
    v_schema text;
    v_name text;
BEGIN
    IF str IS NULL OR oracompat.dbms_assert_qualified_sql_name(str) IS NULL THEN
        RAISE EXCEPTION 'invalid object name' USING ERRCODE = 'OS442';
    END IF;
    v_parts := regexp_split_to_array(btrim(str), '\s*\.\s*');
    IF cardinality(v_parts) > 2 OR strpos(str, '@') > 0 THEN
        RAISE EXCEPTION 'invalid object name' USING ERRCODE = 'OS442';
    END IF;
    v_name := oracompat.assert_pg_name(v_parts[cardinality(v_parts)]);
    v_schema := CASE WHEN cardinality(v_parts) = 2 THEN oracompat.assert_pg_name(v_parts[1]) END;
    IF NOT EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                    WHERE c.relname = v_name
                      AND (n.nspname = v_schema OR (v_schema IS NULL AND n.nspname = ANY (current_schemas(false)))))
       AND NOT EXISTS (SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
                        WHERE p.proname = v_name
                          AND (n.nspname = v_schema OR (v_schema IS NULL AND n.nspname = ANY (current_schemas(false)))))
       AND NOT (v_schema IS NULL AND EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = v_name)) THEN
        RAISE EXCEPTION 'invalid object name' USING ERRCODE = 'OS442';
    END IF;
    RETURN str;
END;
$fn$;

-- ---- DBMS_APPLICATION_INFO, DBMS_SESSION ------------------------------------------------------
-- Module (48 bytes), action (32) and client info (64) are kept per session, truncated as Oracle
-- truncates them; the module also becomes the session's application_name (what pg_stat_activity
-- shows, as V$SESSION shows the module).
CREATE OR REPLACE FUNCTION oracompat.session_value(p_key text) RETURNS text
LANGUAGE sql STABLE AS $fn$ SELECT oracompat.pkg_get('oracompat.session.' || p_key) $fn$;

CREATE OR REPLACE FUNCTION oracompat.set_session_value(p_key text, p_value text) RETURNS void
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.pkg_set('oracompat.session.' || p_key, p_value) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_application_info_set_module(module_name text, action_name text) RETURNS void
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    PERFORM oracompat.set_session_value('module', left(module_name, 48));
    PERFORM oracompat.set_session_value('action', left(action_name, 32));
    PERFORM set_config('application_name', coalesce(left(module_name, 48), ''), false);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_application_info_set_action(action_name text) RETURNS void
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.set_session_value('action', left(action_name, 32)) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_application_info_set_client_info(client_info text) RETURNS void
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.set_session_value('client_info', left(client_info, 64)) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_application_info_read_module(OUT module_name text, OUT action_name text)
LANGUAGE sql STABLE AS $fn$
  SELECT oracompat.session_value('module'), oracompat.session_value('action')
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_application_info_read_client_info(OUT client_info text)
LANGUAGE sql STABLE AS $fn$ SELECT oracompat.session_value('client_info') $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_session_set_identifier(client_id text) RETURNS void
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.set_session_value('client_identifier', left(client_id, 64)) $fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_session_clear_identifier() RETURNS void
LANGUAGE sql VOLATILE AS $fn$ SELECT oracompat.set_session_value('client_identifier', NULL) $fn$;

-- SET_CONTEXT(namespace, attribute, value): an application context attribute SYS_CONTEXT reads;
-- names are case-insensitive (kept upper-case), values as given. CLEAR_CONTEXT removes one
-- attribute or, without one, the whole namespace.
CREATE OR REPLACE FUNCTION oracompat.dbms_session_set_context(namespace text, attribute text, value text,
                                                              username text DEFAULT NULL, client_id text DEFAULT NULL)
RETURNS void LANGUAGE sql VOLATILE AS $fn$
  SELECT oracompat.set_session_value('contexts',
      (coalesce(oracompat.session_value('contexts')::jsonb, '{}'::jsonb)
       || jsonb_build_object(upper(namespace) || '.' || upper(attribute), value))::text)
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_session_clear_context(namespace text, client_id text DEFAULT NULL,
                                                                attribute text DEFAULT NULL)
RETURNS void LANGUAGE sql VOLATILE AS $fn$
  SELECT oracompat.set_session_value('contexts', coalesce(
      (SELECT jsonb_object_agg(k, v) FROM jsonb_each(coalesce(oracompat.session_value('contexts')::jsonb, '{}'::jsonb)) AS e(k, v)
        WHERE NOT (k LIKE upper(namespace) || '.%' AND (attribute IS NULL OR k = upper(namespace) || '.' || upper(attribute)))),
      '{}'::jsonb)::text)
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_session_unique_session_id() RETURNS text
LANGUAGE sql STABLE AS $fn$
  SELECT upper(lpad(to_hex(pg_backend_pid()), 8, '0')
               || lpad(to_hex(extract(epoch FROM pg_catalog.pg_postmaster_start_time())::bigint), 16, '0'))
$fn$;

-- ---- SYS_CONTEXT ------------------------------------------------------------------------------
-- SYS_CONTEXT('USERENV', attribute[, length]) for the attributes with a PostgreSQL meaning (user
-- names upper-cased as Oracle reports unquoted names; NLS values are the AMERICAN/AMERICA defaults
-- the converted code assumes); any other USERENV attribute is ORA-02003. Other namespaces read the
-- attributes DBMS_SESSION.SET_CONTEXT set (NULL when unset). The result is cut to `length`
-- (default 256, at most 4000) bytes.
CREATE OR REPLACE FUNCTION oracompat.sys_context(namespace text, parameter text, length numeric DEFAULT 256)
RETURNS text LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    v text;
    p text := upper(btrim(parameter));
    n integer;
BEGIN
    IF namespace IS NULL OR parameter IS NULL THEN
        RETURN NULL;
    END IF;
    IF upper(namespace) = 'USERENV' THEN
        v := CASE p
            WHEN 'SESSION_USER' THEN upper(session_user)
            WHEN 'CURRENT_USER' THEN upper(current_user)
            WHEN 'AUTHENTICATED_IDENTITY' THEN session_user
            WHEN 'CURRENT_SCHEMA' THEN upper(current_schema())
            WHEN 'DB_NAME' THEN current_database()
            WHEN 'DB_UNIQUE_NAME' THEN current_database()
            WHEN 'CON_NAME' THEN upper(current_database())
            WHEN 'SID' THEN pg_backend_pid()::text
            WHEN 'SESSIONID' THEN pg_backend_pid()::text
            WHEN 'IP_ADDRESS' THEN host(inet_client_addr())
            WHEN 'MODULE' THEN oracompat.session_value('module')
            WHEN 'ACTION' THEN oracompat.session_value('action')
            WHEN 'CLIENT_INFO' THEN oracompat.session_value('client_info')
            WHEN 'CLIENT_IDENTIFIER' THEN oracompat.session_value('client_identifier')
            WHEN 'LANG' THEN 'US'
            WHEN 'LANGUAGE' THEN 'AMERICAN_AMERICA.' || CASE getdatabaseencoding() WHEN 'UTF8' THEN 'AL32UTF8' ELSE getdatabaseencoding() END
            WHEN 'NLS_TERRITORY' THEN 'AMERICA'
            WHEN 'NLS_DATE_LANGUAGE' THEN 'AMERICAN'
            WHEN 'NLS_DATE_FORMAT' THEN 'DD-MON-RR'
            WHEN 'NLS_CALENDAR' THEN 'GREGORIAN'
            WHEN 'NLS_CURRENCY' THEN '$'
            WHEN 'NLS_SORT' THEN 'BINARY'
            WHEN 'ISDBA' THEN CASE WHEN (SELECT rolsuper FROM pg_roles WHERE rolname = session_user) THEN 'TRUE' ELSE 'FALSE' END
            ELSE NULL END;
        IF v IS NULL AND p NOT IN ('IP_ADDRESS', 'MODULE', 'ACTION', 'CLIENT_INFO', 'CLIENT_IDENTIFIER') THEN
            RAISE EXCEPTION 'invalid USERENV parameter' USING ERRCODE = 'OS203';
        END IF;
    ELSE
        v := coalesce(oracompat.session_value('contexts')::jsonb, '{}'::jsonb) ->> (upper(namespace) || '.' || p);
    END IF;
    n := least(greatest(coalesce(round(length), 256), 1), 4000);
    v := left(v, n);
    WHILE octet_length(v) > n LOOP  -- a byte limit: drop whole characters
        v := left(v, -1);
    END LOOP;
    RETURN v;
END;
$fn$;

-- The error being handled, for FORMAT_ERROR_STACK / FORMAT_ERROR_BACKTRACE called outside the
-- handler itself (in a logging routine the handler calls, as Oracle allows): converted handlers
-- publish their error here when the schema reads it that way (migrator/convert/plsql/emit_supplied.py).
CREATE OR REPLACE FUNCTION oracompat.error_push(p_state text, p_message text, p_context text) RETURNS void
LANGUAGE sql VOLATILE AS $fn$
  SELECT set_config('oracompat.error_state', coalesce(p_state, ''), false),
         set_config('oracompat.error_message', coalesce(p_message, ''), false),
         set_config('oracompat.error_context', coalesce(p_context, ''), false)
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_utility_format_error_stack() RETURNS text
LANGUAGE sql STABLE AS $fn$
  SELECT oracompat.dbms_utility_format_error_stack(nullif(current_setting('oracompat.error_state', true), ''),
                                                   current_setting('oracompat.error_message', true))
$fn$;

CREATE OR REPLACE FUNCTION oracompat.dbms_utility_format_error_backtrace() RETURNS text
LANGUAGE sql STABLE AS $fn$
  SELECT oracompat.dbms_utility_format_error_backtrace(nullif(current_setting('oracompat.error_context', true), ''))
$fn$;
