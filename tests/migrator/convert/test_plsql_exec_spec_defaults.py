"""Calls as an assertion library makes them, on PostgreSQL: a package body whose routines leave
out the defaults their specification declares (callers see the spec's), and a function and a
procedure of one name that one call could reach in PostgreSQL (the procedure's extra parameters
are defaulted), told apart as Oracle does: a call statement is the procedure, an expression the
function."""

from __future__ import annotations

import psycopg

from tests.migrator.convert.test_plsql_exec_types import deploy_schema

ASSERTS = """
CREATE OR REPLACE PACKAGE chk AS
  FUNCTION eq(a VARCHAR2, b VARCHAR2) RETURN BOOLEAN;
  PROCEDURE eq(a VARCHAR2, b VARCHAR2, msg VARCHAR2 DEFAULT NULL, line NUMBER DEFAULT NULL);
  FUNCTION eq(a NUMBER, b NUMBER) RETURN BOOLEAN;
  PROCEDURE eq(a NUMBER, b NUMBER, msg VARCHAR2 DEFAULT NULL, line NUMBER DEFAULT NULL);
  FUNCTION fail RETURN BOOLEAN;
  PROCEDURE fail(msg VARCHAR2 DEFAULT 'failed');
  PROCEDURE describe(d VARCHAR2 := 'the default description');
END;
/
CREATE OR REPLACE PACKAGE BODY chk AS
  FUNCTION eq(a VARCHAR2, b VARCHAR2) RETURN BOOLEAN IS
  BEGIN
    RETURN a = b OR (a IS NULL AND b IS NULL);
  END;
  PROCEDURE eq(a VARCHAR2, b VARCHAR2, msg VARCHAR2 DEFAULT NULL, line NUMBER DEFAULT NULL) IS
  BEGIN
    IF NOT eq(a, b) THEN
      RAISE_APPLICATION_ERROR(-20000, 'Assertion failed: ' || NVL(msg, a || ' <> ' || b));
    END IF;
  END;
  FUNCTION eq(a NUMBER, b NUMBER) RETURN BOOLEAN IS
  BEGIN
    RETURN a = b;
  END;
  PROCEDURE eq(a NUMBER, b NUMBER, msg VARCHAR2 DEFAULT NULL, line NUMBER DEFAULT NULL) IS
  BEGIN
    IF NOT eq(a, b) THEN
      RAISE_APPLICATION_ERROR(-20000, 'Assertion failed: ' || NVL(msg, a || ' <> ' || b) || ' (numbers)');
    END IF;
  END;
  FUNCTION fail RETURN BOOLEAN IS
  BEGIN
    RETURN FALSE;
  END;
  PROCEDURE fail(msg VARCHAR2 DEFAULT 'failed') IS
  BEGIN
    RAISE_APPLICATION_ERROR(-20000, msg);
  END;
  PROCEDURE describe(d VARCHAR2) IS
  BEGIN
    DBMS_OUTPUT.PUT_LINE(d);
  END;
END;
/
CREATE OR REPLACE FUNCTION run_checks RETURN VARCHAR2 IS
  l_out VARCHAR2(200);
BEGIN
  chk.describe;
  chk.eq('a', 'a');
  chk.eq(a => 'x', b => 'x', msg => 'named');
  IF chk.eq('a', 'b') THEN
    l_out := 'equal';
  ELSE
    l_out := 'different';
  END IF;
  IF NOT chk.fail THEN
    l_out := l_out || ',fail is false';
  END IF;
  chk.eq(2, 2);
  IF NOT chk.eq(2, 3) THEN
    l_out := l_out || ',2<>3';
  END IF;
  BEGIN
    chk.eq(2, 3, line => 7);
  EXCEPTION
    WHEN OTHERS THEN
      l_out := l_out || ',' || SQLERRM;
  END;
  BEGIN
    chk.eq('a', 'b');
  EXCEPTION
    WHEN OTHERS THEN
      l_out := l_out || ',' || SQLERRM;
  END;
  BEGIN
    chk.fail;
  EXCEPTION
    WHEN OTHERS THEN
      l_out := l_out || ',' || SQLERRM;
  END;
  RETURN l_out;
END;
/
"""


def test_spec_defaults_and_function_procedure_pairs(pg_dsn, tmp_path):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "chk", {"chk.sql": ASSERTS})
        got: list[str] = []
        conn.add_notice_handler(lambda d: got.append(d.message_primary))
        assert conn.execute("SELECT run_checks()").fetchone()[0] == (
            "different,fail is false,2<>3,ORA-20000: Assertion failed: 2 <> 3 (numbers),"
            "ORA-20000: Assertion failed: a <> b,ORA-20000: failed"
        )
        assert got == ["the default description"]


PACKAGE_OBJECT = """
CREATE OR REPLACE TYPE counter_t AS OBJECT (
  label VARCHAR2(20),
  n NUMBER,
  MEMBER PROCEDURE bump(p_by NUMBER),
  MEMBER FUNCTION show RETURN VARCHAR2
);
/
CREATE OR REPLACE TYPE BODY counter_t AS
  MEMBER PROCEDURE bump(p_by NUMBER) IS
  BEGIN
    n := NVL(n, 0) + p_by;
  END;
  MEMBER FUNCTION show RETURN VARCHAR2 IS
  BEGIN
    RETURN label || '=' || n;
  END;
END;
/
CREATE OR REPLACE PACKAGE tracker AS
  PROCEDURE hit;
  FUNCTION total RETURN VARCHAR2;
END;
/
CREATE OR REPLACE PACKAGE BODY tracker AS
  g counter_t := counter_t('hits', 0);
  PROCEDURE hit IS
  BEGIN
    g.bump(2);
  END;
  FUNCTION total RETURN VARCHAR2 IS
  BEGIN
    g.bump(1);
    RETURN g.show();
  END;
END;
/
"""


def test_member_procedure_on_a_package_variable(pg_dsn, tmp_path):
    """`g.bump(2)` on a package-level object variable (a debug logger, a counter): the method's
    SELF IN OUT changes the package's state, as in Oracle."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "tracker", {"tracker.sql": PACKAGE_OBJECT})
        conn.execute("CALL tracker.hit()")
        conn.execute("CALL tracker.hit()")
        assert conn.execute("SELECT tracker.total()").fetchone()[0] == "hits=5"


SESSION_ID = """
CREATE OR REPLACE PACKAGE sess AS
  SUBTYPE session_id_t IS INTEGER;
  FUNCTION known(p_id session_id_t, p_name VARCHAR2) RETURN VARCHAR2;
  FUNCTION mine RETURN VARCHAR2;
END;
/
CREATE OR REPLACE PACKAGE BODY sess AS
  FUNCTION known(p_id session_id_t, p_name VARCHAR2) RETURN VARCHAR2 IS
  BEGIN
    RETURN CASE WHEN p_id IS NOT NULL THEN p_name || ':yes' ELSE p_name || ':no' END;
  END;
  FUNCTION mine RETURN VARCHAR2 IS
  BEGIN
    RETURN known(SYS_CONTEXT('USERENV', 'SESSIONID'), 'me');
  END;
END;
/
"""


def test_sys_context_text_passed_to_a_number_parameter(pg_dsn, tmp_path):
    """SYS_CONTEXT returns VARCHAR2; Oracle converts it where an INTEGER parameter takes it."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "sess", {"sess.sql": SESSION_ID})
        assert conn.execute("SELECT sess.mine()").fetchone()[0] == "me:yes"


DUAL_IN_A_JOIN = """
CREATE OR REPLACE TYPE num_list AS TABLE OF NUMBER;
/
CREATE OR REPLACE FUNCTION parts(p_value VARCHAR2) RETURN VARCHAR2 IS
  l_parts num_list;
  l_out VARCHAR2(100);
BEGIN
  SELECT TO_NUMBER(REGEXP_SUBSTR(p_value, '(\\d+)\\.(\\d+)\\.(\\d+)', 1, 1, NULL, n))
    BULK COLLECT INTO l_parts
    FROM dual, (SELECT LEVEL AS n FROM dual CONNECT BY LEVEL <= 3);
  FOR i IN 1 .. l_parts.COUNT LOOP
    l_out := l_out || '[' || l_parts(i) || ']';
  END LOOP;
  RETURN l_out;
END;
/
"""


def test_dual_in_a_comma_join(pg_dsn, tmp_path):
    """`FROM dual, (row generator)`: DUAL's one row crossed with the generator is the generator."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "dual", {"dual.sql": DUAL_IN_A_JOIN})
        assert conn.execute("SELECT parts('10.2.33')").fetchone()[0] == "[10][2][33]"


OBJECT_NOT_NULL = """
CREATE OR REPLACE TYPE version_t AS OBJECT (major NUMBER, minor NUMBER, tag VARCHAR2(20));
/
CREATE OR REPLACE FUNCTION exists_check(p_tag VARCHAR2) RETURN VARCHAR2 IS
  v version_t := version_t(1, 2, p_tag);
  n version_t;
  l_out VARCHAR2(10);
BEGIN
  IF v IS NOT NULL THEN
    l_out := 'v';
  END IF;
  IF n IS NOT NULL THEN
    l_out := l_out || 'n';
  END IF;
  IF n IS NULL AND v IS NOT NULL THEN
    l_out := l_out || 'N';
  END IF;
  RETURN l_out || CASE WHEN v IS NOT NULL THEN '+' END;
END;
/
"""


def test_object_is_not_null_with_null_attributes(pg_dsn, tmp_path):
    """An object with a NULL attribute IS NOT NULL in Oracle (PostgreSQL's row test would say no)."""
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        deploy_schema(conn, tmp_path / "objnull", {"objnull.sql": OBJECT_NOT_NULL})
        assert conn.execute("SELECT exists_check(NULL)").fetchone()[0] == "vN+"
        assert conn.execute("SELECT exists_check('rc1')").fetchone()[0] == "vN+"
