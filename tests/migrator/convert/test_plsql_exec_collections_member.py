"""Membership in a nested table and TABLE() over a CAST, converted and run on PostgreSQL (SQL
Language Reference, "MEMBER Condition": TRUE when the value equals an element, NULL when the value
is NULL or the nested table is empty, NOT MEMBER the opposite; "TABLE collection expression" over
CAST(x AS collection type))."""

from __future__ import annotations

import psycopg

from tests.migrator.convert.test_plsql_exec_types import deploy_schema

MEMBERS = """
CREATE OR REPLACE TYPE mb_list AS TABLE OF VARCHAR2(100);
/
CREATE OR REPLACE PACKAGE mb_pkg AS
  FUNCTION starts_a (p IN mb_list) RETURN NUMBER;
  FUNCTION summary RETURN VARCHAR2;
  FUNCTION is_member (p_value IN VARCHAR2, p_mode IN VARCHAR2) RETURN VARCHAR2;
END mb_pkg;
/
CREATE OR REPLACE PACKAGE BODY mb_pkg AS
  FUNCTION starts_a (p IN mb_list) RETURN NUMBER IS
    n NUMBER;
  BEGIN
    SELECT COUNT(*) INTO n FROM TABLE(CAST(p AS mb_list)) WHERE column_value LIKE 'a%';
    RETURN n;
  END starts_a;

  FUNCTION summary RETURN VARCHAR2 IS
    l mb_list := mb_list('b', 'ab', 'c');
    s VARCHAR2(100);
  BEGIN
    FOR r IN (SELECT column_value v FROM TABLE(l) ORDER BY 1) LOOP
      s := s || r.v;
    END LOOP;
    IF 'ab' MEMBER OF l THEN
      s := s || '+';
    END IF;
    IF 'zz' NOT MEMBER l THEN
      s := s || '-';
    END IF;
    RETURN s || l.COUNT || starts_a(l);
  END summary;

  FUNCTION is_member (p_value IN VARCHAR2, p_mode IN VARCHAR2) RETURN VARCHAR2 IS
    l mb_list := CASE p_mode WHEN 'empty' THEN mb_list() WHEN 'nulls' THEN mb_list('x', NULL) ELSE mb_list('x', 'y') END;
  BEGIN
    RETURN CASE WHEN p_value MEMBER OF l THEN 'T' WHEN NOT (p_value MEMBER OF l) THEN 'F' ELSE 'N' END;
  END is_member;
END mb_pkg;
/
"""


def test_member_of_and_table_of_a_cast(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "members", {"members.sql": MEMBERS})
        assert conn.execute("SELECT mb_pkg.summary()").fetchone()[0] == "abbc+-31"
        got = [
            conn.execute("SELECT mb_pkg.is_member(%s, %s)", (value, mode)).fetchone()[0]
            for value, mode in [
                ("x", "full"),
                ("q", "full"),
                (None, "full"),
                ("x", "empty"),
                ("q", "nulls"),
                ("x", "nulls"),
            ]
        ]
        # a NULL value or an empty table: NULL; no equal element among NULLs: NULL (as = ANY)
        assert got == ["T", "F", "N", "N", "N", "T"]


MULTISETS = """
CREATE TABLE ms_items (id NUMBER PRIMARY KEY, name VARCHAR2(30));
INSERT INTO ms_items VALUES (2, 'b');
INSERT INTO ms_items VALUES (1, 'a');
CREATE OR REPLACE TYPE ms_names AS TABLE OF VARCHAR2(100);
/
CREATE OR REPLACE FUNCTION ms_summary (p_min IN NUMBER) RETURN VARCHAR2 IS
  l ms_names;
  s VARCHAR2(200);
BEGIN
  SELECT CAST(MULTISET(SELECT name FROM ms_items WHERE id >= p_min ORDER BY id) AS ms_names) INTO l FROM dual;
  s := NVL(TO_CHAR(CARDINALITY(l)), 'null') || ':';
  IF l IS NOT EMPTY THEN
    s := s || 'full';
  END IF;
  IF l IS EMPTY THEN
    s := s || 'empty';
  END IF;
  FOR i IN 1 .. l.COUNT LOOP
    s := s || ',' || l(i);
  END LOOP;
  RETURN s;
END ms_summary;
/
"""


def test_multiset_cast_is_empty_and_cardinality(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "multisets", {"multisets.sql": MULTISETS})
        assert conn.execute("SELECT ms_summary(1)").fetchone()[0] == "2:full,a,b"
        # no rows: an empty collection (not NULL), whose CARDINALITY is NULL in Oracle
        assert conn.execute("SELECT ms_summary(5)").fetchone()[0] == "null:empty"
