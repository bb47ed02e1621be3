"""Global temporary tables keep Oracle's row visibility on PostgreSQL (issue #29.3).

Oracle Database SQL Language Reference, CREATE TABLE → "GLOBAL TEMPORARY" and "ON COMMIT": the
definition is visible to every session, the rows only to the session that inserted them; ON COMMIT
DELETE ROWS (the default) truncates the table after each commit, PRESERVE ROWS at the end of the
session. TRUNCATE TABLE on a temporary table removes only the session's rows; MERGE into it
matches the session's rows only. An autocommit client
commits after every call, so a DELETE ROWS table is empty at the start of each call.

Rule ``ddl.session_temporary_table`` makes the table a view of the session's (transaction's) rows
over a row table; switched off, the old UNLOGGED table shares rows between sessions and keeps them
across commits (the last test).
"""

from __future__ import annotations

import psycopg

from migrator.batch.output import preamble_sql
from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.source.dependencies import analyze_dependencies
from migrator.source.reader import read_schema_dir

GTT = """
CREATE GLOBAL TEMPORARY TABLE work_items (
    item_id NUMBER(10) PRIMARY KEY,
    label   VARCHAR2(40)
) ON COMMIT DELETE ROWS;
CREATE GLOBAL TEMPORARY TABLE session_notes (
    note VARCHAR2(40)
) ON COMMIT PRESERVE ROWS;
CREATE INDEX work_items_label ON work_items (label);
CREATE UNIQUE INDEX session_notes_note ON session_notes (note);

CREATE OR REPLACE FUNCTION stage (p_id IN NUMBER, p_label IN VARCHAR2) RETURN NUMBER IS
    v NUMBER;
BEGIN
    INSERT INTO work_items (item_id, label) VALUES (p_id, p_label);
    INSERT INTO session_notes (note) VALUES (p_label);
    SELECT COUNT(*) INTO v FROM work_items;
    RETURN v;
END;
/
CREATE OR REPLACE FUNCTION counts RETURN VARCHAR2 IS
    w NUMBER;
    s NUMBER;
BEGIN
    SELECT COUNT(*) INTO w FROM work_items;
    SELECT COUNT(*) INTO s FROM session_notes;
    RETURN w || '/' || s;
END;
/
CREATE OR REPLACE PROCEDURE upsert_item (p_id IN NUMBER, p_label IN VARCHAR2) IS
BEGIN
    MERGE INTO work_items w USING (SELECT p_id AS id, p_label AS label FROM dual) s ON (w.item_id = s.id)
    WHEN MATCHED THEN UPDATE SET w.label = s.label
    WHEN NOT MATCHED THEN INSERT (item_id, label) VALUES (s.id, s.label);
END;
/
CREATE OR REPLACE PROCEDURE clear_notes IS
BEGIN
    EXECUTE IMMEDIATE 'TRUNCATE TABLE session_notes';
END;
/
"""


def _deploy(dsn: str, folder, disabled: frozenset[str] = frozenset()) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "gtt.sql").write_text(GTT, encoding="utf-8")
    source = read_schema_dir(folder)
    ctx = prepare_context(source, disabled_rules=disabled)
    by_id = source.by_id()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(preamble_sql(source.schema, []))
        for unit_id in analyze_dependencies(source).order:
            conversion = convert_unit(by_id[unit_id], ctx)
            assert conversion.error is None and not conversion.unconverted, unit_id
            conn.execute(conversion.output)


def test_rows_are_private_to_the_session_and_the_transaction(pg_dsn, tmp_path):
    _deploy(pg_dsn, tmp_path / "gtt")
    with psycopg.connect(pg_dsn, autocommit=True) as a, psycopg.connect(pg_dsn, autocommit=True) as b:
        schema = a.execute("SELECT current_schemas(false)").fetchone()[0]
        assert a.execute("SELECT stage(1, 'x')").fetchone()[0] == 1
        # the commit after the call emptied work_items; the note is kept for the session
        assert a.execute("SELECT counts()").fetchone()[0] == "0/1"
        assert a.execute("SELECT stage(1, 'y')").fetchone()[0] == 1  # the key is free again
        assert b.execute("SELECT counts()").fetchone()[0] == "0/0", schema  # another session sees nothing
        assert b.execute("SELECT stage(1, 'x')").fetchone()[0] == 1  # its own key space and notes
        with a.transaction():  # within one transaction the rows stay
            a.execute("INSERT INTO work_items (item_id, label) VALUES (7, 'z')")
            a.execute("UPDATE work_items SET label = 'zz' WHERE item_id = 7")
            assert a.execute("SELECT label FROM work_items").fetchall() == [("zz",)]
        assert a.execute("SELECT counts()").fetchone()[0] == "0/2"
        with a.transaction():  # MERGE into it: matches the transaction's rows only
            a.execute("CALL upsert_item(1, 'p')")
            a.execute("CALL upsert_item(1, 'q')")
            a.execute("CALL upsert_item(2, 'r')")
            assert a.execute("SELECT item_id, label FROM work_items ORDER BY 1").fetchall() == [(1, "q"), (2, "r")]
        a.execute("CALL upsert_item(1, 's')")  # a new transaction: inserted, not matched
        assert a.execute("SELECT counts()").fetchone()[0] == "0/2"
        a.execute("CALL clear_notes()")  # TRUNCATE: this session's rows only
        assert a.execute("SELECT counts()").fetchone()[0] == "0/0"
        assert b.execute("SELECT counts()").fetchone()[0] == "0/1"
        with psycopg.connect(pg_dsn, autocommit=True) as c:  # a new session starts empty
            assert c.execute("SELECT counts()").fetchone()[0] == "0/0"


def test_with_the_rule_off_rows_are_shared_and_survive_commits(pg_dsn, tmp_path):
    _deploy(pg_dsn, tmp_path / "gtt", frozenset({"ddl.session_temporary_table"}))
    with psycopg.connect(pg_dsn, autocommit=True) as a, psycopg.connect(pg_dsn, autocommit=True) as b:
        assert a.execute("SELECT stage(1, 'x')").fetchone()[0] == 1
        assert a.execute("SELECT counts()").fetchone()[0] == "1/1"  # Oracle: 0/1
        assert b.execute("SELECT counts()").fetchone()[0] == "1/1"  # Oracle: 0/0
