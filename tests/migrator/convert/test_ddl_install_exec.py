"""Install-script DDL on a real PostgreSQL: constraint states (ENABLE / DISABLE [VALIDATE |
NOVALIDATE], MODIFY CONSTRAINT, PRIMARY KEY ... CASCADE), trigger states (ALTER TRIGGER, ALL
TRIGGERS), identity START WITH LIMIT VALUE, and anonymous blocks that run DDL through EXECUTE
IMMEDIATE (guarded by a dictionary query), whose objects later units use.

Fixture units written from the Oracle SQL Language Reference (ALTER TABLE constraint_state,
ALTER TRIGGER, identity_options) and the PL/SQL Language Reference (EXECUTE IMMEDIATE). Each
schema is converted as `migrate` converts it (reader, dependency order, catalog); the tests run
the converted statements one at a time, with DML between them, and check what Oracle documents:
which rows are accepted and which refused at each state."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from migrator.batch.output import preamble_sql
from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.dependencies import analyze_dependencies
from migrator.source.reader import read_schema_dir


def convert_schema(folder: Path, files: dict[str, str]) -> tuple[str, dict[str, str], list[str]]:
    """(schema, unit id → converted text, ids in deployment order); every unit fully converted."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    source = read_schema_dir(folder)
    graph = analyze_dependencies(source)
    ctx = prepare_context(source)
    by_id = source.by_id()
    out: dict[str, str] = {}
    for unit_id in graph.order:
        conversion = convert_unit(by_id[unit_id], ctx)
        assert conversion.error is None and not conversion.unconverted, (unit_id, conversion.unconverted)
        out[unit_id] = conversion.output
    return source.schema, out, list(graph.order)


STATES = """
CREATE TABLE cs_parent (id NUMBER(6) CONSTRAINT cs_parent_pk PRIMARY KEY, name VARCHAR2(20));
CREATE TABLE cs_child (
  id NUMBER(6),
  parent_id NUMBER(6) CONSTRAINT cs_child_parent_fk REFERENCES cs_parent (id),
  qty NUMBER(4),
  CONSTRAINT cs_child_pk PRIMARY KEY (id) DISABLE NOVALIDATE,
  CONSTRAINT cs_child_qty_ck CHECK (qty > 0)
);
ALTER TABLE cs_child DISABLE CONSTRAINT cs_child_parent_fk;
ALTER TABLE cs_child MODIFY CONSTRAINT cs_child_parent_fk ENABLE NOVALIDATE;
ALTER TABLE cs_child ENABLE VALIDATE CONSTRAINT cs_child_parent_fk;
ALTER TABLE cs_child ENABLE CONSTRAINT cs_child_pk;
ALTER TABLE cs_parent DISABLE PRIMARY KEY;
ALTER TABLE cs_parent DISABLE PRIMARY KEY CASCADE;
ALTER TABLE cs_child MODIFY CONSTRAINT cs_child_qty_ck DISABLE NOVALIDATE;
ALTER TABLE cs_child MODIFY CONSTRAINT cs_child_qty_ck RELY;
"""


def test_constraint_states_on_postgresql(pg_dsn, tmp_path):
    schema, out, order = convert_schema(tmp_path / "cs", {"states.sql": STATES})
    alters = [u for u in order if u.startswith("alter:")]
    assert [u.split("#")[0] for u in alters] == ["alter:cs.cs_child"] * 4 + ["alter:cs.cs_parent"] * 2 + [
        "alter:cs.cs_child"
    ] * 2
    disable_fk, novalidate_fk, validate_fk, enable_pk, parent_pk, parent_pk_cascade, disable_ck, rely = (
        out[u] for u in alters
    )
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(preamble_sql(schema, []))
        conn.execute(out["table:cs.cs_parent"])
        conn.execute(out["table:cs.cs_child"])
        conn.execute("INSERT INTO cs_parent VALUES (1, 'one')")
        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            conn.execute("INSERT INTO cs_child VALUES (1, 99, 1)")
        # DISABLE: not enforced (an orphan row is accepted), as in Oracle
        conn.execute(disable_fk)
        conn.execute(disable_fk)  # disabling a disabled constraint again is accepted
        conn.execute("INSERT INTO cs_child VALUES (1, 99, 1)")
        # ENABLE NOVALIDATE: the orphan stays, a new orphan is refused
        conn.execute(novalidate_fk)
        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            conn.execute("INSERT INTO cs_child VALUES (2, 98, 1)")
        assert conn.execute(
            "SELECT convalidated FROM pg_constraint WHERE conname = 'cs_child_parent_fk'"
        ).fetchone() == (False,)
        # ENABLE VALIDATE with the orphan present fails (Oracle: ORA-02298), and succeeds once fixed
        with pytest.raises(psycopg.errors.ForeignKeyViolation):
            conn.execute(validate_fk)
        conn.execute("UPDATE cs_child SET parent_id = 1 WHERE id = 1")
        conn.execute(validate_fk)
        assert conn.execute(
            "SELECT convalidated FROM pg_constraint WHERE conname = 'cs_child_parent_fk'"
        ).fetchone() == (True,)
        # a primary key declared DISABLE in CREATE TABLE: duplicates accepted until ENABLE creates it
        conn.execute("INSERT INTO cs_child VALUES (1, 1, 2)")
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute(enable_pk)  # Oracle: ORA-02437 (primary key violated)
        conn.execute("DELETE FROM cs_child WHERE qty = 2")
        conn.execute(enable_pk)
        with pytest.raises(psycopg.errors.UniqueViolation):
            conn.execute("INSERT INTO cs_child VALUES (1, 1, 3)")
        # a referenced key cannot be disabled without CASCADE (ORA-02297); with it, the FK goes too
        with pytest.raises(psycopg.errors.DependentObjectsStillExist, match="ORA-02297"):
            conn.execute(parent_pk)
        conn.execute(parent_pk_cascade)
        conn.execute("INSERT INTO cs_parent VALUES (1, 'again')")  # PK disabled
        conn.execute("INSERT INTO cs_child VALUES (5, 77, 1)")  # FK disabled by the cascade
        assert conn.execute("SELECT constraint_name FROM oracompat.disabled_constraint ORDER BY 1").fetchall() == [
            ("cs_child_parent_fk",),
            ("cs_parent_pk",),
        ]
        # MODIFY CONSTRAINT ... DISABLE of a CHECK; RELY alone changes nothing
        conn.execute(disable_ck)
        conn.execute("INSERT INTO cs_child VALUES (6, 1, -1)")
        assert rely.startswith("--")
