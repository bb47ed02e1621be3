-- oracompat: the few Oracle built-ins whose semantics inline PostgreSQL SQL cannot express
-- readably. Deployed once, before all converted units. Each function states the Oracle rule it
-- implements; tests/migrator/test_sql_support.py checks them against documented Oracle results.
CREATE SCHEMA IF NOT EXISTS oracompat;

-- SUBSTR(s, pos[, len]): pos 0 counts as 1; a negative pos counts from the end of s (and gives
-- NULL when it reaches before the start); len < 1 gives NULL; fractional arguments are truncated;
-- an empty result is NULL (Oracle has no empty string).
CREATE OR REPLACE FUNCTION oracompat.substr(s text, pos numeric, len numeric) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN s IS NULL OR pos IS NULL OR len IS NULL OR trunc(len) < 1 THEN NULL
    WHEN trunc(pos) < 0 AND -trunc(pos) > length(s) THEN NULL
    ELSE NULLIF(pg_catalog.substr(s,
           CASE WHEN trunc(pos) = 0 THEN 1
                WHEN trunc(pos) < 0 THEN length(s) + trunc(pos)::int + 1
                ELSE trunc(pos)::int END,
           LEAST(trunc(len), 2147483647)::int), '')
  END
$$;

CREATE OR REPLACE FUNCTION oracompat.substr(s text, pos numeric) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT oracompat.substr(s, pos, 2147483647)
$$;

-- INSTR(s, sub[, pos[, occurrence]]): 1-based position of the occurrence-th match of sub, 0 when
-- there is none. pos > 0 searches forward from pos; pos < 0 searches backward, the match starting
-- at or before length(s) + pos + 1; pos = 0 gives 0. Overlapping matches count
-- (INSTR('aaa','aa',1,2) = 2). occurrence < 1 is an error in Oracle (ORA-01428), here too.
CREATE OR REPLACE FUNCTION oracompat.instr(s text, sub text, pos numeric DEFAULT 1, occurrence numeric DEFAULT 1)
RETURNS integer LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
DECLARE
  p integer := trunc(pos);
  n integer := trunc(occurrence);
  found integer := 0;
  i integer;
BEGIN
  IF s IS NULL OR sub IS NULL OR sub = '' OR pos IS NULL OR occurrence IS NULL THEN
    RETURN NULL;
  END IF;
  IF n < 1 THEN
    RAISE EXCEPTION 'argument ''%'' is out of range', occurrence USING ERRCODE = '22003';
  END IF;
  IF p = 0 THEN
    RETURN 0;
  END IF;
  IF p > 0 THEN
    FOR i IN p .. length(s) - length(sub) + 1 LOOP
      IF pg_catalog.substr(s, i, length(sub)) = sub THEN
        found := found + 1;
        IF found = n THEN RETURN i; END IF;
      END IF;
    END LOOP;
  ELSE
    FOR i IN REVERSE LEAST(length(s) + p + 1, length(s) - length(sub) + 1) .. 1 LOOP
      IF pg_catalog.substr(s, i, length(sub)) = sub THEN
        found := found + 1;
        IF found = n THEN RETURN i; END IF;
      END IF;
    END LOOP;
  END IF;
  RETURN 0;
END
$$;

-- LAST_DAY(d): the last day of d's month, time of day kept.
-- SYSDATE: the session's wall clock at whole seconds (LOCALTIMESTAMP(0)), unless the setting
-- oracompat.fixed_date holds a timestamp — PostgreSQL's counterpart of Oracle's FIXED_DATE
-- parameter, which makes SYSDATE return a constant (used by scenarios to pin date logic).
CREATE OR REPLACE FUNCTION oracompat.sysdate() RETURNS timestamp(0)
LANGUAGE sql STABLE AS $$
    SELECT coalesce(nullif(current_setting('oracompat.fixed_date', true), '')::timestamp(0), LOCALTIMESTAMP(0))
$$;

-- USER: the Oracle user of the session, upper case as Oracle stores an unquoted name. A migrated
-- database runs as its own roles (a judge's sandbox as a per-run role), so a session that stands
-- for an Oracle user names it in oracompat.session_user (scenarios do: `session_user`).
CREATE OR REPLACE FUNCTION oracompat.ora_user() RETURNS text
LANGUAGE sql STABLE AS $$
    SELECT coalesce(nullif(current_setting('oracompat.session_user', true), ''), upper(session_user))
$$;

CREATE OR REPLACE FUNCTION oracompat.last_day(d timestamp) RETURNS timestamp
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT date_trunc('month', d) + interval '1 month' - interval '1 day' + (d - date_trunc('day', d))
$$;

-- ADD_MONTHS(d, n): d plus trunc(n) months, time of day kept. When d is the last day of its month,
-- or the target month is shorter than d's day, the result is the last day of the target month
-- (ADD_MONTHS(DATE '2024-01-31', 1) = 2024-02-29; ADD_MONTHS(DATE '2024-02-29', 1) = 2024-03-31).
CREATE OR REPLACE FUNCTION oracompat.add_months(d timestamp, n numeric) RETURNS timestamp
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN d = oracompat.last_day(d)
      THEN oracompat.last_day(d + trunc(n)::int * interval '1 month')
    ELSE d + trunc(n)::int * interval '1 month'  -- PostgreSQL clamps day 31 to the month's end
  END
$$;

-- MONTHS_BETWEEN(d1, d2): whole months when both dates have the same day of month or both are
-- the last day of their months; otherwise months plus (day and time difference) / 31 days.
CREATE OR REPLACE FUNCTION oracompat.months_between(d1 timestamp, d2 timestamp) RETURNS numeric
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN extract(day FROM d1) = extract(day FROM d2)
      OR (d1::date = oracompat.last_day(d1)::date AND d2::date = oracompat.last_day(d2)::date)
    THEN (extract(year FROM d1) - extract(year FROM d2)) * 12 + extract(month FROM d1) - extract(month FROM d2)
    ELSE (extract(year FROM d1) - extract(year FROM d2)) * 12 + extract(month FROM d1) - extract(month FROM d2)
       + (extract(day FROM d1) - extract(day FROM d2)) / 31
       + (extract(epoch FROM d1::time) - extract(epoch FROM d2::time)) / (86400 * 31)
  END
$$;

-- TO_TEXT(x): Oracle's implicit conversion to VARCHAR2 (in ||, CONCAT, DBMS_OUTPUT), NLS assumed
-- AMERICAN. One overload per source type, chosen by PostgreSQL at run time: the converter uses it
-- for operands whose type it does not know. Text (and unknown literals) come back unchanged.
-- Numbers print in their minimal form, like TO_CHAR(n, 'TM'): no trailing fractional zeros, no
-- leading zero before the decimal point (9.50 → '9.5', 0.5 → '.5', -0.5 → '-.5', 1e-5 →
-- '.00001'); Oracle's switch to scientific notation beyond 40 characters is not reproduced.
-- integer/bigint/double precision have their own overloads so that no argument type has two
-- equally good candidates (smallint and real go to double precision, exactly).
-- Dates print with the default NLS_DATE_FORMAT 'DD-MON-RR' (upper-case English month).
CREATE OR REPLACE FUNCTION oracompat.to_text(n numeric) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$
  SELECT regexp_replace(trim_scale(n)::text, '^(-?)0\.', '\1.')
$$;

CREATE OR REPLACE FUNCTION oracompat.to_text(n integer) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT n::text $$;

CREATE OR REPLACE FUNCTION oracompat.to_text(n bigint) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT n::text $$;

CREATE OR REPLACE FUNCTION oracompat.to_text(n double precision) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT oracompat.to_text(n::numeric) $$;

CREATE OR REPLACE FUNCTION oracompat.to_text(s text) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT s $$;

-- CHAR(n) keeps its blank padding in Oracle's concatenation; PostgreSQL's char → text cast strips
-- it, concat() (the type's output function) does not.
CREATE OR REPLACE FUNCTION oracompat.to_text(c character) RETURNS text
LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE AS $$ SELECT concat(c) $$;

CREATE OR REPLACE FUNCTION oracompat.to_text(d timestamp) RETURNS text
LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$ SELECT to_char(d, 'DD-MON-YY') $$;

CREATE OR REPLACE FUNCTION oracompat.to_text(d timestamptz) RETURNS text
LANGUAGE sql STABLE STRICT PARALLEL SAFE AS $$ SELECT to_char(d, 'DD-MON-YY') $$;
