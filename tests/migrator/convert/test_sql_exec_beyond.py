"""Converted SQL for the constructs beyond the first list (intervals, NEXT_DAY, REMAINDER, PIVOT and
UNPIVOT, REGEXP_* match parameters, KEEP (DENSE_RANK), CONNECT BY NOCYCLE / CONNECT_BY_ISCYCLE and
loops, RATIO_TO_REPORT, CHAR blank-padding, NLS formats) run on a real PostgreSQL and give the
results Oracle 19c documents."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal

import psycopg
import pytest

from migrator.convert.oracompat.support import SUPPORT_SQL
from migrator.convert.sql.convert import convert_expression, convert_statement
from tests.migrator.convert.test_sql_exec import SETUP
from tests.migrator.sql_catalog import make_ctx


@pytest.fixture(scope="module")
def db(pg_engine):
    from harness.engines.postgres import scratch_database

    with scratch_database(pg_engine, prefix="beyond") as dsn, psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(SUPPORT_SQL)
        conn.execute(SETUP)
        yield conn


def rows(conn, oracle_sql: str, rule: str | None = None, types=None):
    ctx = make_ctx()
    sql = convert_statement(oracle_sql, ctx, types=types)
    assert not ctx.unconverted_items, ctx.unconverted_items
    if rule:
        assert rule in ctx.applied_rules, (rule, ctx.applied_rules)
    return conn.execute(sql).fetchall()


def value(conn, oracle_expr: str, rule: str | None = None, types=None):
    ctx = make_ctx()
    sql = convert_expression(oracle_expr, ctx, types=types)
    assert not ctx.unconverted_items, ctx.unconverted_items
    if rule:
        assert rule in ctx.applied_rules, (rule, ctx.applied_rules)
    return conn.execute(f"SELECT {sql}").fetchone()[0]


def test_interval_functions_and_arithmetic(db):
    rule = "expr.interval_functions"
    assert value(db, "DATE '2024-01-31' + NUMTODSINTERVAL(36, 'HOUR')", rule) == dt.datetime(2024, 2, 1, 12)
    assert value(db, "DATE '2024-01-31' - NUMTODSINTERVAL(1.5, 'day')", rule) == dt.datetime(2024, 1, 29, 12)
    assert value(db, "DATE '2024-01-30' + NUMTOYMINTERVAL(2, 'MONTH')", rule) == dt.datetime(2024, 3, 30)
    with pytest.raises(psycopg.Error) as no_day:  # ORA-01839: 31 February does not exist (no ADD_MONTHS clamp)
        value(db, "DATE '2024-01-31' + NUMTOYMINTERVAL(1, 'MONTH')")
    assert no_day.value.sqlstate == "OS839"
    assert value(db, "DATE '2024-01-31' + TO_DSINTERVAL('2 10:00:00')", rule) == dt.datetime(2024, 2, 2, 10)
    assert value(db, "DATE '2024-01-30' - TO_YMINTERVAL('01-02')", rule) == dt.datetime(2022, 11, 30)
    # DATE + INTERVAL is a DATE: subtracting a DATE gives days
    assert value(db, "(DATE '2024-01-31' + NUMTODSINTERVAL(12, 'HOUR')) - DATE '2024-01-31'", rule) == Decimal("0.5")
    assert value(db, "EXTRACT(HOUR FROM NUMTODSINTERVAL(90, 'MINUTE'))", rule) == 1
    with pytest.raises(psycopg.Error) as err:  # ORA-01760 for a unit Oracle does not know
        value(db, "NUMTODSINTERVAL(1, 'WEEK')")
    assert err.value.sqlstate == "OS760"


def test_next_day_and_remainder(db):
    assert value(db, "NEXT_DAY(DATE '2024-03-13', 'FRIDAY')", "expr.next_day") == dt.datetime(2024, 3, 15)
    assert value(db, "NEXT_DAY(TO_DATE('2024-03-15 08:30', 'YYYY-MM-DD HH24:MI'), 'fri')") == dt.datetime(
        2024, 3, 22, 8, 30
    )
    assert rows(db, "SELECT REMAINDER(sal, 1000), MOD(sal, 1000) FROM emp WHERE empno = 2", "expr.remainder") == [
        (Decimal("-25.00"), Decimal("975.00"))  # 2975 / 1000 rounds to 3
    ]
    assert value(db, "REMAINDER(10, 4)") == 2 and value(db, "REMAINDER(14, 4)") == -2  # ties to the even


def test_pivot_and_unpivot(db):
    got = rows(
        db,
        "SELECT * FROM (SELECT deptno, job, sal FROM emp) "
        "PIVOT (SUM(sal) AS total, COUNT(*) AS n FOR job IN ('MGR' AS mgr, 'ANALYST' AS analyst)) "
        "WHERE deptno IS NOT NULL ORDER BY deptno",
        "sql.pivot",
    )
    assert got == [
        (10, None, 0, None, 0),
        (20, Decimal("2975.00"), 1, Decimal("3000.00"), 1),
        (30, Decimal("2850.00"), 1, None, 0),
    ]
    # a value without an alias names its column as Oracle does: 'CLERK', quotes included
    got = rows(
        db,
        "SELECT deptno, \"'CLERK'\" FROM (SELECT deptno, job, sal FROM emp) PIVOT (MAX(sal) FOR job IN ('CLERK')) "
        "ORDER BY deptno NULLS FIRST",
    )
    assert got == [(None, None), (10, None), (20, Decimal("1100.00")), (30, None)]
    got = rows(
        db,
        "SELECT empno, kind, amount FROM emp UNPIVOT (amount FOR kind IN (sal AS 'SALARY', comm)) "
        "WHERE empno IN (5, 6) ORDER BY empno, kind",
        "sql.pivot",
    )
    assert got == [(5, "SALARY", Decimal("1100.00")), (6, "COMM", Decimal("300.00")), (6, "SALARY", Decimal("1600.00"))]
    got = rows(db, "SELECT COUNT(*) FROM emp UNPIVOT INCLUDE NULLS (amount FOR kind IN (sal, comm))")
    assert got == [(14,)]  # INCLUDE NULLS keeps the 6 NULL commissions


def test_regexp_match_parameters(db):
    rule = "expr.regexp_match"
    ab = "'a' || CHR(10) || 'b'"
    assert value(db, f"CASE WHEN REGEXP_LIKE({ab}, '^a.b$') THEN 1 ELSE 0 END", rule) == 0  # '.' is no newline
    assert value(db, f"CASE WHEN REGEXP_LIKE({ab}, '^a.b$', 'n') THEN 1 ELSE 0 END") == 1
    assert value(db, f"CASE WHEN REGEXP_LIKE({ab}, '^b$') THEN 1 ELSE 0 END") == 0  # ^ $: the whole string
    assert value(db, f"CASE WHEN REGEXP_LIKE({ab}, '^b$', 'm') THEN 1 ELSE 0 END") == 1
    assert value(db, "CASE WHEN REGEXP_LIKE('ABC', 'abc', 'ci') THEN 1 ELSE 0 END") == 1  # the last wins
    assert value(db, "CASE WHEN REGEXP_LIKE('ABC', 'abc', 'ic') THEN 1 ELSE 0 END") == 0
    assert value(db, "CASE WHEN REGEXP_LIKE('abc', 'a b c', 'x') THEN 1 ELSE 0 END") == 1
    assert value(db, "REGEXP_SUBSTR('a,b,,c', '[^,]+', 1, 3)") == "c"
    assert value(db, "REGEXP_SUBSTR('abc', 'x*')") is None  # an empty match is NULL
    assert value(db, "REGEXP_INSTR('aXbX', 'x', 1, 2, 1, 'i')") == 5
    assert value(db, f"REGEXP_COUNT({ab} || CHR(10) || 'a', '^a', 1, 'm')") == 2
    assert value(db, "REGEXP_REPLACE('aaa', 'a', 'b')") == "bbb"  # every match, not the first
    assert value(db, "REGEXP_REPLACE('aaa', 'a', 'b', 2)") == "abb"
    assert value(db, "REGEXP_REPLACE('aaa', 'a', 'b', 1, 2)") == "aba"
    assert value(db, "REGEXP_REPLACE('aaa', 'a')") is None


def test_keep_dense_rank_first_and_last(db):
    got = rows(
        db,
        "SELECT deptno, MAX(ename) KEEP (DENSE_RANK FIRST ORDER BY sal), "
        "MIN(ename) KEEP (DENSE_RANK LAST ORDER BY sal), COUNT(*) KEEP (DENSE_RANK LAST ORDER BY sal) "
        "FROM emp WHERE deptno IS NOT NULL GROUP BY deptno ORDER BY deptno",
        "expr.keep_dense_rank",
    )
    assert got == [(10, "KING", "KING", 1), (20, "ADAMS", "SCOTT", 1), (30, "ALLEN", "BLAKE", 1)]
    got = rows(
        db,
        "SELECT empno, MIN(hiredate) KEEP (DENSE_RANK LAST ORDER BY sal) OVER (PARTITION BY job) "
        "FROM emp WHERE job = 'ANALYST' ORDER BY empno",
    )
    # both analysts earn 3000: the earliest hire date of the tied rows
    assert got == [(4, dt.datetime(2021, 12, 3)), (7, dt.datetime(2021, 12, 3))]


def test_ratio_to_report(db):
    got = rows(
        db,
        "SELECT empno, RATIO_TO_REPORT(sal) OVER (PARTITION BY deptno) FROM emp WHERE deptno = 30 ORDER BY empno",
        "expr.ratio_to_report",
    )
    assert [(e, round(r, 15)) for e, r in got] == [
        (3, round(Decimal(2850) / Decimal(4450), 15)),
        (6, round(Decimal(1600) / Decimal(4450), 15)),
    ]


def test_grouping_id_is_the_bit_vector_of_the_grouping_columns(db):
    """GROUPING_ID(deptno, job): 0 on detail rows, 1 when job is aggregated away, 2 for deptno,
    3 on the grand total (Oracle SQL Language Reference, GROUPING_ID)."""
    got = rows(
        db,
        "SELECT deptno, job, GROUPING_ID(deptno, job) gid, SUM(sal) FROM emp WHERE deptno IN (10, 30)"
        " GROUP BY CUBE (deptno, job) ORDER BY gid, deptno, job",
        "expr.grouping_id",
    )
    assert [r[2] for r in got] == [0, 0, 0, 1, 1, 2, 2, 2, 3]
    assert got[-1][3] == Decimal(5000 + 2850 + 1600)
    assert got[3][:3] == (10, None, 1) and got[5][:3] == (None, "MGR", 2)


def test_translate_using_is_the_text_itself(db):
    """TRANSLATE(x USING NCHAR_CS | CHAR_CS) converts between Oracle's two character sets: the same
    characters. The three-argument TRANSLATE beside it is still the character mapping."""
    got = rows(
        db,
        "SELECT TRANSLATE(ename USING NCHAR_CS), TRANSLATE(TRANSLATE(ename, 'AE', 'ae') USING CHAR_CS) || '!'"
        " FROM emp WHERE empno IN (1, 2) ORDER BY empno",
        "expr.translate_using",
    )
    assert got == [("KING", "KING!"), ("JONES", "JONeS!")]


def test_connect_by_nocycle_iscycle_and_loops(pg_dsn):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(SUPPORT_SQL)
        conn.execute(SETUP)
        conn.execute("UPDATE emp SET mgr = 5 WHERE empno = 1")  # KING reports to ADAMS: a loop
        got = rows(
            conn,
            "SELECT empno, LEVEL, CONNECT_BY_ISCYCLE FROM emp START WITH empno = 1 "
            "CONNECT BY NOCYCLE PRIOR empno = mgr ORDER SIBLINGS BY empno",
            "sql.connect_by",
        )
        assert got == [(1, 1, 0), (2, 2, 0), (4, 3, 0), (5, 4, 1), (7, 3, 0), (3, 2, 0), (6, 3, 0)]
        ctx = make_ctx()
        sql = convert_statement("SELECT empno FROM emp START WITH empno = 1 CONNECT BY PRIOR empno = mgr", ctx)
        with pytest.raises(psycopg.Error) as err:  # ORA-01436: CONNECT BY loop in user data
            conn.execute(sql).fetchall()
        assert err.value.sqlstate == "OS436"


def test_char_is_blank_padded(db):
    types = {"v_code": "CHAR(6)", "v_text": "VARCHAR2(10)"}
    rule = "expr.char_semantics"
    setup = "DO $$ BEGIN CREATE TEMP TABLE pad (v_code char(6), v_text varchar(10)); END $$"
    db.execute(setup)
    db.execute("INSERT INTO pad VALUES ('AB', 'AB'), (NULL, NULL)")
    got = rows(db, "SELECT v_code || '|' || LENGTH(v_code), SUBSTR(v_code, 3) FROM pad ORDER BY 1", rule, types)
    assert got == [("AB    |6", "    "), ("|", None)]
    # CHAR with VARCHAR2: no blank-padding; CHAR with a literal: blank-padded
    assert rows(db, "SELECT COUNT(*) FROM pad WHERE v_code = v_text", rule, types) == [(0,)]
    assert rows(db, "SELECT COUNT(*) FROM pad WHERE v_code = 'AB'", types=types) == [(1,)]


def test_nls_formats(pg_dsn):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(SUPPORT_SQL)
        conn.execute("SET oracompat.fixed_date = '2024-06-01 00:00:00'")
        rule = "expr.to_date"
        # RR: two digits go to the century nearest the current year (PostgreSQL's YY: 2055)
        assert value(conn, "TO_DATE('01-JAN-55', 'DD-MON-RR')", rule) == dt.datetime(1955, 1, 1)
        assert value(conn, "TO_DATE('01-JAN-24', 'DD-MON-RR')") == dt.datetime(2024, 1, 1)
        assert value(conn, "TO_DATE('01-JAN-2055', 'DD-MON-RRRR')") == dt.datetime(2055, 1, 1)
        # no format: NLS_DATE_FORMAT DD-MON-RR
        assert value(conn, "TO_DATE('15-MAR-62')", rule) == dt.datetime(1962, 3, 15)
        assert value(conn, "TO_CHAR(DATE '2024-03-05', 'Day, DD Month YYYY')", "expr.to_char") == (
            "Tuesday  , 05 March     2024"
        )
        assert value(conn, "TO_CHAR(1234567.891, '999G999G999D99')") == "   1,234,567.89"
        ctx = make_ctx()  # a spelled-out year has no PostgreSQL template: reported, not dropped
        convert_expression("TO_CHAR(SYSDATE, 'YEAR')", ctx)
        assert [u.construct for u in ctx.unconverted_items] == ["TO_CHAR format"]
        # a format model known only at run time is translated there, the same way
        got = rows(
            conn,
            "SELECT TO_DATE(s, f), TO_TIMESTAMP(s2, f2), TO_CHAR(DATE '2024-03-05', f3) FROM (SELECT '01-JAN-55' AS s,"
            " 'DD-MON-RR' AS f, '2024-03-05 10:11:12.123457' AS s2, 'YYYY-MM-DD HH24:MI:SS.FF' AS f2,"
            " 'DD.MM.RRRR \"rr\" SSSSS' AS f3 FROM dual)",
            rule,
        )
        # SSSSS has five digits outside fill mode (midnight is 00000)
        assert got == [(dt.datetime(1955, 1, 1), dt.datetime(2024, 3, 5, 10, 11, 12, 123457), "05.03.2024 rr 00000")]
        with pytest.raises(psycopg.errors.InvalidDatetimeFormat):
            rows(conn, "SELECT TO_DATE('two', f) FROM (SELECT 'DDSP' AS f FROM dual)")
