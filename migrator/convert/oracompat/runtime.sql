-- oracompat: the runtime library converted PL/SQL relies on (see migrator/convert/oracompat/runtime.py).
CREATE SCHEMA IF NOT EXISTS oracompat;

-- Oracle SQLCODE / SQLERRM from a PostgreSQL SQLSTATE (table: harness/errors.py)
CREATE OR REPLACE FUNCTION oracompat.sqlcode_msg(p_state text, OUT code integer, OUT msg text)
LANGUAGE plpgsql IMMUTABLE AS $fn$
BEGIN
    IF p_state IS NULL OR p_state = '00000' THEN
        code := 0; msg := 'ORA-0000: normal, successful completion'; RETURN;
    END IF;
    IF p_state ~ '^O2[0-9]{3}$' THEN
        code := -20000 - substr(p_state, 3)::integer; msg := NULL; RETURN;
    END IF;
    IF p_state LIKE 'OU%' THEN
        code := 1; msg := 'User-Defined Exception'; RETURN;
    END IF;
    SELECT v.c, v.m INTO code, msg FROM (VALUES
        /*SQLCODE_CASES*/
    ) AS v(s, c, m) WHERE v.s = p_state LIMIT 1;
    IF FOUND THEN
        RETURN;
    END IF;
    code := -20000; msg := NULL;  -- no Oracle counterpart known: reported as an application error
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.sqlcode(p_state text) RETURNS integer
LANGUAGE sql IMMUTABLE AS $fn$ SELECT (oracompat.sqlcode_msg(p_state)).code $fn$;

CREATE OR REPLACE FUNCTION oracompat.sqlerrm(p_state text, p_message text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    c integer; m text;
BEGIN
    SELECT code, msg INTO c, m FROM oracompat.sqlcode_msg(p_state);
    IF m IS NOT NULL THEN
        RETURN m;
    END IF;
    RETURN 'ORA-' || lpad((-c)::text, 5, '0') || ': ' || coalesce(p_message, '');
END;
$fn$;

-- SQLERRM naming the object, as Oracle does for constraint errors: the handler passes what
-- GET STACKED DIAGNOSTICS reported (CONSTRAINT_NAME, SCHEMA_NAME, TABLE_NAME, COLUMN_NAME).
-- Names are upper-cased (Oracle reports unquoted identifiers so); the owner is the schema.
-- Texts: harness/errors.py (object_message).
CREATE OR REPLACE FUNCTION oracompat.sqlerrm(p_state text, p_message text, p_constraint text,
                                             p_schema text, p_table text, p_column text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    v_code integer; pre text; generic text; tmpl text;
BEGIN
    v_code := oracompat.sqlcode(p_state);
    IF p_state = '23503' AND p_message LIKE '/*FK_CHILD_PREFIX*/%' THEN
        v_code := -2292;
    END IF;
    SELECT v.p, v.g, v.t INTO pre, generic, tmpl FROM (VALUES
        /*SQLERRM_OBJECT_CASES*/
    ) AS v(c, p, g, t) WHERE v.c = v_code;
    IF NOT FOUND THEN
        RETURN oracompat.sqlerrm(p_state, p_message);
    END IF;
    IF p_schema IS NOT NULL AND strpos(tmpl, '{constraint}') > 0 AND p_constraint IS NOT NULL THEN
        RETURN pre || ': ' || replace(tmpl, '{constraint}', upper(p_schema) || '.' || upper(p_constraint));
    END IF;
    IF p_schema IS NOT NULL AND strpos(tmpl, '{column}') > 0 AND p_table IS NOT NULL
       AND p_column IS NOT NULL THEN
        RETURN pre || ': ' || replace(tmpl, '{column}',
            '"' || upper(p_schema) || '"."' || upper(p_table) || '"."' || upper(p_column) || '"');
    END IF;
    RETURN pre || ': ' || generic;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.sqlerrm_of(p_code numeric) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT CASE WHEN p_code = 0 THEN 'ORA-0000: normal, successful completion'
            WHEN p_code = 1 THEN 'User-Defined Exception'
            WHEN p_code = 100 THEN 'ORA-01403: no data found'
            ELSE coalesce((SELECT v.m FROM (VALUES
                               /*SQLERRM_OF_CASES*/
                           ) AS v(c, m) WHERE v.c = p_code),
                          'ORA-' || lpad((-p_code)::text, 5, '0') || ': ') END
$fn$;

CREATE OR REPLACE FUNCTION oracompat.app_errcode(p_code integer) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
BEGIN
    IF p_code NOT BETWEEN -20999 AND -20000 THEN
        RAISE EXCEPTION 'ORA-21000: error number argument to raise_application_error of % is out of range', p_code
            USING ERRCODE = 'O2999';
    END IF;
    RETURN 'O2' || lpad((-p_code - 20000)::text, 3, '0');
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.cursor_isopen(p_cursor refcursor) RETURNS boolean
LANGUAGE sql STABLE AS $fn$
SELECT p_cursor IS NOT NULL AND EXISTS (SELECT 1 FROM pg_cursors WHERE name = p_cursor::text)
$fn$;

-- DBMS_OUTPUT: PUT accumulates a line, NEW_LINE / PUT_LINE emit it as one NOTICE
CREATE OR REPLACE FUNCTION oracompat.put(p_text text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM set_config('oracompat.dbms_output_line',
                       coalesce(current_setting('oracompat.dbms_output_line', true), '') || coalesce(p_text, ''), false);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.new_line() RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.emit_line(coalesce(current_setting('oracompat.dbms_output_line', true), ''));
    PERFORM set_config('oracompat.dbms_output_line', '', false);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.put_line(p_text text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.put(p_text);
    PERFORM oracompat.new_line();
END;
$fn$;

-- package state: kept in session-level prepared statements, because they are NOT transactional
-- (custom GUCs and temp tables are rolled back with a failed (sub)transaction, Oracle package
-- state is not). Value text is hex-encoded: 'N' = NULL, 'V<hex>' otherwise. DEALLOCATE ALL /
-- DISCARD ALL reset it, like DBMS_SESSION.RESET_PACKAGE.
CREATE OR REPLACE FUNCTION oracompat.pkg_get(p_key text) RETURNS text
LANGUAGE plpgsql VOLATILE AS $fn$
-- the value is read by executing its statement (a lookup by name), not by scanning
-- pg_prepared_statements, whose every row carries its whole statement text: a scan per read made
-- code that reads package state often slow down as the state grew. VOLATILE: EXECUTE of a
-- prepared statement is refused in a STABLE function.
DECLARE
    raw text;
BEGIN
    BEGIN
        EXECUTE format('EXECUTE %I', 'oracompat_' || md5(p_key)) INTO raw;
    EXCEPTION WHEN invalid_sql_statement_name THEN  -- never set in this session
        RETURN NULL;
    END;
    IF raw IS NULL OR raw = 'N' THEN
        RETURN NULL;
    END IF;
    RETURN convert_from(decode(substr(raw, 2), 'hex'), 'UTF8');
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.pkg_set(p_key text, p_value text) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    ps text := 'oracompat_' || md5(p_key);
BEGIN
    BEGIN
        EXECUTE format('DEALLOCATE %I', ps);
    EXCEPTION WHEN invalid_sql_statement_name THEN  -- the first value of this key
        NULL;
    END;
    EXECUTE format('PREPARE %I AS SELECT %L::text', ps,
                   CASE WHEN p_value IS NULL THEN 'N' ELSE 'V' || encode(convert_to(p_value, 'UTF8'), 'hex') END);
END;
$fn$;

-- whether the package state says `p_key` (a package's initialised flag) is set; if so the session
-- setting `p_setting` (the converted initialize__'s fast check) is set again: it is rolled back
-- with a failed (sub)transaction, the state is not
CREATE OR REPLACE FUNCTION oracompat.pkg_seen(p_key text, p_setting text) RETURNS boolean
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    IF oracompat.pkg_get(p_key) = 'Y' THEN
        PERFORM set_config(p_setting, 'Y', false);
        RETURN true;
    END IF;
    RETURN false;
END;
$fn$;

-- associative arrays (INDEX BY) as jsonb objects
CREATE OR REPLACE FUNCTION oracompat.aa_get(p_arr jsonb, p_key text) RETURNS jsonb
LANGUAGE plpgsql IMMUTABLE AS $fn$
BEGIN
    IF p_key IS NULL OR p_arr IS NULL OR NOT (p_arr ? p_key) THEN
        RAISE no_data_found;  -- Oracle: reading a missing element raises NO_DATA_FOUND
    END IF;
    RETURN p_arr -> p_key;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.aa_set(p_arr jsonb, p_key text, p_value anyelement) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $fn$
SELECT coalesce(p_arr, '{}'::jsonb) || jsonb_build_object(p_key, to_jsonb(p_value))
$fn$;

CREATE OR REPLACE FUNCTION oracompat.aa_exists(p_arr jsonb, p_key text) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $fn$ SELECT coalesce(p_arr ? p_key, false) $fn$;

CREATE OR REPLACE FUNCTION oracompat.aa_count(p_arr jsonb) RETURNS integer
LANGUAGE sql IMMUTABLE AS $fn$
SELECT coalesce((SELECT count(*)::integer FROM jsonb_object_keys(p_arr)), 0)
$fn$;

CREATE OR REPLACE FUNCTION oracompat.aa_first_n(p_arr jsonb) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$ SELECT min(k::numeric) FROM jsonb_object_keys(p_arr) k $fn$;

CREATE OR REPLACE FUNCTION oracompat.aa_last_n(p_arr jsonb) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$ SELECT max(k::numeric) FROM jsonb_object_keys(p_arr) k $fn$;

CREATE OR REPLACE FUNCTION oracompat.aa_next_n(p_arr jsonb, p_key numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$ SELECT min(k::numeric) FROM jsonb_object_keys(p_arr) k WHERE k::numeric > p_key $fn$;

CREATE OR REPLACE FUNCTION oracompat.aa_prior_n(p_arr jsonb, p_key numeric) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $fn$ SELECT max(k::numeric) FROM jsonb_object_keys(p_arr) k WHERE k::numeric < p_key $fn$;

-- VARCHAR2 keys: Oracle orders them by binary comparison, hence COLLATE "C"
CREATE OR REPLACE FUNCTION oracompat.aa_first_s(p_arr jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$ SELECT min(k COLLATE "C") FROM jsonb_object_keys(p_arr) k $fn$;

CREATE OR REPLACE FUNCTION oracompat.aa_last_s(p_arr jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$ SELECT max(k COLLATE "C") FROM jsonb_object_keys(p_arr) k $fn$;

CREATE OR REPLACE FUNCTION oracompat.aa_next_s(p_arr jsonb, p_key text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT min(k COLLATE "C") FROM jsonb_object_keys(p_arr) k WHERE k COLLATE "C" > p_key COLLATE "C"
$fn$;

CREATE OR REPLACE FUNCTION oracompat.aa_prior_s(p_arr jsonb, p_key text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT max(k COLLATE "C") FROM jsonb_object_keys(p_arr) k WHERE k COLLATE "C" < p_key COLLATE "C"
$fn$;

-- nested tables / VARRAYs as dense 1-based arrays of n elements
CREATE OR REPLACE FUNCTION oracompat.arr_next(p_n integer, p_i numeric) RETURNS integer
LANGUAGE sql IMMUTABLE AS $fn$
SELECT CASE WHEN p_i IS NULL OR p_n = 0 OR p_i >= p_n THEN NULL WHEN p_i < 1 THEN 1 ELSE floor(p_i)::integer + 1 END
$fn$;

CREATE OR REPLACE FUNCTION oracompat.arr_prior(p_n integer, p_i numeric) RETURNS integer
LANGUAGE sql IMMUTABLE AS $fn$
SELECT CASE WHEN p_i IS NULL OR p_n = 0 OR p_i <= 1 THEN NULL WHEN p_i > p_n THEN p_n ELSE ceil(p_i)::integer - 1 END
$fn$;

-- The element i of a nested table or VARRAY read as Oracle reads it: the subscript rounded to an
-- integer; below 1 or past a VARRAY's limit SUBSCRIPT_OUTSIDE_LIMIT (ORA-06532), past the count
-- SUBSCRIPT_BEYOND_COUNT (ORA-06533), NULL VALUE_ERROR (ORA-06502), where PostgreSQL reads NULL.
-- An SQL function, inlined into the caller's expression (no copy of the array per read). STABLE,
-- not IMMUTABLE: the planner folds immutable calls with constant arguments (PL/pgSQL variables in
-- a custom plan) even in a CASE arm the row never takes, and would raise where Oracle does not.
CREATE OR REPLACE FUNCTION oracompat.arr_get(p_arr anyarray, p_i numeric, p_limit integer DEFAULT NULL)
RETURNS anyelement
LANGUAGE sql STABLE AS $fn$
SELECT CASE WHEN round(p_i) BETWEEN 1 AND cardinality(p_arr) THEN p_arr[round(p_i)::integer]
            ELSE oracompat.subscript_error(p_arr, p_i, p_limit) END
$fn$;

CREATE OR REPLACE FUNCTION oracompat.subscript_error(p_arr anyarray, p_i numeric, p_limit integer)
RETURNS anyelement
LANGUAGE plpgsql STABLE AS $fn$
BEGIN
    IF p_i IS NULL THEN
        RAISE EXCEPTION 'PL/SQL: numeric or value error: NULL index table key value' USING ERRCODE = '22003';
    ELSIF round(p_i) < 1 OR round(p_i) > p_limit THEN
        RAISE EXCEPTION 'Subscript outside of limit' USING ERRCODE = 'OS532';
    END IF;
    RAISE EXCEPTION 'Subscript beyond count' USING ERRCODE = '2202E';
END;
$fn$;

-- Where a completed DBMS_OUTPUT line (or any other line for the caller) goes: a NOTICE, or — in a
-- session whose NOTICEs would be lost, an autonomous transaction's dblink session — the function
-- named in the session setting migrator.notice_sink (the harness's coverage probes honour it too).
CREATE OR REPLACE FUNCTION oracompat.emit_line(p_line text) RETURNS void
LANGUAGE plpgsql AS $fn$
DECLARE
    v_sink regprocedure := to_regprocedure(nullif(current_setting('migrator.notice_sink', true), '') || '(text)');
BEGIN
    IF v_sink IS NULL THEN
        RAISE NOTICE '%', p_line;
    ELSE
        EXECUTE format('SELECT %s($1)', v_sink::regproc) USING p_line;
    END IF;
END;
$fn$;

-- autonomous transactions: the body runs in a loopback dblink session (oracompat.self_dsn()), so
-- its COMMIT/ROLLBACK are its own. dblink does not forward that session's NOTICEs, and Oracle's
-- DBMS_OUTPUT is one buffer per session, autonomous or not: the session collects its lines
-- (non-transactionally, like package state, so a failing body keeps what it printed before the
-- error) and returns them with the result and the error; the caller prints them, then re-raises.
CREATE OR REPLACE FUNCTION oracompat.capture_line(p_line text) RETURNS void
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM oracompat.pkg_set('oracompat.captured',
        (coalesce(oracompat.pkg_get('oracompat.captured'), '[]')::jsonb || to_jsonb(p_line))::text);
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.autonomous_run(p_sql text, OUT result text, OUT lines text[],
                                                    OUT pending text, OUT err_state text, OUT err_message text)
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM set_config('migrator.notice_sink', 'oracompat.capture_line', false);
    PERFORM oracompat.pkg_set('oracompat.captured', '[]');
    BEGIN
        IF p_sql ~* '^\s*select\M' THEN
            EXECUTE p_sql INTO result;
        ELSE
            EXECUTE p_sql;
        END IF;
    EXCEPTION WHEN OTHERS THEN
        err_state := SQLSTATE;
        err_message := SQLERRM;
    END;
    lines := ARRAY(SELECT jsonb_array_elements_text(oracompat.pkg_get('oracompat.captured')::jsonb));
    pending := nullif(current_setting('oracompat.dbms_output_line', true), '');
END;
$fn$;

-- the caller's side: run `p_sql` autonomously, print what it printed, raise what it raised
CREATE OR REPLACE FUNCTION oracompat.autonomous(p_sql text) RETURNS text
LANGUAGE plpgsql AS $fn$
DECLARE
    r record;
    v_line text;
BEGIN
    SELECT * INTO r FROM dblink(oracompat.self_dsn(), format('SELECT * FROM oracompat.autonomous_run(%L)', p_sql))
        AS t(result text, lines text[], pending text, err_state text, err_message text);
    FOREACH v_line IN ARRAY coalesce(r.lines, ARRAY[]::text[]) LOOP
        PERFORM oracompat.emit_line(v_line);
    END LOOP;
    IF r.pending IS NOT NULL THEN
        PERFORM oracompat.put(r.pending);
    END IF;
    IF r.err_state IS NOT NULL THEN
        RAISE EXCEPTION USING ERRCODE = r.err_state, MESSAGE = r.err_message;
    END IF;
    RETURN r.result;
END;
$fn$;

-- loopback connection string for autonomous transactions: dblink to this same database as the same
-- role, with the same search_path (and frozen clock). A non-superuser may open a dblink session only
-- with a password the server checks, and may not read unix_socket_directories: the harness's
-- execution connections carry oracompat.self_host/_port/_password (harness/sandbox.py), which
-- are passed on to the loopback session so that it can open its own. A superuser deploying by hand
-- needs none of them. libpq conninfo quoting is '...' with \\ and \' escapes; inside `options`,
-- backslash and space are escaped with a backslash.
CREATE OR REPLACE FUNCTION oracompat.conninfo_quote(p_value text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT '''' || replace(replace(p_value, '\', '\\'), '''', '\''') || ''''
$fn$;

CREATE OR REPLACE FUNCTION oracompat.option_quote(p_value text) RETURNS text
LANGUAGE sql IMMUTABLE AS $fn$
SELECT replace(replace(p_value, '\', '\\'), ' ', '\ ')
$fn$;

CREATE OR REPLACE FUNCTION oracompat.self_dsn() RETURNS text
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    v_host text := nullif(current_setting('oracompat.self_host', true), '');
    v_port text := coalesce(nullif(current_setting('oracompat.self_port', true), ''), current_setting('port'));
    v_password text := nullif(current_setting('oracompat.self_password', true), '');
    v_options text := '-c search_path=' || oracompat.option_quote(current_setting('search_path'));
    v_setting text;
    v_dsn text;
BEGIN
    IF v_host IS NULL THEN  -- a superuser session opened by hand: ask the server where it listens
        v_host := coalesce(host(inet_server_addr()), split_part(current_setting('unix_socket_directories'), ',', 1));
    END IF;
    FOREACH v_setting IN ARRAY ARRAY['self_host', 'self_port', 'self_password', 'fixed_date', 'session_user'] LOOP
        IF nullif(current_setting('oracompat.' || v_setting, true), '') IS NOT NULL THEN
            v_options := v_options || ' -c oracompat.' || v_setting || '='
                         || oracompat.option_quote(current_setting('oracompat.' || v_setting));
        END IF;
    END LOOP;
    v_dsn := format('dbname=%s host=%s port=%s user=%s options=%s',
                    oracompat.conninfo_quote(current_database()), oracompat.conninfo_quote(v_host),
                    oracompat.conninfo_quote(v_port), oracompat.conninfo_quote(current_user),
                    oracompat.conninfo_quote(v_options));
    IF v_password IS NOT NULL THEN
        v_dsn := v_dsn || ' password=' || oracompat.conninfo_quote(v_password);
    END IF;
    RETURN v_dsn;
END;
$fn$;

-- dynamic SQL built at run time: :name / :1 placeholders outside quotes → $1, $2 ... in order
CREATE OR REPLACE FUNCTION oracompat.bind_positional(p_sql text) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    out text := ''; i integer := 1; n integer := length(p_sql); c text; q boolean := false; k integer := 0; j integer;
BEGIN
    WHILE i <= n LOOP
        c := substr(p_sql, i, 1);
        IF c = '''' THEN
            q := NOT q;
        ELSIF NOT q AND c = ':' AND substr(p_sql, i + 1, 1) ~ '[A-Za-z0-9_]' AND substr(p_sql, i + 1, 1) <> '=' THEN
            j := i + 1;
            WHILE j <= n AND substr(p_sql, j, 1) ~ '[A-Za-z0-9_$#]' LOOP
                j := j + 1;
            END LOOP;
            k := k + 1;
            out := out || '$' || k;
            i := j;
            CONTINUE;
        END IF;
        out := out || c;
        i := i + 1;
    END LOOP;
    RETURN out;
END;
$fn$;

-- dynamic SQL built at run time, after bind_positional: the $k of a VARCHAR2 bind (k in p_positions)
-- replaced by its value as an untyped quoted literal (NULL for NULL), which PostgreSQL converts to
-- what it is compared with or written into, as Oracle converts a VARCHAR2 bind implicitly
-- (rule plsql.dynamic_bind_literals); text inside quotes is left alone.
CREATE OR REPLACE FUNCTION oracompat.bind_literals(p_sql text, p_positions integer[], p_values text[]) RETURNS text
LANGUAGE plpgsql IMMUTABLE AS $fn$
DECLARE
    out text := ''; i integer := 1; n integer := length(p_sql); c text; q boolean := false; j integer; k integer; at integer;
BEGIN
    WHILE i <= n LOOP
        c := substr(p_sql, i, 1);
        IF c = '''' THEN
            q := NOT q;
        ELSIF NOT q AND c = '$' AND substr(p_sql, i + 1, 1) ~ '[0-9]' THEN
            j := i + 1;
            WHILE j <= n AND substr(p_sql, j, 1) ~ '[0-9]' LOOP
                j := j + 1;
            END LOOP;
            k := substr(p_sql, i + 1, j - i - 1)::integer;
            at := array_position(p_positions, k);
            IF at IS NOT NULL THEN
                out := out || quote_nullable(p_values[at]);
                i := j;
                CONTINUE;
            END IF;
        END IF;
        out := out || c;
        i := i + 1;
    END LOOP;
    RETURN out;
END;
$fn$;

-- nested tables made sparse by DELETE(i): jsonb maps index → element
CREATE OR REPLACE FUNCTION oracompat.arr_to_aa(p_arr anyarray) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $fn$
-- by subscript: unnest() would spread an array of composites into their columns
SELECT coalesce((SELECT jsonb_object_agg(i::text, to_jsonb(p_arr[i])) FROM generate_subscripts(p_arr, 1) AS i), '{}'::jsonb)
$fn$;

CREATE OR REPLACE FUNCTION oracompat.aa_extend_at(p_arr jsonb, p_size integer, p_n integer) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $fn$
SELECT coalesce(p_arr, '{}'::jsonb) || coalesce((SELECT jsonb_object_agg((p_size + g)::text, 'null'::jsonb)
                                                 FROM generate_series(1, p_n) AS g), '{}'::jsonb)
$fn$;

-- TRIM(n): drop the elements above the new internal size (deleted placeholders count)
CREATE OR REPLACE FUNCTION oracompat.aa_trim_at(p_arr jsonb, p_size integer, p_n integer) RETURNS jsonb
LANGUAGE sql IMMUTABLE AS $fn$
SELECT p_arr - coalesce((SELECT array_agg(k) FROM jsonb_object_keys(p_arr) AS k
                         WHERE k::numeric > p_size - p_n), '{}'::text[])
$fn$;

-- UPDATING('COL'): Oracle asks whether COL is a SET target, even when its value does not change;
-- only an `UPDATE OF col` trigger can see that in PostgreSQL. A helper trigger of that kind, named
-- to fire just before the converted one (same-event triggers fire in name order), sets a
-- transaction-local flag; the converted trigger takes (reads and clears) it on entry.
CREATE OR REPLACE FUNCTION oracompat.mark_updating() RETURNS trigger
LANGUAGE plpgsql AS $fn$
BEGIN
    PERFORM set_config(TG_ARGV[0], coalesce(TG_ARGV[1], 'Y'), true);  -- '' clears
    IF TG_LEVEL = 'ROW' AND TG_WHEN = 'BEFORE' THEN
        RETURN NEW;
    END IF;
    RETURN NULL;
END;
$fn$;

CREATE OR REPLACE FUNCTION oracompat.take_flag(p_key text) RETURNS boolean
LANGUAGE plpgsql AS $fn$
DECLARE
    was boolean := coalesce(current_setting(p_key, true), '') = 'Y';
BEGIN
    IF was THEN
        PERFORM set_config(p_key, '', true);
    END IF;
    RETURN was;
END;
$fn$;
