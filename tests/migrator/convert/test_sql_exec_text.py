"""Executed on the embedded PostgreSQL: Oracle's text results ('' is NULL, REPLACE, implicit
NUMBER/DATE → text, NLS parameters), computed ROWNUM bounds, DML qualifiers, CONNECT BY with
PL/SQL parameters. Expected values are Oracle's documented results."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import psycopg
import pytest
from test_sql_exec import SETUP

from harness.engines.postgres import scratch_database
from migrator.convert.oracompat.support import SUPPORT_SQL
from migrator.convert.sql.convert import convert_expression, convert_statement
from tests.migrator.sql_catalog import make_ctx


@pytest.fixture(scope="module")
def conn(pg_engine):
    """One database for the module; tests that write roll back (each runs in a transaction)."""
    with scratch_database(pg_engine, prefix="sqltext") as dsn, psycopg.connect(dsn, autocommit=True) as c:
        c.execute(SUPPORT_SQL)
        c.execute(SETUP)
        yield c


def convert(oracle_sql: str, types=None, expression=False) -> str:
    ctx = make_ctx()
    out = (convert_expression if expression else convert_statement)(oracle_sql, ctx, types=types)
    assert not ctx.unconverted_items, ctx.unconverted_items
    return out


def value(conn, oracle_expr: str, types=None):
    return conn.execute(f"SELECT {convert(oracle_expr, types, expression=True)}").fetchone()[0]


@pytest.mark.parametrize(
    "expr,expected",
    [
        ("REPLACE('a b c', ' ', '')", "abc"),
        ("REPLACE('a b', ' ')", "ab"),
        ("REPLACE('a|b', '|', NULL)", "ab"),
        ("REPLACE('abc', NULL, 'x')", "abc"),
        ("REPLACE('aaa', 'a')", None),  # everything removed: NULL
        ("TRIM('   ')", None),
        ("UPPER(TRIM('   '))", None),
        ("LTRIM('000', '0')", None),
        ("RTRIM('ab  ')", "ab"),
        ("TRANSLATE('bc', 'abc', 'x')", None),
        ("TRANSLATE('abc', 'abc', 'x')", "x"),
        ("TRANSLATE('ab', 'ab', 'xy')", "xy"),
        ("REPLACE('aa', 'a', 'b')", "bb"),
        ("REGEXP_REPLACE('123', '[0-9]')", None),
        ("REGEXP_REPLACE('a1b2', '[0-9]', '#')", "a#b#"),
        ("NVL(TRIM('  '), '????')", "????"),
        ("'Price ' || 9.50", "Price 9.5"),
        (
            "'at ' || TO_TIMESTAMP('2024-03-08 13:45:01.5', 'YYYY-MM-DD HH24:MI:SS.FF')",
            "at 08-MAR-24 01.45.01.500000 PM",
        ),
        ("'on ' || TO_DATE('2024-03-08 13:45', 'YYYY-MM-DD HH24:MI')", "on 08-MAR-24"),
        ("'n=' || TO_CHAR(0.50)", "n=.5"),
        ("TO_NUMBER('-1.234,56', 'S999G999G990D00', 'NLS_NUMERIC_CHARACTERS='',.''')", Decimal("-1234.56")),
        ("TO_NUMBER('12', 'S999G999G990D00', 'NLS_NUMERIC_CHARACTERS='',.''')", Decimal("12")),
        ("TO_CHAR(1234.5, 'FM999G999G990D00', 'NLS_NUMERIC_CHARACTERS='',.''')", "1.234,50"),
        ("TO_CHAR(1234.5, 'FM999G999G990D00', 'NLS_NUMERIC_CHARACTERS=''.,''')", "1,234.50"),
        # the characters unquoted (Oracle reads NLS_NUMERIC_CHARACTERS=., too); TM9 as without it
        ("TO_CHAR(1234.5, 'TM9', 'NLS_NUMERIC_CHARACTERS=.,')", "1234.5"),
        ("TO_CHAR(0.25, 'TM9', 'NLS_NUMERIC_CHARACTERS=,.')", ",25"),
        ("TO_CHAR(1234.5, '9G999D99', 'NLS_NUMERIC_CHARACTERS=,.')", " 1.234,50"),
        ("TO_CHAR(DATE '2024-03-08', 'DY', 'NLS_DATE_LANGUAGE=ENGLISH')", "FRI"),
        ("LPAD(7, 3, '0')", "007"),  # numbers are converted implicitly
        ("SUBSTR(12345, 2, 2)", "23"),
        ("INSTR(1.5, '.')", 2),
        ("LENGTH(12.50)", 4),
        ("LENGTH(TRIM('  '))", None),
        ("REPLACE(1.50, '.', ',')", "1,5"),
        ("LTRIM(100, '1')", "00"),
    ],
)
def test_text_expression_matches_oracle(conn, expr, expected):
    assert value(conn, expr) == expected


@pytest.mark.parametrize(
    "sql_value,expected",
    [
        ("'abc'", "abc"),  # unknown-type literal: the text overload, not ambiguous
        ("'x'::varchar(5)", "x"),
        ("'x'::text", "x"),
        ("'ab'::char(3)", "ab "),  # CHAR keeps its padding, as in Oracle
        ("9.50::numeric(10,2)", "9.5"),
        ("0.5::numeric", ".5"),
        ("(-0.5)::numeric", "-.5"),
        ("100::numeric(10,2)", "100"),
        ("0.00001::numeric", ".00001"),
        ("0::numeric(5,2)", "0"),
        ("42", "42"),
        ("12345678901234567::bigint", "12345678901234567"),
        ("7::smallint", "7"),
        ("9.5::double precision", "9.5"),
        ("TIMESTAMP '2024-03-08 13:45:00'", "08-MAR-24"),
        ("DATE '2024-12-01'", "01-DEC-24"),
        ("NULL::numeric", None),
        # INTERVAL of a type the converter did not know: Oracle's form for the default DAY(2) TO
        # SECOND(6) / YEAR(2) TO MONTH (a TIMESTAMP difference the converter sees is printed as
        # DAY(9) TO SECOND(6) by rule expr.interval_arith: test_silent_sql_exec)
        ("TIMESTAMP '2020-01-02 10:00:00' - TIMESTAMP '2020-01-01 09:30:00.25'", "+01 00:29:59.750000"),
        ("-INTERVAL '3 days 4 hours'", "-03 04:00:00.000000"),
        ("INTERVAL '27 hours'", "+01 03:00:00.000000"),
        ("INTERVAL '1 year 2 months'", "+01-02"),
    ],
)
def test_to_text_overloads(conn, sql_value, expected):
    assert conn.execute(f"SELECT oracompat.to_text({sql_value})").fetchone()[0] == expected


def test_concat_prints_columns_like_oracle(conn):
    sql = convert(
        "SELECT ename || ' earns ' || sal || ' bonus ' || comm || ' hired ' || hiredate FROM emp WHERE empno IN (1, 6) ORDER BY empno"
    )
    got = [r[0] for r in conn.execute(sql).fetchall()]
    assert got == ["KING earns 5000 bonus  hired 31-JAN-20", "ALLEN earns 1600 bonus 300 hired 20-FEB-21"]
    with conn.transaction(force_rollback=True):
        conn.execute("UPDATE emp SET sal = 9.50 WHERE empno = 1")
        assert conn.execute(sql).fetchone()[0].startswith("KING earns 9.5 bonus")


def _sql_function(conn, name: str, params: str, body: str, returns: str = "SETOF text") -> None:
    conn.execute(f"CREATE OR REPLACE FUNCTION {name}({params}) RETURNS {returns} LANGUAGE sql AS $f$ {body} $f$")


@pytest.mark.parametrize("bound,expected", [(None, 0), (2, 2), (Decimal("2.5"), 2), (-1, 0), (99, 7)])
def test_rownum_with_parameter_bound(conn, bound, expected):
    body = convert(
        "SELECT ename FROM (SELECT ename FROM emp ORDER BY sal DESC) WHERE ROWNUM <= p_limit",
        types={"p_limit": "NUMBER"},
    )
    _sql_function(conn, "top_emps", "p_limit numeric", body)
    assert len(conn.execute("SELECT * FROM top_emps(%s)", [bound]).fetchall()) == expected


@pytest.mark.parametrize("bound,expected", [(None, 0), (3, 2), (0, 0), (Decimal("2.5"), 2)])
def test_rownum_less_than_parameter(conn, bound, expected):
    body = convert("SELECT ename FROM emp WHERE ROWNUM < p_n", types={"p_n": "NUMBER"})
    _sql_function(conn, "first_emps", "p_n numeric", body)
    assert len(conn.execute("SELECT * FROM first_emps(%s)", [bound]).fetchall()) == expected


def test_update_with_aliased_set_target(conn):
    with conn.transaction(force_rollback=True):
        conn.execute(convert("UPDATE emp e SET e.sal = e.sal + 1, emp.comm = 5 WHERE e.empno = 1"))
        assert conn.execute("SELECT sal, comm FROM emp WHERE empno = 1").fetchone() == (
            Decimal("5001.00"),
            Decimal("5.00"),
        )


def test_merge_update_with_qualified_set_target(conn):
    with conn.transaction(force_rollback=True):
        conn.execute(
            convert(
                "MERGE INTO emp t USING dept s ON (t.deptno = s.deptno AND s.deptno = 10) "
                "WHEN MATCHED THEN UPDATE SET t.job = s.loc"
            )
        )
        assert conn.execute("SELECT job FROM emp WHERE empno = 1").fetchone() == ("NY",)


def test_for_update_of_column_locks_its_table(conn):
    with conn.transaction(force_rollback=True):
        got = conn.execute(
            convert(
                "SELECT e.ename, d.dname FROM emp e, dept d WHERE d.deptno = e.deptno "
                "AND e.empno = 2 FOR UPDATE OF e.sal"
            )
        ).fetchall()
    assert got == [("JONES", "RESEARCH")]


def test_connect_by_with_plsql_parameter(conn):
    body = convert(
        "SELECT LPAD(' ', 2 * (LEVEL - 1)) || e.ename FROM emp e START WITH e.empno = p_root "
        "CONNECT BY PRIOR e.empno = e.mgr ORDER SIBLINGS BY e.ename",
        types={"p_root": "NUMBER"},
    )
    _sql_function(conn, "org_chart", "p_root integer", body)
    got = [r[0] for r in conn.execute("SELECT * FROM org_chart(2)").fetchall()]
    assert got == ["JONES", "  FORD", "  SCOTT", "    ADAMS"]


def test_outer_join_marker_after_space(conn):
    got = conn.execute(
        convert(
            "SELECT d.dname, COUNT(e.empno) FROM dept d, emp e WHERE d.deptno = e.deptno (+) "
            "GROUP BY d.dname ORDER BY d.dname"
        )
    ).fetchall()
    assert got == [("ACCOUNTING", 1), ("RESEARCH", 3), ("SALES", 2)]


def test_trunc_of_column_minus_trunc_date(conn):
    """TRUNC(col) parsed as an anonymous call used to crash the type inference."""
    sql = convert(
        "SELECT TRUNC(DATE '2021-03-01') - TRUNC(e.hiredate), "
        "LEAST(TRUNC(e.hiredate) + 10, ADD_MONTHS(TRUNC(e.hiredate), 2)) FROM emp e WHERE e.empno = 2"
    )
    assert conn.execute(sql).fetchone() == (1, dt.datetime(2021, 3, 10))


def test_lpad_of_cursor_record_field(conn):
    """LPAD(r.n, 3) with r a row whose field type the SQL layer cannot see (bigint here)."""
    got = conn.execute(
        convert(
            "SELECT LPAD(r.n, 3, '*') FROM (SELECT ROW_NUMBER() OVER (ORDER BY empno) AS n FROM emp) r WHERE r.n = 2"
        )
    ).fetchone()
    assert got == ("**2",)


def test_to_text_on_table_columns_resolves_by_type(conn):
    """Columns of every kind the converter may wrap: no ambiguity, Oracle's text for each."""
    conn.execute(
        "CREATE TEMP TABLE tt (t text, v varchar(9), c char(3), i integer, b bigint, n numeric(10,2), "
        "d double precision, ts timestamp(0))"
    )
    conn.execute("INSERT INTO tt VALUES ('a', 'b', 'c', 1, 2, 9.50, 0.25, '2024-01-05 10:00:00')")
    got = conn.execute(
        "SELECT oracompat.to_text(t), oracompat.to_text(v), oracompat.to_text(c), oracompat.to_text(i), "
        "oracompat.to_text(b), oracompat.to_text(n), oracompat.to_text(d), oracompat.to_text(ts) FROM tt"
    ).fetchone()
    assert got == ("a", "b", "c  ", "1", "2", "9.5", ".25", "05-JAN-24")
