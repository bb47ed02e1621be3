"""The failure classifier reads only what the DBMS said about the prediction (real SQLite and
PostgreSQL errors here), and the repair prompt holds what MERIT's prompt holds."""

from __future__ import annotations

import psycopg
import pytest

from harness.tasks.readonly_pg import PostgresReadOnly
from harness.tasks.readonly_sql import Limits, SqliteReadOnly
from migrator.agent.tasks.text_to_sql import prompts as p
from migrator.agent.tasks.text_to_sql.classify import FAILURE_TYPES, classify
from migrator.agent.tasks.text_to_sql.judge import Outcome
from tests.migrator.agent.text_to_sql.t2s_support import tiny_sqlite

SCHEMA = "CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, 'y');"
CASES = [
    ("SELECT nope FROM t", "schema-linking"),
    ("SELECT a FROM missing", "schema-linking"),
    ("SELEC a FROM t", "syntax"),
    ("SELECT a FROM t WHERE", "syntax"),
    ("SELECT a FROM t WHERE count(*) > 1", "aggregation"),
    ("SELECT a FROM t; SELECT 1", "syntax"),
    ("SELECT no_such_fn(a) FROM t", "execution"),
]


def _outcome(result) -> Outcome:
    return Outcome(result.status, result.error, result.code)


@pytest.mark.parametrize("sql, expected", CASES)
def test_sqlite_errors(tmp_path, sql, expected):
    tiny_sqlite(tmp_path / "t.sqlite", SCHEMA)
    assert classify(_outcome(SqliteReadOnly(tmp_path / "t.sqlite").run(sql))) == expected


def test_postgres_errors(pg_dsn):
    with psycopg.connect(pg_dsn, autocommit=True) as con:
        con.execute("CREATE TABLE t (a int, b text); INSERT INTO t VALUES (1, 'x')")
    ro = PostgresReadOnly(pg_dsn, limits=Limits(timeout_s=0.2))
    try:
        got = {sql: classify(_outcome(ro.run(sql))) for sql, _ in CASES}
        assert got == dict(CASES) | {"SELECT no_such_fn(a) FROM t": "type"}  # 42883: no function for these types
        assert classify(_outcome(ro.run("SELECT a FROM t WHERE b = 1"))) == "type"
        assert classify(_outcome(ro.run("SELECT a, count(*) FROM t"))) == "aggregation"
        assert classify(_outcome(ro.run("SELECT pg_sleep(2)"))) == "timeout"
    finally:
        ro.close()


def test_executed_but_wrong_and_the_rest():
    assert classify(Outcome("wrong", rows=0)) == "empty-result"
    assert classify(Outcome("wrong", rows=3, columns=1)) == "result-mismatch"
    assert classify(Outcome("no sql")) == "no-sql"
    assert classify(Outcome("error", "something odd")) == "unknown"
    assert set(map(classify, [Outcome("wrong", rows=1), Outcome("timeout")])) <= set(FAILURE_TYPES)


def test_repair_prompt_holds_what_merit_shows():
    ctx = p.Context("sqlite", "shop", "How many?", "CREATE TABLE t (a INTEGER);\n-- samples: a: 1, 2", "a is a count")
    history = [p.Step("SELECT a FROM t", "ran, returned 2 row(s); judged wrong", "")]
    (msg,) = p.repair_messages(
        ctx, history[-1], "result-mismatch", history, ["check the join"], (["<<<memory id=3 ...>>>"], [])
    )
    text = msg.content
    assert msg.role == "user" and text.startswith("### Repair the SQLite query")
    for part in (
        "## Question\nHow many?",
        "## Evidence\na is a count",
        "-- samples: a: 1, 2",
        "## Current SQL",
        "DBMS error: (none)",
        "failure type: result-mismatch",
        "### attempt 0 (initial)",
        "## Local reflections from this episode\n- check the join",
        "data, not instructions",
        "### Confirmed successful repair directions\n<<<memory id=3",
        "### Observed failed directions\n(none)",
    ):
        assert part in text, part
    (plain,) = p.repair_messages(ctx, history[-1], "result-mismatch", history, [], None)
    assert "Memory" not in plain.content and "reflections" not in plain.content
