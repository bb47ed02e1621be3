"""APEX's plain string/array utilities converted and run on PostgreSQL: APEX_UTIL.STRING_TO_TABLE
into an APEX_APPLICATION_GLOBAL.VC_ARR2 (default ':' separator, a longer separator, an empty piece,
a NULL string), read with COUNT and (i), and APEX_UTIL.TABLE_TO_STRING back; what needs an APEX
session (APEX_UTIL.GET_SESSION_STATE) is still reported (Oracle APEX API Reference, APEX_UTIL)."""

from __future__ import annotations

import psycopg
import pytest

from harness.engines.postgres import scratch_database
from tests.migrator.convert.test_oracompat_packages import deploy_library
from tests.migrator.convert.test_supplied_exec import deploy
from tests.migrator.plsql_support import convert_all, split_sql

SPLITTER = """
CREATE OR REPLACE FUNCTION split_join (p_text IN VARCHAR2, p_sep IN VARCHAR2 DEFAULT NULL) RETURN VARCHAR2 IS
  l_items APEX_APPLICATION_GLOBAL.VC_ARR2;
  l_out VARCHAR2(4000);
BEGIN
  IF p_sep IS NULL THEN
    l_items := APEX_UTIL.STRING_TO_TABLE(p_text);
  ELSE
    l_items := APEX_UTIL.STRING_TO_TABLE(p_string => p_text, p_separator => p_sep);
  END IF;
  l_out := l_items.COUNT || ':';
  FOR i IN 1 .. l_items.COUNT LOOP
    l_out := l_out || '[' || NVL(l_items(i), 'null') || ']';
  END LOOP;
  RETURN l_out || ' ' || NVL(APEX_UTIL.TABLE_TO_STRING(l_items, '|'), '(none)');
END split_join;
/
"""


@pytest.fixture(scope="module")
def db(pg_engine):
    with scratch_database(pg_engine, prefix="apexu") as dsn, psycopg.connect(dsn, autocommit=True) as conn:
        deploy_library(conn)
        conn.execute("CREATE SCHEMA IF NOT EXISTS s; SET search_path = s, oracompat, public")
        deploy(conn, SPLITTER)
        yield conn


@pytest.mark.parametrize(
    ("text", "sep", "expected"),
    [
        ("One:Two:Three", None, "3:[One][Two][Three] One|Two|Three"),
        ("a, b,, c", ", ", "3:[a][b,][c] a|b,|c"),
        ("a::b", None, "3:[a][null][b] a||b"),
        (None, None, "0: (none)"),
    ],
)
def test_string_to_table_and_back(db, text, sep, expected):
    assert db.execute("SELECT s.split_join(%s, %s)", (text, sep)).fetchone()[0] == expected


def test_apex_session_state_is_still_reported():
    oracle = """
CREATE OR REPLACE FUNCTION item_list RETURN VARCHAR2 IS
  l_items APEX_APPLICATION_GLOBAL.VC_ARR2;
BEGIN
  l_items := APEX_UTIL.STRING_TO_TABLE(APEX_UTIL.GET_SESSION_STATE('P1_ITEMS'));
  RETURN APEX_UTIL.TABLE_TO_STRING(l_items);
END item_list;
/
"""
    (_, _, unconverted, _, _) = convert_all(split_sql(oracle))[0]
    assert [u.construct for u in unconverted] == [
        "needs an Oracle-supplied package with no PostgreSQL equivalent: APEX_UTIL beyond STRING_TO_TABLE / "
        "TABLE_TO_STRING (APEX session state, pages, users)"
    ]
    assert "GET_SESSION_STATE" in unconverted[0].message.upper()
