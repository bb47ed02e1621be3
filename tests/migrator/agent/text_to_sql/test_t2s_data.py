"""Loading Spider- and BIRD-format directories: good entries load, bad ones are reported one by one."""

from __future__ import annotations

import pytest

from migrator.agent.tasks.text_to_sql.data import DataError, load_dataset
from tests.migrator.agent.text_to_sql.t2s_support import fixture_copy, tiny_sqlite, write_json


def test_shipped_fixture_loads(tmp_path):
    data = fixture_copy(tmp_path)
    ds = load_dataset(data)
    assert ds.flavor == "spider" and len(ds.entries) >= 60 and not ds.bad
    assert {e.db_id for e in ds.entries} == {"company", "library", "weather"}
    assert {e.difficulty for e in ds.entries} <= {"easy", "medium", "hard", "extra"}


def test_bad_entries_are_reported_and_the_rest_load(tmp_path):
    tiny_sqlite(tmp_path / "database" / "shop" / "shop.sqlite", "CREATE TABLE t (a INTEGER);")
    (tmp_path / "database" / "gone").mkdir(parents=True)
    (tmp_path / "database" / "gone" / "gone.sql").write_text("CREATE TABLE x (a INTEGER);")
    rows = [
        {"db_id": "shop", "question": "ok?", "query": "SELECT a FROM t"},
        {"db_id": "nowhere", "question": "missing db", "query": "SELECT 1"},
        {"db_id": "shop", "question": "bad gold", "query": "SELEC a FROM t"},
        {"db_id": "shop", "question": "unknown column", "query": "SELECT b FROM t"},
        {"db_id": "shop", "query": "SELECT 1"},
        {"db_id": "shop", "question": "no gold"},
        "not an object",
        {"db_id": "gone", "question": "unbuilt", "query": "SELECT a FROM x"},
    ]
    write_json(tmp_path / "dev.json", rows)
    ds = load_dataset(tmp_path)
    assert [e.index for e in ds.entries] == [0]
    reasons = {b.index: b.reason for b in ds.bad}
    assert "no database file" in reasons[1]
    assert "does not parse" in reasons[2] and "syntax error" in reasons[2]
    assert "no such column" in reasons[3]
    assert "question" in reasons[4] and "no gold SQL" in reasons[5] and "not a question entry" in reasons[6]
    assert "migrator text2sql build" in reasons[7]
    assert ds.size == len(rows)


@pytest.mark.parametrize("content, message", [(None, "no split file"), ("{", "not readable JSON"), ("{}", "JSON list")])
def test_unreadable_split(tmp_path, content, message):
    if content is not None:
        (tmp_path / "dev.json").write_text(content)
    with pytest.raises(DataError, match=message):
        load_dataset(tmp_path)


def test_bird_format(tmp_path):
    tiny_sqlite(
        tmp_path / "dev_databases" / "shop" / "shop.sqlite", "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1);"
    )
    write_json(
        tmp_path / "dev.json",
        [
            {
                "question_id": 0,
                "db_id": "shop",
                "question": "q",
                "evidence": "a is an id",
                "SQL": "SELECT a FROM t",
                "difficulty": "simple",
            }
        ],
    )
    ds = load_dataset(tmp_path)
    assert ds.flavor == "bird"
    (entry,) = ds.entries
    assert entry.evidence == "a is an id" and entry.difficulty == "simple" and entry.gold == "SELECT a FROM t"


def test_postgres_target(tmp_path, pg_dsn):
    import psycopg

    with psycopg.connect(pg_dsn, autocommit=True) as con:
        con.execute("CREATE SCHEMA shop; CREATE TABLE shop.t (a int); INSERT INTO shop.t VALUES (1), (2)")
    write_json(
        tmp_path / "dev.json",
        [
            {"db_id": "shop", "question": "q", "query": "SELECT a FROM t"},
            {"db_id": "shop", "question": "q2", "query": "SELECT nope FROM t"},
        ],
    )
    ds = load_dataset(tmp_path, pg_dsn=pg_dsn)
    try:
        assert [e.index for e in ds.entries] == [0] and "nope" in ds.bad[0].reason
        assert ds.databases.get("shop").run("SELECT count(*) FROM t").rows == ((2,),)
    finally:
        ds.databases.close()
