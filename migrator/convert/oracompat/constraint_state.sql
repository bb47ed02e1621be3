-- oracompat constraint states: Oracle's ENABLE / DISABLE [VALIDATE | NOVALIDATE] of a constraint
-- (ALTER TABLE ... MODIFY CONSTRAINT / ENABLE CONSTRAINT / DISABLE CONSTRAINT / ... PRIMARY KEY).
--
-- PostgreSQL has no disabled constraint: a constraint exists (and is enforced) or it does not.
-- So DISABLE drops the constraint and keeps its definition here, and ENABLE puts it back:
--   ENABLE [VALIDATE]  -> the constraint is added (existing rows checked: Oracle's ORA-02298 /
--                         ORA-02437 become PostgreSQL's own violation errors), or, when it exists
--                         as NOT VALID, validated;
--   ENABLE NOVALIDATE  -> a foreign key or CHECK is added NOT VALID (new rows checked, existing
--                         rows not: Oracle's meaning exactly); a primary key or unique
--                         constraint is always checked by PostgreSQL's unique index, so it is
--                         added validated and fails where Oracle would have accepted duplicates;
--   DISABLE [NOVALIDATE] -> dropped, definition kept; disabling a key that enabled foreign keys
--                         reference fails as Oracle's ORA-02297 does unless CASCADE, which
--                         disables those foreign keys first (as Oracle does).
-- A constraint declared DISABLE in CREATE TABLE was never created; the converter passes its
-- definition (converted from the source) so that a later ENABLE can create it.
-- The states are per database, like Oracle's dictionary; the definition is read in the caller's
-- search_path and put back in it, so unqualified names resolve as they did.
CREATE SCHEMA IF NOT EXISTS oracompat;

CREATE TABLE IF NOT EXISTS oracompat.disabled_constraint (
  table_oid oid NOT NULL,
  constraint_name name NOT NULL,
  contype "char" NOT NULL,
  definition text NOT NULL,
  PRIMARY KEY (table_oid, constraint_name)
);

CREATE OR REPLACE FUNCTION oracompat.constraint_state(
  tbl regclass, con text, enable boolean, validate boolean,
  cascade boolean DEFAULT false, definition text DEFAULT NULL, kind "char" DEFAULT NULL
) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  c record;
  dep record;
  saved record;
  def text;
  cname name;
BEGIN
  -- by name, or (DISABLE / ENABLE PRIMARY KEY) by kind
  SELECT k.oid, k.conname, k.contype, k.convalidated, k.conindid INTO c
    FROM pg_catalog.pg_constraint k
   WHERE k.conrelid = tbl AND (k.conname = con OR con IS NULL AND k.contype = kind);
  SELECT d.* INTO saved FROM oracompat.disabled_constraint d
   WHERE d.table_oid = tbl AND (d.constraint_name = con OR con IS NULL AND d.contype = kind);
  cname := coalesce(c.conname, saved.constraint_name, con);
  IF NOT enable THEN
    IF c.oid IS NULL THEN
      IF saved.constraint_name IS NOT NULL THEN
        RETURN;  -- already disabled: Oracle accepts it again
      END IF;
      RAISE EXCEPTION 'ORA-02431: cannot disable constraint (%) - no such constraint', coalesce(con, 'PRIMARY KEY')
        USING ERRCODE = '42704';
    END IF;
    IF validate THEN
      -- DISABLE VALIDATE keeps the data valid by refusing every change to the table
      RAISE EXCEPTION 'DISABLE VALIDATE of constraint % is not supported: PostgreSQL cannot make a table read-only',
        cname USING ERRCODE = '0A000';
    END IF;
    IF c.contype IN ('p', 'u') THEN
      FOR dep IN SELECT f.conrelid::regclass AS rel, f.conname FROM pg_catalog.pg_constraint f
                  WHERE f.contype = 'f' AND f.confrelid = tbl AND f.conindid = c.conindid LOOP
        IF NOT cascade THEN
          RAISE EXCEPTION 'ORA-02297: cannot disable constraint (%) - dependencies exist', cname
            USING ERRCODE = '2BP01';
        END IF;
        PERFORM oracompat.constraint_state(dep.rel, dep.conname, false, false);
      END LOOP;
    END IF;
    INSERT INTO oracompat.disabled_constraint
      VALUES (tbl, c.conname, c.contype,
              regexp_replace(pg_catalog.pg_get_constraintdef(c.oid), '\s+NOT VALID$', ''));
    EXECUTE format('ALTER TABLE %s DROP CONSTRAINT %I', tbl, c.conname);
    RETURN;
  END IF;
  IF c.oid IS NOT NULL THEN
    IF validate AND NOT c.convalidated THEN
      EXECUTE format('ALTER TABLE %s VALIDATE CONSTRAINT %I', tbl, c.conname);
    END IF;
    RETURN;  -- enabled already (ENABLE NOVALIDATE of a validated constraint keeps it as it is)
  END IF;
  def := coalesce(saved.definition, definition);
  IF def IS NULL THEN
    RAISE EXCEPTION 'ORA-02430: cannot enable constraint (%) - no such constraint', coalesce(con, 'PRIMARY KEY')
      USING ERRCODE = '42704';
  END IF;
  IF NOT validate AND (def ILIKE 'FOREIGN KEY%' OR def ILIKE 'CHECK%') THEN
    def := def || ' NOT VALID';
  END IF;
  EXECUTE format('ALTER TABLE %s ADD CONSTRAINT %I %s', tbl, cname, def);
  DELETE FROM oracompat.disabled_constraint d WHERE d.table_oid = tbl AND d.constraint_name = cname;
END;
$$;

-- ALTER TRIGGER name ENABLE | DISABLE. Oracle trigger names are unique in their schema, a
-- PostgreSQL trigger's only on its table: the trigger is found by name among the tables and views
-- of `owner` (the current schema when NULL). ORA-04080 when there is none.
CREATE OR REPLACE FUNCTION oracompat.trigger_state(owner text, trg text, enable boolean) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  rel regclass;
BEGIN
  SELECT t.tgrelid::regclass INTO rel
    FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
   WHERE NOT t.tgisinternal AND t.tgname = trg
     AND c.relnamespace = coalesce(owner, current_schema())::regnamespace;
  IF rel IS NULL THEN
    RAISE EXCEPTION 'ORA-04080: trigger ''%'' does not exist', upper(trg) USING ERRCODE = '42704';
  END IF;
  EXECUTE format('ALTER TABLE %s %s TRIGGER %I', rel, CASE WHEN enable THEN 'ENABLE' ELSE 'DISABLE' END, trg);
END;
$$;

-- DROP TRIGGER name: the same lookup.
CREATE OR REPLACE FUNCTION oracompat.drop_trigger(owner text, trg text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  rel regclass;
BEGIN
  SELECT t.tgrelid::regclass INTO rel
    FROM pg_catalog.pg_trigger t JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
   WHERE NOT t.tgisinternal AND t.tgname = trg
     AND c.relnamespace = coalesce(owner, current_schema())::regnamespace;
  IF rel IS NULL THEN
    RAISE EXCEPTION 'ORA-04080: trigger ''%'' does not exist', upper(trg) USING ERRCODE = '42704';
  END IF;
  EXECUTE format('DROP TRIGGER %I ON %s', trg, rel);
END;
$$;
