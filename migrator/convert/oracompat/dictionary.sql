-- oracompat data dictionary: Oracle's USER_/ALL_/DBA_ views over pg_catalog, with Oracle's column
-- names and Oracle's upper-case values for the converted objects. Deployed once, after the other
-- parts of the library. USER_ views show the objects of the session's current schema (the
-- converted Oracle schema: it is first on the search_path the preamble sets), ALL_ what the session
-- may use (USAGE on the schema), DBA_ every schema but PostgreSQL's own and this library's.
--
-- A converted package is a PostgreSQL schema holding its members: the preamble records each in
-- oracompat.dict_package (package schema -> owning schema), and the views show it as one PACKAGE
-- and one PACKAGE BODY owned by that schema, its members as its procedures and arguments.
-- Names: an identifier stored in lower case was an unquoted Oracle name and is shown upper-case;
-- any other (a quoted mixed-case name) is shown as stored. Data types are Oracle's spelling of the
-- PostgreSQL type the converter chose (timestamp(0) -> DATE, numeric(p,s) -> NUMBER, varchar(n) ->
-- VARCHAR2, text -> CLOB, bytea -> BLOB ...).
CREATE SCHEMA IF NOT EXISTS oracompat;

CREATE TABLE IF NOT EXISTS oracompat.dict_package (pkg_schema name PRIMARY KEY, owner name NOT NULL);

CREATE OR REPLACE FUNCTION oracompat.dict_name(n text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN n = lower(n) THEN upper(n) ELSE n END
$$;

-- Schemas whose objects the dictionary shows (not PostgreSQL's, not this library's, not packages).
CREATE OR REPLACE FUNCTION oracompat.dict_user_schema(nsp name) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT nsp NOT IN ('pg_catalog', 'information_schema', 'oracompat', 'oracompat_fs', 'pg_toast')
     AND nsp::text NOT LIKE 'pg\_%'
     AND NOT EXISTS (SELECT 1 FROM oracompat.dict_package p WHERE p.pkg_schema = nsp)
$$;

-- Oracle's DATA_TYPE for a PostgreSQL type.
CREATE OR REPLACE FUNCTION oracompat.dict_type(typ oid, typmod integer) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT CASE t.typname
    WHEN 'varchar' THEN 'VARCHAR2'
    WHEN 'bpchar' THEN 'CHAR'
    WHEN 'text' THEN 'CLOB'
    WHEN 'numeric' THEN 'NUMBER'
    WHEN 'int2' THEN 'NUMBER'
    WHEN 'int4' THEN 'NUMBER'
    WHEN 'int8' THEN 'NUMBER'
    WHEN 'float4' THEN 'BINARY_FLOAT'
    WHEN 'float8' THEN 'BINARY_DOUBLE'
    WHEN 'bytea' THEN 'BLOB'
    WHEN 'bool' THEN 'BOOLEAN'
    WHEN 'xml' THEN 'XMLTYPE'
    WHEN 'json' THEN 'JSON'
    WHEN 'jsonb' THEN 'JSON'
    WHEN 'refcursor' THEN 'REF CURSOR'
    WHEN 'interval' THEN 'INTERVAL DAY(2) TO SECOND(' || CASE WHEN typmod < 0 THEN 6 ELSE typmod & 65535 END || ')'
    WHEN 'timestamp' THEN CASE WHEN typmod = 0 THEN 'DATE' ELSE 'TIMESTAMP(' || CASE WHEN typmod < 0 THEN 6 ELSE typmod END || ')' END
    WHEN 'timestamptz' THEN 'TIMESTAMP(' || CASE WHEN typmod < 0 THEN 6 ELSE typmod END || ') WITH TIME ZONE'
    WHEN 'date' THEN 'DATE'
    ELSE CASE WHEN t.typtype = 'b' AND t.typnamespace = 'pg_catalog'::regnamespace
              THEN upper(format_type(typ, NULL))
              ELSE oracompat.dict_name(t.typname) END
  END
  FROM pg_type t WHERE t.oid = typ
$$;

-- DATA_LENGTH, DATA_PRECISION, DATA_SCALE, CHAR_LENGTH as Oracle gives them for that type.
CREATE OR REPLACE FUNCTION oracompat.dict_length(typ oid, typmod integer) RETURNS numeric
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN typ IN ('varchar'::regtype, 'bpchar'::regtype) THEN CASE WHEN typmod > 4 THEN typmod - 4 ELSE 4000 END
    WHEN typ IN ('numeric'::regtype, 'int2'::regtype, 'int4'::regtype, 'int8'::regtype) THEN 22
    WHEN typ = 'timestamp'::regtype THEN CASE WHEN typmod = 0 THEN 7 ELSE 11 END
    WHEN typ = 'timestamptz'::regtype THEN 13
    WHEN typ = 'date'::regtype THEN 7
    WHEN typ = 'float4'::regtype THEN 4
    WHEN typ = 'float8'::regtype THEN 8
    WHEN typ IN ('text'::regtype, 'bytea'::regtype, 'xml'::regtype) THEN 4000
    ELSE NULL END
$$;

CREATE OR REPLACE FUNCTION oracompat.dict_precision(typ oid, typmod integer) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN typ = 'numeric'::regtype AND typmod >= 4 THEN ((typmod - 4) >> 16) & 65535
    WHEN typ = 'float4'::regtype THEN NULL
    ELSE NULL END
$$;

CREATE OR REPLACE FUNCTION oracompat.dict_scale(typ oid, typmod integer) RETURNS numeric
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN typ = 'numeric'::regtype AND typmod >= 4 THEN ((typmod - 4) & 65535)::smallint
    WHEN typ IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype) THEN 0
    WHEN typ = 'timestamp'::regtype AND typmod <> 0 THEN CASE WHEN typmod < 0 THEN 6 ELSE typmod END
    WHEN typ = 'timestamptz'::regtype THEN CASE WHEN typmod < 0 THEN 6 ELSE typmod END
    ELSE NULL END
$$;

-- ---- internal views (with the PostgreSQL schema, _nsp, for the USER_/ALL_ filters) ----------------
CREATE OR REPLACE VIEW oracompat.dict_objects AS
  SELECT n.nspname AS _nsp, oracompat.dict_name(c.relname) AS object_name, c.oid AS _oid,
         CASE c.relkind WHEN 'r' THEN 'TABLE' WHEN 'p' THEN 'TABLE' WHEN 'f' THEN 'TABLE'
                        WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                        WHEN 'S' THEN 'SEQUENCE' WHEN 'i' THEN 'INDEX' WHEN 'I' THEN 'INDEX'
                        WHEN 'c' THEN 'TYPE' END AS object_type
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('r', 'p', 'f', 'v', 'm', 'S', 'i', 'I', 'c') AND oracompat.dict_user_schema(n.nspname)
  UNION ALL
  SELECT n.nspname, oracompat.dict_name(t.typname), t.oid, 'TYPE'
    FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
   WHERE t.typtype IN ('d', 'e') AND oracompat.dict_user_schema(n.nspname)
  UNION ALL
  SELECT DISTINCT ON (n.nspname, p.proname) n.nspname, oracompat.dict_name(p.proname), p.oid,
         CASE p.prokind WHEN 'p' THEN 'PROCEDURE' ELSE 'FUNCTION' END
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
   WHERE p.prokind IN ('f', 'p') AND p.prorettype <> 'trigger'::regtype AND oracompat.dict_user_schema(n.nspname)
  UNION ALL
  SELECT n.nspname, oracompat.dict_name(g.tgname), g.oid, 'TRIGGER'
    FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE NOT g.tgisinternal AND oracompat.dict_user_schema(n.nspname)
  UNION ALL
  SELECT k.owner, oracompat.dict_name(k.pkg_schema), n.oid, x.object_type
    FROM oracompat.dict_package k JOIN pg_namespace n ON n.nspname = k.pkg_schema
    CROSS JOIN (VALUES ('PACKAGE'), ('PACKAGE BODY')) AS x (object_type)
   WHERE x.object_type = 'PACKAGE' OR EXISTS (SELECT 1 FROM pg_proc p WHERE p.pronamespace = n.oid);

CREATE OR REPLACE VIEW oracompat.dict_columns AS
  SELECT n.nspname AS _nsp, oracompat.dict_name(c.relname) AS table_name,
         oracompat.dict_name(a.attname) AS column_name,
         oracompat.dict_type(a.atttypid, a.atttypmod) AS data_type,
         CASE WHEN t.typnamespace = 'pg_catalog'::regnamespace THEN NULL
              ELSE oracompat.dict_name(tn.nspname) END AS data_type_owner,
         oracompat.dict_length(a.atttypid, a.atttypmod) AS data_length,
         oracompat.dict_precision(a.atttypid, a.atttypmod) AS data_precision,
         oracompat.dict_scale(a.atttypid, a.atttypmod) AS data_scale,
         CASE WHEN a.attnotnull THEN 'N' ELSE 'Y' END AS nullable,
         a.attnum::numeric AS column_id,
         pg_get_expr(d.adbin, d.adrelid) AS data_default,
         CASE WHEN a.atttypid IN ('varchar'::regtype, 'bpchar'::regtype)
              THEN oracompat.dict_length(a.atttypid, a.atttypmod) ELSE 0 END AS char_length,
         CASE WHEN a.atttypid IN ('varchar'::regtype, 'bpchar'::regtype) THEN 'C' END AS char_used,
         c.relkind AS _relkind
    FROM pg_attribute a
    JOIN pg_class c ON c.oid = a.attrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_type t ON t.oid = a.atttypid
    JOIN pg_namespace tn ON tn.oid = t.typnamespace
    LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
   WHERE a.attnum > 0 AND NOT a.attisdropped AND c.relkind IN ('r', 'p', 'f', 'v', 'm')
     AND oracompat.dict_user_schema(n.nspname);

CREATE OR REPLACE VIEW oracompat.dict_constraints AS
  SELECT n.nspname AS _nsp, oracompat.dict_name(k.conname) AS constraint_name,
         CASE k.contype WHEN 'p' THEN 'P' WHEN 'u' THEN 'U' WHEN 'f' THEN 'R' WHEN 'c' THEN 'C' ELSE upper(k.contype::text) END
           AS constraint_type,
         oracompat.dict_name(c.relname) AS table_name,
         CASE WHEN k.contype = 'c' THEN pg_get_expr(k.conbin, k.conrelid) END AS search_condition,
         CASE WHEN k.contype = 'f' THEN oracompat.dict_name(rn.nspname) END AS r_owner,
         CASE WHEN k.contype = 'f' THEN oracompat.dict_name(
           (SELECT x.conname FROM pg_constraint x WHERE x.conindid = k.conindid AND x.conrelid = k.confrelid
              AND x.contype IN ('p', 'u') ORDER BY x.contype LIMIT 1)) END AS r_constraint_name,
         CASE WHEN k.contype = 'f' THEN CASE k.confdeltype WHEN 'c' THEN 'CASCADE' WHEN 'n' THEN 'SET NULL' ELSE 'NO ACTION' END
         END AS delete_rule,
         CASE WHEN k.convalidated THEN 'ENABLED' ELSE 'DISABLED' END AS status,
         CASE WHEN k.condeferrable THEN 'DEFERRABLE' ELSE 'NOT DEFERRABLE' END AS deferrable,
         CASE WHEN k.condeferred THEN 'DEFERRED' ELSE 'IMMEDIATE' END AS deferred,
         CASE WHEN k.convalidated THEN 'VALIDATED' ELSE 'NOT VALIDATED' END AS validated,
         CASE WHEN k.contype IN ('p', 'u') THEN oracompat.dict_name(ic.relname) END AS index_name,
         k.oid AS _oid
    FROM pg_constraint k
    JOIN pg_class c ON c.oid = k.conrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_class rc ON rc.oid = k.confrelid
    LEFT JOIN pg_namespace rn ON rn.oid = rc.relnamespace
    LEFT JOIN pg_class ic ON ic.oid = k.conindid
   WHERE k.contype IN ('p', 'u', 'f', 'c') AND oracompat.dict_user_schema(n.nspname)
  UNION ALL  -- Oracle shows NOT NULL columns as check constraints
  SELECT n.nspname, oracompat.dict_name('sys_c_' || c.relname || '_' || a.attname), 'C',
         oracompat.dict_name(c.relname), '"' || oracompat.dict_name(a.attname) || '" IS NOT NULL',
         NULL, NULL, NULL, 'ENABLED', 'NOT DEFERRABLE', 'IMMEDIATE', 'VALIDATED', NULL, NULL
    FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE a.attnum > 0 AND NOT a.attisdropped AND a.attnotnull AND c.relkind IN ('r', 'p')
     AND oracompat.dict_user_schema(n.nspname)
     AND NOT EXISTS (SELECT 1 FROM pg_constraint pk WHERE pk.conrelid = c.oid AND pk.contype = 'p'
                     AND a.attnum = ANY (pk.conkey));

CREATE OR REPLACE VIEW oracompat.dict_cons_columns AS
  SELECT n.nspname AS _nsp, oracompat.dict_name(k.conname) AS constraint_name,
         oracompat.dict_name(c.relname) AS table_name, oracompat.dict_name(a.attname) AS column_name,
         u.ord::numeric AS position
    FROM pg_constraint k
    JOIN pg_class c ON c.oid = k.conrelid
    JOIN pg_namespace n ON n.oid = c.relnamespace
    CROSS JOIN LATERAL unnest(k.conkey) WITH ORDINALITY AS u (attnum, ord)
    JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.attnum
   WHERE k.contype IN ('p', 'u', 'f', 'c') AND oracompat.dict_user_schema(n.nspname);

CREATE OR REPLACE VIEW oracompat.dict_indexes AS
  SELECT n.nspname AS _nsp, oracompat.dict_name(ic.relname) AS index_name, 'NORMAL'::text AS index_type,
         oracompat.dict_name(tn.nspname) AS table_owner, oracompat.dict_name(tc.relname) AS table_name,
         'TABLE'::text AS table_type, CASE WHEN i.indisunique THEN 'UNIQUE' ELSE 'NONUNIQUE' END AS uniqueness,
         'VALID'::text AS status, NULL::text AS tablespace_name
    FROM pg_index i
    JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_namespace n ON n.oid = ic.relnamespace
    JOIN pg_class tc ON tc.oid = i.indrelid JOIN pg_namespace tn ON tn.oid = tc.relnamespace
   WHERE oracompat.dict_user_schema(n.nspname);

CREATE OR REPLACE VIEW oracompat.dict_ind_columns AS
  SELECT n.nspname AS _nsp, oracompat.dict_name(ic.relname) AS index_name,
         oracompat.dict_name(tn.nspname) AS table_owner, oracompat.dict_name(tc.relname) AS table_name,
         CASE WHEN u.attnum = 0 THEN pg_get_indexdef(i.indexrelid, u.ord::int, true)
              ELSE oracompat.dict_name(a.attname) END AS column_name,
         u.ord::numeric AS column_position,
         CASE WHEN i.indoption[u.ord - 1] & 1 = 1 THEN 'DESC' ELSE 'ASC' END AS descend
    FROM pg_index i
    JOIN pg_class ic ON ic.oid = i.indexrelid JOIN pg_namespace n ON n.oid = ic.relnamespace
    JOIN pg_class tc ON tc.oid = i.indrelid JOIN pg_namespace tn ON tn.oid = tc.relnamespace
    CROSS JOIN LATERAL unnest(i.indkey::int2[]) WITH ORDINALITY AS u (attnum, ord)
    LEFT JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = u.attnum
   WHERE u.ord <= i.indnkeyatts AND oracompat.dict_user_schema(n.nspname);

CREATE OR REPLACE VIEW oracompat.dict_triggers AS
  SELECT n.nspname AS _nsp, oracompat.dict_name(g.tgname) AS trigger_name,
         CASE WHEN g.tgtype & 2 = 2 THEN 'BEFORE' WHEN g.tgtype & 64 = 64 THEN 'INSTEAD OF' ELSE 'AFTER' END
           || CASE WHEN g.tgtype & 1 = 1 THEN ' EACH ROW' ELSE ' STATEMENT' END AS trigger_type,
         array_to_string(ARRAY[CASE WHEN g.tgtype & 4 = 4 THEN 'INSERT' END, CASE WHEN g.tgtype & 16 = 16 THEN 'UPDATE' END,
                               CASE WHEN g.tgtype & 8 = 8 THEN 'DELETE' END, CASE WHEN g.tgtype & 32 = 32 THEN 'TRUNCATE' END],
                         ' OR ') AS triggering_event,
         oracompat.dict_name(n.nspname) AS table_owner,
         CASE c.relkind WHEN 'v' THEN 'VIEW' ELSE 'TABLE' END AS base_object_type,
         oracompat.dict_name(c.relname) AS table_name,
         CASE WHEN g.tgenabled = 'D' THEN 'DISABLED' ELSE 'ENABLED' END AS status,
         pg_get_triggerdef(g.oid) AS description,
         oracompat.dict_name(f.proname) AS action_type_function,
         f.prosrc AS trigger_body
    FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    JOIN pg_proc f ON f.oid = g.tgfoid
   WHERE NOT g.tgisinternal AND oracompat.dict_user_schema(n.nspname);

CREATE OR REPLACE VIEW oracompat.dict_sequences AS
  SELECT n.nspname AS _nsp, oracompat.dict_name(c.relname) AS sequence_name,
         s.seqmin::numeric AS min_value, s.seqmax::numeric AS max_value, s.seqincrement::numeric AS increment_by,
         CASE WHEN s.seqcycle THEN 'Y' ELSE 'N' END AS cycle_flag, 'N'::text AS order_flag,
         s.seqcache::numeric AS cache_size,
         COALESCE(ps.last_value + s.seqincrement, s.seqstart)::numeric AS last_number
    FROM pg_sequence s JOIN pg_class c ON c.oid = s.seqrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_sequences ps ON ps.schemaname = n.nspname AND ps.sequencename = c.relname
   WHERE oracompat.dict_user_schema(n.nspname);

-- Routines: standalone ones (OBJECT_NAME the routine), package members (OBJECT_NAME the package,
-- PROCEDURE_NAME the member, SUBPROGRAM_ID its rank).
CREATE OR REPLACE VIEW oracompat.dict_routines AS
  SELECT COALESCE(k.owner, n.nspname) AS _nsp, p.oid AS _oid, p.prokind AS _kind,
         CASE WHEN k.pkg_schema IS NULL THEN oracompat.dict_name(p.proname) ELSE oracompat.dict_name(k.pkg_schema) END
           AS object_name,
         CASE WHEN k.pkg_schema IS NOT NULL THEN oracompat.dict_name(p.proname) END AS procedure_name,
         CASE WHEN k.pkg_schema IS NOT NULL THEN oracompat.dict_name(k.pkg_schema) END AS package_name,
         CASE WHEN k.pkg_schema IS NULL THEN CASE p.prokind WHEN 'p' THEN 'PROCEDURE' ELSE 'FUNCTION' END
              ELSE 'PACKAGE' END AS object_type,
         CASE WHEN count(*) OVER (PARTITION BY n.oid, p.proname) > 1
              THEN (row_number() OVER (PARTITION BY n.oid, p.proname ORDER BY p.oid))::text END AS overload,
         (dense_rank() OVER (PARTITION BY n.oid ORDER BY p.proname))::numeric AS subprogram_id,
         CASE WHEN p.proretset THEN 'YES' ELSE 'NO' END AS pipelined,
         CASE WHEN p.provolatile = 'i' THEN 'YES' ELSE 'NO' END AS deterministic,
         CASE WHEN p.prosecdef THEN 'DEFINER' ELSE 'CURRENT_USER' END AS authid
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    LEFT JOIN oracompat.dict_package k ON k.pkg_schema = n.nspname
   WHERE p.prokind IN ('f', 'p') AND p.prorettype <> 'trigger'::regtype
     AND (k.pkg_schema IS NOT NULL OR oracompat.dict_user_schema(n.nspname));

CREATE OR REPLACE VIEW oracompat.dict_arguments AS
  SELECT r._nsp, r.object_name AS _object, r.procedure_name AS _member,
         COALESCE(r.procedure_name, r.object_name) AS object_name, r.package_name, r._oid::bigint::numeric AS object_id,
         r.overload, r.subprogram_id,
         CASE WHEN x.pos = 0 THEN NULL ELSE oracompat.dict_name(x.argname) END AS argument_name,
         x.pos::numeric AS position, (x.pos + CASE WHEN x.has_ret THEN 1 ELSE 0 END)::numeric AS sequence,
         0::numeric AS data_level,
         oracompat.dict_type(x.typ, -1) AS data_type,
         CASE WHEN x.pos = 0 THEN 'OUT' ELSE x.mode END AS in_out,
         CASE WHEN x.has_default THEN 'Y' ELSE 'N' END AS defaulted,
         CASE WHEN tt.typnamespace = 'pg_catalog'::regnamespace THEN NULL ELSE oracompat.dict_name(tn.nspname) END
           AS type_owner,
         CASE WHEN tt.typnamespace = 'pg_catalog'::regnamespace THEN NULL ELSE oracompat.dict_name(tt.typname) END
           AS type_name
    FROM oracompat.dict_routines r
    JOIN pg_proc p ON p.oid = r._oid
    CROSS JOIN LATERAL (
      -- the return value (position 0) of a function with no OUT parameters
      SELECT 0 AS pos, NULL::text AS argname, p.prorettype AS typ, 'OUT'::text AS mode, false AS has_default,
             true AS has_ret
       WHERE p.prokind = 'f' AND p.proargmodes IS NULL AND p.prorettype <> 'void'::regtype
      UNION ALL
      SELECT a.ord::int, COALESCE(p.proargnames[a.ord], ''),
             a.typ,
             CASE COALESCE(p.proargmodes[a.ord], 'i') WHEN 'i' THEN 'IN' WHEN 'o' THEN 'OUT' WHEN 'b' THEN 'IN/OUT' ELSE 'IN' END,
             a.ord > COALESCE(array_length(p.proargtypes::oid[], 1), 0) - p.pronargdefaults
               AND COALESCE(p.proargmodes[a.ord], 'i') IN ('i', 'b'),
             p.prokind = 'f' AND p.proargmodes IS NULL AND p.prorettype <> 'void'::regtype
        FROM unnest(COALESCE(p.proallargtypes, p.proargtypes::oid[])) WITH ORDINALITY AS a (typ, ord)
    ) x
    JOIN pg_type tt ON tt.oid = x.typ JOIN pg_namespace tn ON tn.oid = tt.typnamespace;

CREATE OR REPLACE VIEW oracompat.dict_source AS
  SELECT o._nsp, o.name, o.type, l.n::numeric AS line, l.text || E'\n' AS text
    FROM (SELECT r._nsp, r.object_name AS name,
                 CASE WHEN r.package_name IS NULL THEN r.object_type ELSE 'PACKAGE BODY' END AS type,
                 string_agg(pg_get_functiondef(r._oid), E'\n' ORDER BY r.subprogram_id, r._oid) AS src
            FROM oracompat.dict_routines r GROUP BY 1, 2, 3
          UNION ALL
          SELECT n.nspname, oracompat.dict_name(g.tgname), 'TRIGGER', pg_get_triggerdef(g.oid) || E'\n' || f.prosrc
            FROM pg_trigger g JOIN pg_class c ON c.oid = g.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_proc f ON f.oid = g.tgfoid
           WHERE NOT g.tgisinternal AND oracompat.dict_user_schema(n.nspname)) o
    CROSS JOIN LATERAL regexp_split_to_table(rtrim(o.src, E'\n'), E'\n') WITH ORDINALITY AS l (text, n);

CREATE OR REPLACE VIEW oracompat.dict_comments AS
  SELECT n.nspname AS _nsp, oracompat.dict_name(c.relname) AS table_name,
         CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END AS table_type,
         a.attnum AS _attnum, oracompat.dict_name(a.attname) AS column_name, d.description AS comments
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
    LEFT JOIN pg_description d ON d.objoid = c.oid AND d.classoid = 'pg_class'::regclass
                              AND d.objsubid = COALESCE(a.attnum, 0)
   WHERE c.relkind IN ('r', 'p', 'f', 'v', 'm') AND oracompat.dict_user_schema(n.nspname)
  UNION ALL
  SELECT n.nspname, oracompat.dict_name(c.relname),
         CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' ELSE 'TABLE' END,
         NULL, NULL, d.description
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    LEFT JOIN pg_description d ON d.objoid = c.oid AND d.classoid = 'pg_class'::regclass AND d.objsubid = 0
   WHERE c.relkind IN ('r', 'p', 'f', 'v', 'm') AND oracompat.dict_user_schema(n.nspname);

CREATE OR REPLACE VIEW oracompat.dict_dependencies AS
  SELECT DISTINCT n.nspname AS _nsp, oracompat.dict_name(vc.relname) AS name, 'VIEW'::text AS type,
         oracompat.dict_name(rn.nspname) AS referenced_owner, oracompat.dict_name(rc.relname) AS referenced_name,
         CASE rc.relkind WHEN 'v' THEN 'VIEW' WHEN 'S' THEN 'SEQUENCE' ELSE 'TABLE' END AS referenced_type,
         NULL::text AS referenced_link_name, 'HARD'::text AS dependency_type
    FROM pg_depend d
    JOIN pg_rewrite w ON w.oid = d.objid AND d.classid = 'pg_rewrite'::regclass
    JOIN pg_class vc ON vc.oid = w.ev_class JOIN pg_namespace n ON n.oid = vc.relnamespace
    JOIN pg_class rc ON rc.oid = d.refobjid AND d.refclassid = 'pg_class'::regclass
    JOIN pg_namespace rn ON rn.oid = rc.relnamespace
   WHERE rc.oid <> vc.oid AND oracompat.dict_user_schema(n.nspname);

-- ---- the Oracle views ----------------------------------------------------------------------------
DO $dict$
DECLARE
  -- name, internal view, Oracle's columns (the view's columns but _nsp/_…)
  v record;
  cols text;
BEGIN
  FOR v IN SELECT * FROM (VALUES
      ('tables', $q$SELECT c._nsp, oracompat.dict_name(c.relname) AS table_name, NULL::text AS tablespace_name,
                    NULL::text AS cluster_name, NULL::text AS iot_name, 'VALID'::text AS status,
                    c.reltuples::numeric AS num_rows,
                    CASE WHEN c.relpersistence = 't' THEN 'Y' ELSE 'N' END AS temporary,
                    CASE WHEN c.relkind = 'p' THEN 'YES' ELSE 'NO' END AS partitioned,
                    'NO'::text AS nested, NULL::text AS iot_type,
                    CASE WHEN c.relpersistence = 'u' THEN 'NO' ELSE 'YES' END AS logging,
                    'N'::text AS secondary, 'NO'::text AS read_only, 'NO'::text AS dropped
                    FROM (SELECT n.nspname AS _nsp, c.* FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                           WHERE c.relkind IN ('r', 'p') AND NOT c.relispartition
                             AND oracompat.dict_user_schema(n.nspname)) c$q$, 'table_name'),
      ('tab_columns', $q$SELECT _nsp, table_name, column_name, data_type, NULL::text AS data_type_mod, data_type_owner,
                         data_length, data_precision, data_scale, nullable, column_id, data_default,
                         char_length AS char_col_decl_length, char_length, char_used, 'NO'::text AS hidden_column
                         FROM oracompat.dict_columns$q$, 'table_name'),
      ('objects', $q$SELECT _nsp, object_name, NULL::text AS subobject_name, _oid::bigint::numeric AS object_id,
                     CASE WHEN object_type IN ('TABLE', 'INDEX', 'MATERIALIZED VIEW') THEN _oid::bigint::numeric END AS data_object_id,
                     object_type, NULL::timestamp(0) AS created, NULL::timestamp(0) AS last_ddl_time,
                     NULL::text AS timestamp, 'VALID'::text AS status, 'N'::text AS temporary, 'N'::text AS generated,
                     'N'::text AS secondary, NULL::text AS edition_name FROM oracompat.dict_objects$q$, 'object_name'),
      ('constraints', $q$SELECT _nsp, constraint_name, constraint_type, table_name, search_condition, r_owner,
                         r_constraint_name, delete_rule, status, "deferrable", deferred, validated,
                         'USER NAME'::text AS generated, NULL::timestamp(0) AS last_change,
                         CASE WHEN index_name IS NOT NULL THEN oracompat.dict_name(_nsp) END AS index_owner,
                         index_name FROM oracompat.dict_constraints$q$, 'constraint_name'),
      ('cons_columns', $q$SELECT _nsp, constraint_name, table_name, column_name, position FROM oracompat.dict_cons_columns$q$,
                          'constraint_name'),
      ('indexes', $q$SELECT * FROM oracompat.dict_indexes$q$, 'index_name'),
      ('ind_columns', $q$SELECT _nsp, index_name, table_owner, table_name, column_name, column_position,
                         NULL::numeric AS column_length, NULL::numeric AS char_length, descend
                         FROM oracompat.dict_ind_columns$q$, 'index_name'),
      ('triggers', $q$SELECT * FROM oracompat.dict_triggers$q$, 'trigger_name'),
      ('sequences', $q$SELECT * FROM oracompat.dict_sequences$q$, 'sequence_name'),
      ('source', $q$SELECT _nsp, name, type, line, text FROM oracompat.dict_source$q$, 'name'),
      ('procedures', $q$SELECT _nsp, object_name, procedure_name, _oid::bigint::numeric AS object_id, subprogram_id, overload,
                        object_type, NULL::text AS aggregate, pipelined, NULL::text AS impltypeowner,
                        NULL::text AS impltypename, 'NO'::text AS parallel, 'NO'::text AS interface,
                        deterministic, authid FROM oracompat.dict_routines
                 UNION ALL  -- the package itself (PROCEDURE_NAME NULL, SUBPROGRAM_ID 0)
                 SELECT k.owner, oracompat.dict_name(k.pkg_schema), NULL, n.oid::bigint::numeric, 0, NULL, 'PACKAGE', NULL,
                        'NO', NULL, NULL, 'NO', 'NO', 'NO', 'DEFINER'
                   FROM oracompat.dict_package k JOIN pg_namespace n ON n.nspname = k.pkg_schema$q$, 'object_name'),
      ('arguments', $q$SELECT _nsp, object_name, package_name, object_id, overload, subprogram_id, argument_name,
                       position, sequence, data_level, data_type, defaulted, NULL::numeric AS data_length,
                       NULL::numeric AS data_precision, NULL::numeric AS data_scale, in_out, type_owner, type_name,
                       NULL::text AS type_subname, NULL::text AS pls_type
                       FROM oracompat.dict_arguments$q$, 'object_name'),
      ('tab_comments', $q$SELECT _nsp, table_name, table_type, comments FROM oracompat.dict_comments WHERE column_name IS NULL
                          AND _attnum IS NULL$q$, 'table_name'),
      ('col_comments', $q$SELECT _nsp, table_name, column_name, comments FROM oracompat.dict_comments
                          WHERE column_name IS NOT NULL$q$, 'table_name'),
      ('views', $q$SELECT n.nspname AS _nsp, oracompat.dict_name(c.relname) AS view_name,
                   length(pg_get_viewdef(c.oid))::numeric AS text_length, pg_get_viewdef(c.oid) AS text,
                   NULL::text AS type_text, NULL::text AS oid_text, NULL::text AS view_type_owner,
                   NULL::text AS view_type, NULL::text AS superview_name, 'N'::text AS read_only
                   FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                  WHERE c.relkind IN ('v', 'm') AND oracompat.dict_user_schema(n.nspname)$q$, 'view_name'),
      ('types', $q$SELECT _nsp, object_name AS type_name, _oid::text AS type_oid,
                   CASE WHEN t.typtype = 'd' AND t.typcategory = 'A' THEN 'COLLECTION'
                        WHEN t.typtype = 'd' THEN 'COLLECTION' ELSE 'OBJECT' END AS typecode,
                   (SELECT count(*) FROM pg_attribute a WHERE a.attrelid = t.typrelid AND a.attnum > 0
                      AND NOT a.attisdropped)::numeric AS attributes,
                   0::numeric AS methods, 'NO'::text AS predefined, 'NO'::text AS incomplete, 'YES'::text AS final,
                   'YES'::text AS instantiable, NULL::text AS supertype_owner, NULL::text AS supertype_name,
                   0::numeric AS local_attributes, 0::numeric AS local_methods
                   FROM oracompat.dict_objects o JOIN pg_type t ON t.oid = o._oid OR (o._oid = t.typrelid AND t.typtype = 'c')
                  WHERE o.object_type = 'TYPE'$q$, 'type_name'),
      ('dependencies', $q$SELECT * FROM oracompat.dict_dependencies$q$, 'name'),
      ('synonyms', $q$SELECT NULL::name AS _nsp, NULL::text AS synonym_name, NULL::text AS table_owner,
                      NULL::text AS table_name, NULL::text AS db_link WHERE false$q$, 'synonym_name')
    ) AS x (name, body, first)
  LOOP
    EXECUTE format('CREATE OR REPLACE VIEW oracompat.%I AS %s', 'dict_' || v.name || '_all', v.body);
    SELECT string_agg(quote_ident(a.attname), ', ' ORDER BY a.attnum) INTO cols
      FROM pg_attribute a
     WHERE a.attrelid = format('oracompat.%I', 'dict_' || v.name || '_all')::regclass AND a.attnum > 0
       AND a.attname::text NOT LIKE '\_%';
    -- USER_: the current schema's objects, without OWNER (except where Oracle keeps one)
    EXECUTE format('CREATE OR REPLACE VIEW oracompat.%I AS SELECT %s FROM oracompat.%I WHERE _nsp = current_schema()',
                   'user_' || v.name, cols, 'dict_' || v.name || '_all');
    EXECUTE format('CREATE OR REPLACE VIEW oracompat.%I AS SELECT oracompat.dict_name(_nsp) AS owner, %s FROM oracompat.%I'
                   ' WHERE has_schema_privilege(_nsp, ''USAGE'')', 'all_' || v.name, cols, 'dict_' || v.name || '_all');
    EXECUTE format('CREATE OR REPLACE VIEW oracompat.%I AS SELECT oracompat.dict_name(_nsp) AS owner, %s FROM oracompat.%I',
                   'dba_' || v.name, cols, 'dict_' || v.name || '_all');
  END LOOP;
END $dict$;
