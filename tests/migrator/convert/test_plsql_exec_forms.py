"""CONNECT BY without PRIOR over one row (Oracle's row generator, ``SELECT LEVEL FROM dual CONNECT
BY LEVEL <= n``), run on a real PostgreSQL: in plain SQL, in a WITH query, as an inline view joined
with another, with START WITH, aggregated, and in PL/SQL (BULK COLLECT, a cursor FOR loop over
the parts of a delimited string, a condition reading variables and LEVEL). Fixture units written
from the SQL language reference (hierarchical queries)."""

from __future__ import annotations

import psycopg
import pytest

from migrator.convert.oracompat.support import SUPPORT_SQL
from tests.migrator.convert.test_plsql_exec_types import deploy_schema
from tests.migrator.convert.test_sql_exec_beyond import rows


def test_row_generator_over_dual_in_sql(pg_dsn):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(SUPPORT_SQL)
        rule = "sql.connect_by"
        assert rows(conn, "SELECT LEVEL AS n FROM dual CONNECT BY LEVEL <= 4", rule) == [(1,), (2,), (3,), (4,)]
        # the root is not tested against the condition: one row even when it fails at once
        assert rows(conn, "SELECT LEVEL FROM dual CONNECT BY LEVEL <= 0", rule) == [(1,)]
        assert rows(conn, "SELECT COUNT(*) FROM dual START WITH 1 = 0 CONNECT BY LEVEL <= 3", rule) == [(0,)]
        assert rows(conn, "SELECT SUM(LEVEL) FROM dual CONNECT BY LEVEL <= 10", rule) == [(55,)]
        got = rows(
            conn,
            "WITH ids AS (SELECT LEVEL * 10 AS v FROM dual CONNECT BY LEVEL <= 3) "
            "SELECT v FROM ids WHERE v > 10 ORDER BY v DESC",
            rule,
        )
        assert got == [(30,), (20,)]
        got = rows(
            conn,
            "SELECT x || n AS xn FROM (SELECT 'a' AS x FROM dual), "
            "(SELECT LEVEL AS n FROM dual CONNECT BY LEVEL <= 3) ORDER BY 1",
            rule,
        )
        assert got == [("a1",), ("a2",), ("a3",)]
        got = rows(conn, "SELECT LEVEL FROM dual WHERE MOD(LEVEL, 2) = 0 CONNECT BY LEVEL <= 6", rule)
        assert got == [(2,), (4,), (6,)]  # WHERE filters the generated rows, after the walk


SPLIT = """
CREATE OR REPLACE PACKAGE gen_pkg AS
  TYPE t_parts IS TABLE OF VARCHAR2(100);
  FUNCTION parts (p_str IN VARCHAR2) RETURN t_parts;
  FUNCTION joined (p_str IN VARCHAR2) RETURN VARCHAR2;
  FUNCTION squares (p_n IN NUMBER) RETURN NUMBER;
END gen_pkg;
/
CREATE OR REPLACE PACKAGE BODY gen_pkg AS
  FUNCTION parts (p_str IN VARCHAR2) RETURN t_parts IS
    l_parts t_parts;
  BEGIN
    SELECT REGEXP_SUBSTR(p_str, '[^,]+', 1, LEVEL)
      BULK COLLECT INTO l_parts
      FROM dual
   CONNECT BY REGEXP_SUBSTR(p_str, '[^,]+', 1, LEVEL) IS NOT NULL;
    RETURN l_parts;
  END parts;

  FUNCTION joined (p_str IN VARCHAR2) RETURN VARCHAR2 IS
    l_out VARCHAR2(400);
  BEGIN
    FOR r IN (SELECT LEVEL AS pos, REGEXP_SUBSTR(p_str, '[^,]+', 1, LEVEL) AS part
                FROM dual
             CONNECT BY LEVEL <= REGEXP_COUNT(p_str, ',') + 1) LOOP
      l_out := l_out || r.pos || '=' || r.part || ';';
    END LOOP;
    RETURN l_out;
  END joined;

  FUNCTION squares (p_n IN NUMBER) RETURN NUMBER IS
    l_total NUMBER;
  BEGIN
    WITH n AS (SELECT LEVEL AS i FROM dual CONNECT BY LEVEL <= p_n)
    SELECT SUM(i * i) INTO l_total FROM n;
    RETURN l_total;
  END squares;
END gen_pkg;
/
"""


def test_row_generator_in_plsql(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "app", {"gen.pkg": SPLIT})
        assert conn.execute("SELECT gen_pkg.parts('a,bb,ccc')").fetchone()[0] == ["a", "bb", "ccc"]
        assert conn.execute("SELECT cardinality(gen_pkg.parts('solo'))").fetchone()[0] == 1
        assert conn.execute("SELECT gen_pkg.joined('x,y')").fetchone()[0] == "1=x;2=y;"
        assert conn.execute("SELECT gen_pkg.squares(3)").fetchone()[0] == 14


VERSION = """
CREATE OR REPLACE TYPE ver_t AS OBJECT (
  major NUMBER,
  minor NUMBER,
  patch NUMBER,
  tag   VARCHAR2(20),
  CONSTRUCTOR FUNCTION ver_t (major IN NUMBER, minor IN NUMBER, patch IN NUMBER DEFAULT 0,
                              tag IN VARCHAR2 DEFAULT 'rel') RETURN SELF AS RESULT,
  MEMBER FUNCTION text RETURN VARCHAR2
);
/
CREATE OR REPLACE TYPE BODY ver_t AS
  CONSTRUCTOR FUNCTION ver_t (major IN NUMBER, minor IN NUMBER, patch IN NUMBER DEFAULT 0,
                              tag IN VARCHAR2 DEFAULT 'rel') RETURN SELF AS RESULT IS
  BEGIN
    SELF.major := major;
    SELF.minor := minor;
    SELF.patch := patch;
    SELF.tag := tag;
    RETURN;
  END;
  MEMBER FUNCTION text RETURN VARCHAR2 IS
  BEGIN
    RETURN major || '.' || minor || '.' || patch || '-' || tag;
  END;
END;
/
CREATE OR REPLACE TYPE span_t AS OBJECT (lo NUMBER, hi NUMBER);
/
CREATE OR REPLACE FUNCTION ver_demo RETURN VARCHAR2 IS
  l_a ver_t := NEW ver_t(minor => 2, major => 1);
  l_b ver_t := ver_t(3, patch => 9, minor => 4);
  l_s span_t := span_t(hi => 10, lo => 5);
BEGIN
  RETURN l_a.text() || ' ' || l_b.text() || ' ' || l_s.lo || '..' || l_s.hi;
END;
/
"""


VFILES = {"ver.sql": VERSION}


def test_constructors_in_named_notation(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "app", {"ver.sql": VERSION})
        assert conn.execute("SELECT ver_demo()").fetchone()[0] == "1.2.0-rel 3.4.9-rel 5..10"


TICKETS = """
CREATE OR REPLACE PROCEDURE next_ticket (p_queue IN VARCHAR2, p_no OUT NUMBER, p_note IN OUT VARCHAR2) IS
  PRAGMA AUTONOMOUS_TRANSACTION;
BEGIN
  INSERT INTO audit_log (msg) VALUES (p_queue);
  SELECT COUNT(*) INTO p_no FROM audit_log;
  p_note := p_note || '+' || p_queue;
  DBMS_OUTPUT.PUT_LINE('ticket ' || p_no);
  COMMIT;
END;
/
CREATE OR REPLACE FUNCTION take_ticket (p_queue IN VARCHAR2) RETURN VARCHAR2 IS
  l_no   NUMBER;
  l_note VARCHAR2(100) := 'n';
BEGIN
  next_ticket(p_queue, l_no, l_note);
  RETURN l_no || ':' || l_note;
END;
/
"""


def test_autonomous_procedure_with_out_parameters(pg_dsn):
    """The OUT and IN OUT values an autonomous procedure sets reach its caller; its COMMIT keeps
    its row when the caller rolls back; what it prints reaches the caller's output."""
    from tests.migrator.convert.test_plsql_exec import deploy, notices, scalar

    conn = deploy(pg_dsn, TICKETS)
    got = notices(conn)
    conn.autocommit = False
    conn.execute("SET search_path = s, public")
    assert scalar(conn, "SELECT s.take_ticket('a')") == "1:n+a"
    assert scalar(conn, "SELECT s.take_ticket('b')") == "2:n+b"
    conn.rollback()
    conn.autocommit = True
    assert scalar(conn, "SELECT string_agg(msg, ',' ORDER BY msg) FROM s.audit_log") == "a,b"
    assert got == ["ticket 1", "ticket 2"]


RETRY = """
CREATE OR REPLACE FUNCTION collatz_steps (p_n IN NUMBER) RETURN NUMBER IS
  l_n     NUMBER := p_n;
  l_steps NUMBER := 0;
BEGIN
  <<again>>
  IF l_n = 1 THEN
    GOTO done;
  END IF;
  IF MOD(l_n, 2) = 0 THEN
    l_n := l_n / 2;
  ELSE
    l_n := 3 * l_n + 1;
  END IF;
  l_steps := l_steps + 1;
  GOTO again;
  <<done>>
  RETURN l_steps;
END;
/
CREATE OR REPLACE PROCEDURE retry_demo (p_fail_times IN NUMBER) IS
  l_try NUMBER := 0;
BEGIN
  <<attempt>>
  l_try := l_try + 1;
  BEGIN
    IF l_try <= p_fail_times THEN
      RAISE_APPLICATION_ERROR(-20001, 'try ' || l_try || ' failed');
    END IF;
    DBMS_OUTPUT.PUT_LINE('succeeded on try ' || l_try);
  EXCEPTION
    WHEN OTHERS THEN
      DBMS_OUTPUT.PUT_LINE(SQLERRM);
      IF l_try < 5 THEN
        GOTO attempt;
      END IF;
  END;
  FOR i IN 1 .. 2 LOOP
    <<inner_again>>
    l_try := l_try + 10;
    IF l_try < 40 THEN
      GOTO inner_again;
    END IF;
    EXIT WHEN i = 1;
  END LOOP;
  DBMS_OUTPUT.PUT_LINE('final ' || l_try);
END;
/
"""


def test_backward_goto_is_a_loop(pg_dsn):
    """A backward GOTO starts again at its label — after an exception handler, inside a loop,
    mixed with a forward GOTO; an EXIT after the jump's region still leaves Oracle's loop."""
    from tests.migrator.convert.test_plsql_exec import deploy, notices, scalar

    conn = deploy(pg_dsn, RETRY)
    assert scalar(conn, "SELECT s.collatz_steps(6)") == 8
    assert scalar(conn, "SELECT s.collatz_steps(1)") == 0
    got = notices(conn)
    conn.execute("CALL s.retry_demo(2)")
    assert got == ["ORA-20001: try 1 failed", "ORA-20001: try 2 failed", "succeeded on try 3", "final 43"]


ANCHORED = """
CREATE OR REPLACE PACKAGE arg_report AS
  TYPE t_arg IS RECORD (
    obj_name  ext_args.object_name%TYPE,
    arg_name  ext_args.argument_name%TYPE,
    position  ext_args.position%TYPE,
    note      VARCHAR2(20)
  );
  FUNCTION describe (p_obj IN VARCHAR2) RETURN VARCHAR2;
END arg_report;
/
CREATE OR REPLACE PACKAGE BODY arg_report AS
  FUNCTION describe (p_obj IN VARCHAR2) RETURN VARCHAR2 IS
    l_arg t_arg;
    l_out VARCHAR2(400);
  BEGIN
    FOR r IN (SELECT object_name, argument_name, position FROM ext_args WHERE object_name = p_obj ORDER BY position) LOOP
      l_arg.obj_name := r.object_name;
      l_arg.arg_name := r.argument_name;
      l_arg.position := r.position;
      l_arg.note := 'seen';
      l_out := l_out || l_arg.arg_name || '@' || l_arg.position || ' ';
    END LOOP;
    RETURN l_out || l_arg.obj_name;
  END describe;
END arg_report;
/
"""


def test_record_fields_anchored_on_a_relation_the_export_does_not_declare(pg_dsn, tmp_path):
    """A record field `rel.col%TYPE` on a relation only the database has (here a view created
    before the units, as an install script or a dictionary view would): its type is read when
    the unit deploys; a missing column fails the deployment naming it."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute("CREATE SCHEMA IF NOT EXISTS app")
        conn.execute(
            "CREATE VIEW app.ext_args AS SELECT 'F1'::varchar(128) AS object_name, v.a::varchar(128) AS"
            " argument_name, v.p::numeric AS position FROM (VALUES ('P_A', 1), ('P_B', 2)) v(a, p)"
        )
        conn.execute("SET search_path = app, public")
        deploy_schema(conn, tmp_path / "app", {"args.pkg": ANCHORED})
        assert conn.execute("SELECT arg_report.describe('F1')").fetchone()[0] == "P_A@1 P_B@2 F1"
        typ = conn.execute(
            "SELECT string_agg(attname || ' ' || format_type(atttypid, atttypmod), ', ' ORDER BY attnum)"
            " FROM pg_attribute WHERE attrelid = 'arg_report.t_arg'::regclass AND attnum > 0"
        ).fetchone()[0]
        assert (
            typ
            == "obj_name character varying(128), arg_name character varying(128), position numeric, note character varying(20)"
        )
        conn.execute("DROP VIEW app.ext_args CASCADE")
        conn.execute("CREATE VIEW app.ext_args AS SELECT 'x'::text AS object_name")
        with pytest.raises(psycopg.Error) as err:
            deploy_schema(conn, tmp_path / "again" / "app", {"args.pkg": ANCHORED})
        assert err.value.sqlstate == "42703" and "ext_args.argument_name%TYPE" in str(err.value)
