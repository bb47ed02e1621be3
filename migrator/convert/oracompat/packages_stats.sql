-- oracompat: DBMS_STATS's gathering procedures as PostgreSQL's ANALYZE, which collects the
-- optimizer statistics of a table (and of its indexes' expressions), as GATHER_*_STATS does for
-- Oracle's optimizer. The sampling and parallelism options (estimate_percent, block_sample,
-- method_opt, degree, granularity ...) tune how Oracle gathers; PostgreSQL samples by its own
-- default_statistics_target, so they change nothing here. Names are Oracle names: unquoted, they
-- are read case-insensitively (the converted objects are lower case). A table that does not exist
-- is ORA-20000, as Oracle reports it.
CREATE SCHEMA IF NOT EXISTS oracompat;

CREATE OR REPLACE FUNCTION oracompat.dbms_stats_relation(ownname text, objname text, relkinds text) RETURNS regclass
LANGUAGE plpgsql STABLE AS $fn$
DECLARE
    v regclass;
BEGIN
    SELECT c.oid::regclass INTO v
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relname = CASE WHEN objname ~ '^".*"$' THEN btrim(objname, '"') ELSE lower(objname) END
       AND n.nspname = CASE WHEN ownname IS NULL THEN current_schema()
                            WHEN ownname ~ '^".*"$' THEN btrim(ownname, '"') ELSE lower(ownname) END
       AND position(c.relkind::text IN relkinds) > 0;
    IF v IS NULL THEN
        RAISE EXCEPTION 'ORA-20000: Unable to analyze "%"."%", insufficient privileges or does not exist',
            upper(coalesce(ownname, current_schema())), upper(objname) USING ERRCODE = 'O2000';
    END IF;
    RETURN v;
END;
$fn$;

-- GATHER_TABLE_STATS(ownname, tabname, ...): ANALYZE the table (a partitioned one with its partitions).
CREATE OR REPLACE FUNCTION oracompat.dbms_stats_gather_table_stats(
    ownname text, tabname text, partname text DEFAULT NULL, estimate_percent numeric DEFAULT NULL,
    block_sample boolean DEFAULT false, method_opt text DEFAULT NULL, degree numeric DEFAULT NULL,
    granularity text DEFAULT NULL, cascade boolean DEFAULT NULL, stattab text DEFAULT NULL,
    statid text DEFAULT NULL, statown text DEFAULT NULL, no_invalidate boolean DEFAULT NULL,
    stattype text DEFAULT NULL, force boolean DEFAULT false
) RETURNS void
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    EXECUTE format('ANALYZE %s', oracompat.dbms_stats_relation(ownname, tabname, 'rpm'));
END;
$fn$;

-- GATHER_INDEX_STATS(ownname, indname, ...): ANALYZE the index's table (PostgreSQL gathers an
-- index's statistics, those of its expressions, with its table's).
CREATE OR REPLACE FUNCTION oracompat.dbms_stats_gather_index_stats(
    ownname text, indname text, partname text DEFAULT NULL, estimate_percent numeric DEFAULT NULL,
    stattab text DEFAULT NULL, statid text DEFAULT NULL, statown text DEFAULT NULL, degree numeric DEFAULT NULL,
    granularity text DEFAULT NULL, no_invalidate boolean DEFAULT NULL, force boolean DEFAULT false
) RETURNS void
LANGUAGE plpgsql VOLATILE AS $fn$
BEGIN
    EXECUTE format('ANALYZE %s', (SELECT i.indrelid::regclass FROM pg_index i
                                   WHERE i.indexrelid = oracompat.dbms_stats_relation(ownname, indname, 'iI')));
END;
$fn$;

-- GATHER_SCHEMA_STATS(ownname, ...): ANALYZE every table of the schema.
CREATE OR REPLACE FUNCTION oracompat.dbms_stats_gather_schema_stats(
    ownname text, estimate_percent numeric DEFAULT NULL, block_sample boolean DEFAULT false,
    method_opt text DEFAULT NULL, degree numeric DEFAULT NULL, granularity text DEFAULT NULL,
    cascade boolean DEFAULT NULL, stattab text DEFAULT NULL, statid text DEFAULT NULL,
    options text DEFAULT NULL, statown text DEFAULT NULL, no_invalidate boolean DEFAULT NULL,
    gather_temp boolean DEFAULT false, gather_fixed boolean DEFAULT false, stattype text DEFAULT NULL,
    force boolean DEFAULT false
) RETURNS void
LANGUAGE plpgsql VOLATILE AS $fn$
DECLARE
    v_schema text := CASE WHEN ownname ~ '^".*"$' THEN btrim(ownname, '"') ELSE lower(ownname) END;
    t regclass;
BEGIN
    IF NOT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = v_schema) THEN
        RAISE EXCEPTION 'ORA-20000: Schema "%" does not exist or insufficient privileges', upper(ownname)
            USING ERRCODE = 'O2000';
    END IF;
    FOR t IN SELECT c.oid::regclass FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
              WHERE n.nspname = v_schema AND c.relkind IN ('r', 'p', 'm') ORDER BY c.relname LOOP
        EXECUTE format('ANALYZE %s', t);
    END LOOP;
END;
$fn$;
