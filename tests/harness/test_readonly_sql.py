"""Read-only execution of untrusted SQL: no write reaches the file, ATTACH is refused, a runaway
query times out, a huge result hits the row cap; PostgreSQL likewise, on the real server."""

from __future__ import annotations

import sqlite3

import psycopg
import pytest

from harness.tasks.readonly_pg import PostgresReadOnly
from harness.tasks.readonly_sql import Limits, SqliteReadOnly


@pytest.fixture
def db(tmp_path):
    path = tmp_path / "t.sqlite"
    con = sqlite3.connect(path)
    con.executescript("CREATE TABLE t (a INTEGER, b TEXT); INSERT INTO t VALUES (1, 'x'), (2, NULL), (2, 'y');")
    con.commit()
    con.close()
    return path


def test_select_rows(db):
    ro = SqliteReadOnly(db)
    res = ro.run("SELECT a, b FROM t ORDER BY a, b;")
    assert res.ok and res.rows == ((1, "x"), (2, None), (2, "y")) and res.columns == 2
    assert ro.schema_rows()[0][0] == "t"


@pytest.mark.parametrize(
    "sql",
    [
        "INSERT INTO t VALUES (9, 'z')",
        "UPDATE t SET a = 0",
        "DELETE FROM t",
        "DROP TABLE t",
        "CREATE TABLE u (x)",
        "PRAGMA query_only = OFF",
        "ATTACH DATABASE ':memory:' AS other",
        "SELECT 1; DELETE FROM t",
    ],
)
def test_writes_and_escapes_are_refused(db, sql):
    ro = SqliteReadOnly(db)
    res = ro.run(sql)
    assert res.status == "error" and res.error
    assert ro.run("SELECT count(*) FROM t").rows == ((3,),)


def test_timeout_and_row_cap(db):
    ro = SqliteReadOnly(db, Limits(timeout_s=0.2, row_cap=10))
    slow = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c) SELECT count(*) FROM c"
    assert ro.run(slow).status == "timeout"
    many = "WITH RECURSIVE c(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM c WHERE n < 50) SELECT n FROM c"
    assert ro.run(many).status == "row cap"
    assert ro.run("SELECT 1").ok  # the connection is usable again


def test_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError):
        SqliteReadOnly(tmp_path / "nope.sqlite")


def test_postgres_read_only(pg_dsn):
    with psycopg.connect(pg_dsn, autocommit=True) as con:
        con.execute(
            "CREATE SCHEMA shop; CREATE TABLE shop.t (a int, b text); INSERT INTO shop.t VALUES (1, 'x'), (2, NULL)"
        )
    ro = PostgresReadOnly(pg_dsn, schema="shop", limits=Limits(timeout_s=0.3, row_cap=5))
    try:
        assert ro.run("SELECT a, b FROM t ORDER BY a;").rows == ((1, "x"), (2, None))
        assert ro.run("DELETE FROM t").code == "25006"  # read_only_sql_transaction
        assert ro.run("SELECT 1; DELETE FROM t").status == "error"
        # a second statement would end the read-only transaction and write in a new one: refused whole
        escape = ro.run("SELECT 1; COMMIT; CREATE TABLE shop.zz (a int)")
        assert escape.code == "42601" and "multiple commands" in escape.error
        assert ro.run("SELECT count(*) FROM pg_tables WHERE tablename = 'zz'").rows == ((0,),)
        assert ro.run("SELECT 'a%b' LIKE '%b'").rows == ((True,),)  # no placeholder parsing of %
        assert ro.run("SELECT pg_sleep(5)").status == "timeout"
        assert ro.run("SELECT generate_series(1, 100)").status == "row cap"
        assert ro.run("SELECT nope FROM t").code == "42703"
        assert ro.run("SELECT count(*) FROM t").rows == ((2,),)
        assert [name for name, _ in ro.schema_rows()] == ["t"]
    finally:
        ro.close()
