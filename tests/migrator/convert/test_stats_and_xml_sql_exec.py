"""Install-script statements of real exports, executed on PostgreSQL (issue #26): statistics
gathering (DBMS_STATS.GATHER_SCHEMA_STATS / GATHER_TABLE_STATS → ANALYZE, PL/SQL Packages and
Types Reference, "DBMS_STATS") and XML documents written by UPDATE with the static constructor
``SYS.XMLTYPE.CREATEXML(text)`` (XML DB Developer's Guide, "XMLType constructors")."""

from __future__ import annotations

import psycopg
import pytest

from tests.migrator.convert.test_plsql_exec_types import deploy_schema
from tests.migrator.convert.test_supplied_text_xml_exec import (  # noqa: F401  (a server with libxml)
    xml_dsn,
    xml_engine,
)

STATS = """
CREATE TABLE readings (id NUMBER PRIMARY KEY, v NUMBER);
INSERT INTO readings VALUES (1, 10);
INSERT INTO readings VALUES (2, 20);
INSERT INTO readings VALUES (3, 20);
CREATE TABLE events (id NUMBER PRIMARY KEY, kind VARCHAR2(10));
INSERT INTO events VALUES (1, 'start');

CREATE OR REPLACE PROCEDURE refresh_stats IS
BEGIN
  DBMS_STATS.GATHER_SCHEMA_STATS('ST', estimate_percent => NULL, cascade => TRUE, block_sample => TRUE);
END;
/
CREATE OR REPLACE PROCEDURE refresh_one (p_table IN VARCHAR2) IS
BEGIN
  DBMS_STATS.GATHER_TABLE_STATS(ownname => 'ST', tabname => p_table);
END;
/
"""


def _stats(conn: psycopg.Connection, table: str) -> int:
    row = conn.execute("SELECT count(*) FROM pg_stats WHERE schemaname = 'st' AND tablename = %s", (table,)).fetchone()
    return row[0] if row else 0


def test_gather_schema_and_table_stats_analyze(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "st", {"stats.sql": STATS})
        assert (_stats(conn, "readings"), _stats(conn, "events")) == (0, 0)
        conn.execute("CALL refresh_one('EVENTS')")  # that table only
        assert (_stats(conn, "readings"), _stats(conn, "events")) == (0, 2)  # a row per column
        conn.execute("CALL refresh_stats()")  # every table of the schema
        assert _stats(conn, "readings") == 2
        # a table that does not exist: Oracle's ORA-20000
        with pytest.raises(psycopg.Error, match="ORA-20000"):  # SQLSTATE O2000: the user-defined -20000
            conn.execute("CALL refresh_one('NO_SUCH')")


XML = """
CREATE TABLE depots (depot_id NUMBER PRIMARY KEY, spec XMLTYPE);
INSERT INTO depots (depot_id) VALUES (1);
INSERT INTO depots (depot_id) VALUES (2);
UPDATE depots SET spec = sys.xmltype.createxml('<?xml version="1.0"?>
<Depot><Area>2500</Area><Docks>2</Docks></Depot>') WHERE depot_id = 1;
UPDATE depots SET spec = XMLTYPE.CREATEXML('<Depot><Area>90</Area></Depot>') WHERE depot_id = 2;
"""


def test_createxml_in_an_update_stores_the_document(xml_dsn, tmp_path):  # noqa: F811
    with psycopg.connect(xml_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "xd", {"depots.sql": XML})
        rows = conn.execute(
            "SELECT depot_id, (xpath('/Depot/Area/text()', spec))[1]::text FROM depots ORDER BY 1"
        ).fetchall()
        assert rows == [(1, "2500"), (2, "90")]
        # a malformed document fails as Oracle's constructor does (ORA-31011), it is not stored
        with pytest.raises(psycopg.Error):
            conn.execute("UPDATE depots SET spec = oracompat.xmltype('<Depot>') WHERE depot_id = 2")


def test_sqlplus_continuation_is_named_when_a_statement_does_not_parse():
    """A statement whose lines end in '-' (SQL*Plus's continuation character) that does not parse
    says so, rather than only the parser's message; a comment's trailing '-' is not that."""
    from migrator.convert.dispatch import prepare_context
    from migrator.convert.sql.convert import convert_statement
    from migrator.source.units import SourceSet

    ctx = prepare_context(SourceSet(root=".", schema="s", units=[]))
    out = convert_statement("INSERT INTO t VALUES (1726-\n, 'LCD'-\n, 3)", ctx)
    assert "MIGRATOR_UNCONVERTED" in out
    assert "continuation character" in ctx.unconverted_items[0].message
    ctx.unconverted_items = []
    convert_statement("SELECT a -- note -\nFROM t WHERE", ctx)
    assert "continuation" not in ctx.unconverted_items[0].message
