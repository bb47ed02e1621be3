"""Chained element access, run on a real PostgreSQL: a collection of collections (``a(i)(j)``,
``a(i).COUNT``) and a collection field of a record element (``x(i).f(j)``, ``x(i).f.COUNT``),
read and assigned. A package's collection type is a domain, so a collection of it is a
one-dimensional array whose elements are arrays (`resolver.type_decl`); PostgreSQL subscripts it
one level at a time, so a read nests the element reads and an assignment goes through a
temporary of the inner collection, written back (`targets.lvalue_access`). The expected lines
are what Oracle prints for these units (written for this test)."""

from __future__ import annotations

import psycopg

from tests.migrator.convert.test_plsql_exec_outfuncs import run_output
from tests.migrator.convert.test_plsql_exec_types import deploy_schema

GRID = """
CREATE OR REPLACE TYPE word_list AS TABLE OF VARCHAR2(20);
/
CREATE OR REPLACE PACKAGE grid AS
  PROCEDURE run;
END grid;
/
CREATE OR REPLACE PACKAGE BODY grid AS
  TYPE t_row IS TABLE OF VARCHAR2(20);
  TYPE t_grid IS TABLE OF t_row;
  TYPE t_sheet IS RECORD (title VARCHAR2(30), cells t_grid);
  TYPE t_sheets IS TABLE OF t_sheet;
  TYPE t_sample IS RECORD (name VARCHAR2(20), words word_list);
  TYPE t_samples IS TABLE OF t_sample;

  FUNCTION sample (p_name VARCHAR2, p_words word_list) RETURN t_sample IS
    l t_sample;
  BEGIN
    l.name := p_name;
    l.words := p_words;
    RETURN l;
  END sample;

  PROCEDURE run IS
    g t_grid := t_grid(t_row('a', 'b'), t_row('c'));
    s t_sheet;
    ss t_sheets := t_sheets();
    samples t_samples := t_samples(sample('one', word_list('x', 'y')), sample('two', word_list('z')));
    l_line VARCHAR2(100);
  BEGIN
    DBMS_OUTPUT.PUT_LINE(g(1)(2) || g(2) (1) || g(1).COUNT || g.COUNT);
    g(2)(1) := 'z';
    g(1) := t_row('a', 'b', 'y');
    DBMS_OUTPUT.PUT_LINE(g(2)(1) || g(1)(3) || g(1).COUNT);
    s.title := 't';
    s.cells := g;
    DBMS_OUTPUT.PUT_LINE(s.cells(1)(2) || s.cells(1).COUNT);
    s.cells(1)(1) := 'q';
    ss.EXTEND;
    ss(1) := s;
    DBMS_OUTPUT.PUT_LINE(ss(1).cells(1)(1) || ss(1).cells(2).COUNT);
    ss(1).cells(2)(1) := 'w';
    DBMS_OUTPUT.PUT_LINE(ss(1).cells(2)(1) || ' ' || s.cells(2)(1));
    FOR i IN 1 .. samples.COUNT LOOP
      l_line := samples(i).name || ':';
      FOR j IN 1 .. samples(i).words.COUNT LOOP
        l_line := l_line || ' ' || samples(i).words(j);
      END LOOP;
      DBMS_OUTPUT.PUT_LINE(l_line);
    END LOOP;
    samples(2).words(1) := 'zz';
    DBMS_OUTPUT.PUT_LINE(samples(2).words(1) || samples(1).words(2));
  END run;
END grid;
/
"""


def test_collections_of_collections_and_collection_fields(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "app", {"grid.sql": GRID})
        assert run_output(conn, "CALL grid.run()") == [
            "bc22",
            "zy3",
            "b3",
            "q1",
            "w z",
            "one: x y",
            "two: z",
            "zzy",
        ]
