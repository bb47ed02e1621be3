"""Package-level collections and object constructors, run on a real PostgreSQL: a body's nested
table on which DELETE(i) is called is held sparse in the package state with its internal size
(EXTEND appends after deleted elements, as Oracle's does; COUNT, FIRST, NEXT, EXISTS skip them;
a read of a deleted element raises NO_DATA_FOUND; assigning a whole value resets it); EXTEND,
TRIM and DELETE on any package collection work on its current value (from a nested procedure
too); a user-defined constructor's arguments are converted as Oracle converts them (VARCHAR2
into NUMBER), and a call whose collection argument no user-defined constructor takes reaches
the attribute-value constructor; a VARCHAR2 variable, record field or collection element in arithmetic with a number
is converted to a number, as Oracle converts it. The expected lines are what Oracle prints for these units
(written for this test)."""

from __future__ import annotations

import psycopg

from tests.migrator.convert.test_plsql_exec_outfuncs import run_output
from tests.migrator.convert.test_plsql_exec_types import deploy_schema

SLOTS = """
CREATE OR REPLACE TYPE slot AS OBJECT (id NUMBER, label VARCHAR2(20));
/
CREATE OR REPLACE PACKAGE slots AS
  FUNCTION add (p_label VARCHAR2) RETURN PLS_INTEGER;
  PROCEDURE drop_slot (p_id PLS_INTEGER);
  FUNCTION label_of (p_id PLS_INTEGER) RETURN VARCHAR2;
  PROCEDURE report;
  PROCEDURE reset;
  PROCEDURE fill;
END slots;
/
CREATE OR REPLACE PACKAGE BODY slots AS
  TYPE t_slots IS TABLE OF slot;
  TYPE t_names IS TABLE OF VARCHAR2(20);
  g_slots t_slots := t_slots();
  g_names t_names;
  g_dense t_names := t_names();
  FUNCTION add (p_label VARCHAR2) RETURN PLS_INTEGER IS
  BEGIN
    g_slots.EXTEND;
    g_slots(g_slots.LAST) := slot(g_slots.LAST, p_label);
    RETURN g_slots.LAST;
  END add;
  PROCEDURE drop_slot (p_id PLS_INTEGER) IS
  BEGIN
    g_slots.DELETE(p_id);
  END drop_slot;
  FUNCTION label_of (p_id PLS_INTEGER) RETURN VARCHAR2 IS
  BEGIN
    RETURN g_slots(p_id).label;
  END label_of;
  PROCEDURE report IS
    i PLS_INTEGER := g_slots.FIRST;
  BEGIN
    DBMS_OUTPUT.PUT_LINE('count ' || g_slots.COUNT || ' last ' || g_slots.LAST);
    WHILE i IS NOT NULL LOOP
      DBMS_OUTPUT.PUT_LINE(i || ': ' || g_slots(i).label || CASE WHEN g_slots.EXISTS(i + 1) THEN ' +' END);
      i := g_slots.NEXT(i);
    END LOOP;
  END report;
  PROCEDURE reset IS
  BEGIN
    g_names := t_names('p', 'q', 'r');
    g_names.DELETE(2);
    DBMS_OUTPUT.PUT_LINE('names ' || g_names.COUNT || ' ' || g_names(3));
    g_names.EXTEND;
    g_names(4) := 's';
    DBMS_OUTPUT.PUT_LINE('names ' || g_names.COUNT || ' ' || g_names.LAST);
    g_slots := t_slots();
    DBMS_OUTPUT.PUT_LINE('after reset ' || g_slots.COUNT);
  END reset;
  PROCEDURE fill IS
    PROCEDURE push (p_value VARCHAR2) IS
    BEGIN
      g_dense.EXTEND;
      g_dense(g_dense.COUNT) := p_value;
    END push;
  BEGIN
    push('u'); push('v'); push('w');
    g_dense.TRIM;
    DBMS_OUTPUT.PUT_LINE('dense ' || g_dense.COUNT || ' ' || g_dense(1) || g_dense(2));
  END fill;
END slots;
/
CREATE OR REPLACE PROCEDURE slots_demo IS
  a PLS_INTEGER;
BEGIN
  a := slots.add('a'); a := slots.add('b'); a := slots.add('c');
  slots.drop_slot(3);
  a := slots.add('d');
  DBMS_OUTPUT.PUT_LINE('new id ' || a);
  slots.drop_slot(2);
  slots.report;
  BEGIN
    DBMS_OUTPUT.PUT_LINE(slots.label_of(2));
  EXCEPTION WHEN NO_DATA_FOUND THEN DBMS_OUTPUT.PUT_LINE('2 is deleted');
  END;
  slots.reset;
  slots.fill;
END;
/
"""


def test_package_nested_tables_made_sparse_and_extended(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "app", {"slots.sql": SLOTS})
        assert run_output(conn, "CALL slots_demo()") == [
            "new id 4",
            "count 2 last 4",
            "1: a",
            "4: d",
            "2 is deleted",
            "names 2 r",
            "names 3 4",
            "after reset 0",
            "dense 2 uv",
        ]


SHAPES = """
CREATE OR REPLACE TYPE num_list AS TABLE OF NUMBER;
/
CREATE OR REPLACE TYPE span AS OBJECT (
  parts num_list,
  CONSTRUCTOR FUNCTION span (p_text VARCHAR2) RETURN SELF AS RESULT,
  MEMBER FUNCTION total RETURN NUMBER
);
/
CREATE OR REPLACE TYPE BODY span AS
  CONSTRUCTOR FUNCTION span (p_text VARCHAR2) RETURN SELF AS RESULT IS
  BEGIN
    parts := num_list(TO_NUMBER(SUBSTR(p_text, 1, INSTR(p_text, '-') - 1)), TO_NUMBER(SUBSTR(p_text, INSTR(p_text, '-') + 1)));
    RETURN;
  END;
  MEMBER FUNCTION total RETURN NUMBER IS
    s NUMBER := 0;
  BEGIN
    FOR i IN 1 .. parts.COUNT LOOP
      s := s + parts(i);
    END LOOP;
    RETURN s;
  END;
END;
/
CREATE OR REPLACE TYPE point3 AS OBJECT (
  x NUMBER, y NUMBER, z NUMBER,
  CONSTRUCTOR FUNCTION point3 (x NUMBER, y NUMBER) RETURN SELF AS RESULT
);
/
CREATE OR REPLACE TYPE BODY point3 AS
  CONSTRUCTOR FUNCTION point3 (x NUMBER, y NUMBER) RETURN SELF AS RESULT IS
  BEGIN
    SELF.x := x;
    SELF.y := y;
    SELF.z := 0;
    RETURN;
  END;
END;
/
CREATE OR REPLACE PROCEDURE shapes_demo IS
  TYPE t_raw IS RECORD (a VARCHAR2(10), b VARCHAR2(10));
  r t_raw;
  l_parts num_list := num_list(4, 5, 6);
  s span;
  p point3;
  l_sum NUMBER;
  l_text VARCHAR2(5) := '4';
  TYPE t_texts IS TABLE OF VARCHAR2(5);
  l_texts t_texts := t_texts('1', '20');
BEGIN
  s := span('2-40');
  DBMS_OUTPUT.PUT_LINE('text ' || s.total());
  s := span(l_parts);
  DBMS_OUTPUT.PUT_LINE('parts ' || s.total());
  r.a := '7';
  r.b := '8';
  p := point3(r.a, r.b);
  DBMS_OUTPUT.PUT_LINE(p.x + p.y || ' z=' || p.z);
  l_sum := r.a + r.b * 2;
  l_sum := l_sum + l_text - 1;
  DBMS_OUTPUT.PUT_LINE('sum ' || l_sum);
  l_sum := l_texts(2) * 2 + l_texts(1);
  DBMS_OUTPUT.PUT_LINE('texts ' || l_sum);
END;
/
"""


def test_constructor_arguments_convert_as_oracle_binds_them(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "app", {"shapes.sql": SHAPES})
        assert run_output(conn, "CALL shapes_demo()") == ["text 42", "parts 15", "15 z=0", "sum 26", "texts 41"]


LONG_NAMES = """
CREATE OR REPLACE PACKAGE translations AS
  FUNCTION translate_version_range_comparators_into_primitives (p_kind VARCHAR2) RETURN VARCHAR2;
END translations;
/
CREATE OR REPLACE PACKAGE BODY translations AS
  FUNCTION translate_version_range_comparators_into_primitives (p_kind VARCHAR2) RETURN VARCHAR2 IS
    l_out VARCHAR2(100);
    PROCEDURE translate_tilde_to_primitives IS
    BEGIN
      l_out := 'tilde';
    END;
    PROCEDURE translate_caret_to_primitives IS
    BEGIN
      l_out := 'caret';
    END;
  BEGIN
    IF p_kind = '~' THEN
      translate_tilde_to_primitives;
    ELSE
      translate_caret_to_primitives;
    END IF;
    RETURN l_out;
  END;
END translations;
/
"""


def test_long_helper_names_stay_distinct(pg_dsn, tmp_path):
    """Two nested procedures whose lifted names share their first 63 bytes (PostgreSQL's limit)
    are two functions, not one replacing the other (`naming.short_name`)."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "app", {"translations.pkg": LONG_NAMES})
        got = conn.execute(
            "SELECT translations.translate_version_range_comparators_into_primitives('~'),"
            " translations.translate_version_range_comparators_into_primitives('^')"
        ).fetchone()
        assert got == ("tilde", "caret")


COUNTER = """
CREATE OR REPLACE PACKAGE tally_pkg AS
  g_n NUMBER := 0;
  PROCEDURE bump_then_fail;
  FUNCTION bump RETURN NUMBER;
END tally_pkg;
/
CREATE OR REPLACE PACKAGE BODY tally_pkg AS
  PROCEDURE bump_then_fail IS
  BEGIN
    g_n := g_n + 1;
    RAISE_APPLICATION_ERROR(-20001, 'after the first use');
  END;
  FUNCTION bump RETURN NUMBER IS
  BEGIN
    g_n := g_n + 1;
    RETURN g_n;
  END;
END tally_pkg;
/
CREATE OR REPLACE PROCEDURE tally_demo IS
BEGIN
  BEGIN
    tally_pkg.bump_then_fail;
  EXCEPTION WHEN OTHERS THEN DBMS_OUTPUT.PUT_LINE(SQLERRM);
  END;
  DBMS_OUTPUT.PUT_LINE('n=' || tally_pkg.bump);
END;
/
"""


def test_package_first_used_in_a_failed_block_keeps_its_state(pg_dsn, tmp_path):
    """Oracle's package state survives the rollback of the block that first used it: the package
    is not initialised again (its variables reset) when that block's work is undone."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "app", {"tally.sql": COUNTER})
        assert run_output(conn, "CALL tally_demo()") == ["ORA-20001: after the first use", "n=2"]
