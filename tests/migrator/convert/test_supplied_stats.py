"""DBMS_STATS's gathering procedures converted and run on PostgreSQL as ANALYZE: after
GATHER_TABLE_STATS / GATHER_SCHEMA_STATS the table's statistics are those of its rows (what the
optimizer reads: pg_class.reltuples, pg_stats), with Oracle's tuning options accepted by name; a
table that does not exist is ORA-20000 (Oracle Database PL/SQL Packages and Types Reference,
DBMS_STATS)."""

from __future__ import annotations

import psycopg
import pytest

from harness.engines.postgres import scratch_database
from tests.migrator.convert.test_oracompat_packages import deploy_library
from tests.migrator.convert.test_supplied_exec import deploy

GATHER = """
CREATE OR REPLACE PROCEDURE refresh_stats (p_table IN VARCHAR2 DEFAULT NULL) IS
BEGIN
  IF p_table IS NULL THEN
    DBMS_STATS.GATHER_SCHEMA_STATS('ST', granularity => 'ALL', cascade => TRUE, block_sample => TRUE,
                                   estimate_percent => NULL);
  ELSE
    DBMS_STATS.GATHER_TABLE_STATS(ownname => 'st', tabname => p_table, estimate_percent => 100,
                                  method_opt => 'FOR ALL COLUMNS SIZE AUTO', cascade => TRUE);
    DBMS_STATS.GATHER_INDEX_STATS('ST', p_table || '_PKEY');
  END IF;
END refresh_stats;
/
"""


@pytest.fixture(scope="module")
def db(pg_engine):
    with scratch_database(pg_engine, prefix="stats") as dsn, psycopg.connect(dsn, autocommit=True) as conn:
        deploy_library(conn)
        conn.execute(
            "CREATE SCHEMA st; CREATE SCHEMA IF NOT EXISTS s; SET search_path = s, oracompat, public;"
            "CREATE TABLE st.orders (id integer PRIMARY KEY, state text);"
            "CREATE TABLE st.lines (id integer PRIMARY KEY);"
            "INSERT INTO st.orders SELECT g, CASE WHEN g % 4 = 0 THEN 'open' ELSE 'done' END FROM generate_series(1, 400) g;"
            "INSERT INTO st.lines SELECT generate_series(1, 50);"
        )
        deploy(conn, GATHER)
        yield conn


def _rows(conn, table: str) -> float:
    return conn.execute("SELECT reltuples FROM pg_class WHERE oid = %s::regclass", (table,)).fetchone()[0]


def test_gathering_leaves_the_tables_statistics(db):
    assert _rows(db, "st.orders") < 0  # never analyzed
    db.execute("CALL s.refresh_stats('ORDERS')")
    assert _rows(db, "st.orders") == 400
    states = db.execute(
        "SELECT most_common_vals::text FROM pg_stats WHERE schemaname = 'st' AND tablename = 'orders' AND attname = 'state'"
    ).fetchone()[0]
    assert states == "{done,open}"
    assert _rows(db, "st.lines") < 0
    db.execute("CALL s.refresh_stats()")  # the whole schema
    assert _rows(db, "st.lines") == 50


def test_a_missing_table_is_ora_20000(db):
    with pytest.raises(psycopg.Error, match='ORA-20000: Unable to analyze "ST"."NOPE"'):
        db.execute("CALL s.refresh_stats('nope')")
