"""Where raw sqlglot is wrong or silent, our output differs and is right; rule ids toggle output."""

from __future__ import annotations

import pglast
import psycopg
import pytest
import sqlglot

from migrator.convert.context import MARKER_TOKEN, unconverted_marker
from migrator.convert.oracompat.support import SUPPORT_SQL
from migrator.convert.sql.convert import convert_expression, convert_statement
from tests.migrator.sql_catalog import make_ctx


def raw(sql: str) -> str:
    return sqlglot.transpile(sql, read="oracle", write="postgres")[0]


# (Oracle SQL, substring that must be in our output, why sqlglot's output is wrong)
KNOWN_WRONG = [
    ("SELECT a.x FROM a, b WHERE a.id = b.id(+)", "LEFT JOIN", "drops (+) silently: inner join"),
    ("SELECT x FROM t WHERE ROWNUM <= 5", "LIMIT 5", "leaves ROWNUM"),
    (
        "SELECT empno FROM emp START WITH mgr IS NULL CONNECT BY PRIOR empno = mgr",
        "WITH RECURSIVE",
        "leaves CONNECT BY",
    ),
    ("SELECT 1 FROM dual", "SELECT 1", "leaves FROM dual"),  # ours has no FROM (ours != raw)
    ("SELECT s.NEXTVAL FROM t", "NEXTVAL('s')", "leaves seq.NEXTVAL"),
    ("SELECT ADD_MONTHS(hiredate, 1) FROM emp", "oracompat.add_months", "leaves ADD_MONTHS"),
    ("SELECT MONTHS_BETWEEN(hiredate, hiredate) FROM emp", "oracompat.months_between", "leaves MONTHS_BETWEEN"),
    ("SELECT TRUNC(SYSDATE) FROM dual", "DATE_TRUNC('day'", "prints invalid DATE_TRUNC('DD', ...)"),
    ("SELECT INSTR(s, ',', 1, 2) FROM t", "oracompat.instr(s, ',', 1, 2)", "drops the occurrence"),
    ("SELECT SUBSTR(s, 0, 2) FROM t", "oracompat.substr(s, 0, 2)", "SUBSTRING(s FROM 0 FOR 2) returns 1 char"),
    ("SELECT SUBSTR(s, -3, 2) FROM t", "oracompat.substr(s, -3, 2)", "negative start is not from the end"),
    ("SELECT GREATEST(a, b) FROM t", "IS NULL", "PostgreSQL GREATEST ignores NULLs"),
    ("SELECT SYSTIMESTAMP FROM dual", "CURRENT_TIMESTAMP", "prints SYSTIMESTAMP() which PostgreSQL lacks"),
    ("SELECT TO_NUMBER('0.1') FROM dual", "DECIMAL", "casts to DOUBLE PRECISION (binary rounding)"),
    ("SELECT TO_DATE('2024-01-01 10:00', 'YYYY-MM-DD HH24:MI') FROM dual", "TO_TIMESTAMP", "TO_DATE drops the time"),
    ("SELECT 'a' || NULL FROM dual", "CONCAT", "|| with NULL gives NULL in PostgreSQL"),
    ("SELECT '' FROM dual", "NULL", "'' is not NULL in PostgreSQL"),
    (
        "MERGE INTO t USING s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET t.v = s.v WHERE t.v <> s.v",
        "WHEN MATCHED AND t.v <> s.v",
        "drops the UPDATE ... WHERE filter",
    ),
    ("SELECT REPLACE(s, 'x') FROM t", "REPLACE(s, 'x', '')", "two-argument REPLACE does not exist in PostgreSQL"),
    ("SELECT TRIM(s) FROM t", "NULLIF(TRIM(s), '')", "an all-blank string trims to '' (Oracle: NULL)"),
    ("UPDATE t a SET a.v = 1", "SET v = 1", "qualified SET target is a composite field in PostgreSQL"),
    ("SELECT a.x FROM t a FOR UPDATE OF a.v", "FOR UPDATE OF a", "FOR UPDATE OF names tables in PostgreSQL"),
    ("SELECT x FROM t WHERE ROWNUM <= p", "LIMIT GREATEST(FLOOR(p), 0)", "LIMIT NULL means no limit"),
    (
        "SELECT TO_NUMBER(s, '990D00', 'NLS_NUMERIC_CHARACTERS='',.''') FROM t",
        "oracompat.to_number(s, '990D00', 'NLS_NUMERIC_CHARACTERS=",
        "keeps an NLS argument PostgreSQL does not accept (our to_number reads it: rule expr.to_number_format)",
    ),
]


@pytest.mark.parametrize("sql,needle,why", KNOWN_WRONG, ids=[w for _, _, w in KNOWN_WRONG])
def test_sqlglot_known_wrong(sql, needle, why):
    ours = convert_statement(sql, make_ctx())
    assert ours != raw(sql)
    assert needle in ours, ours
    pglast.parse_sql(ours)


def test_substr_zero_and_negative_execute_differently_from_sqlglot(pg_dsn):
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(SUPPORT_SQL)
        for sql, oracle in [
            ("SELECT SUBSTR('abcdef', 0, 2) FROM dual", "ab"),
            ("SELECT SUBSTR('abcdef', -3, 2) FROM dual", "de"),
            ("SELECT INSTR('a,b,c,d', ',', 1, 2) FROM dual", 4),
        ]:
            assert conn.execute(convert_statement(sql, make_ctx())).fetchone()[0] == oracle
            assert conn.execute(raw(sql).replace(" FROM dual", "")).fetchone()[0] != oracle


@pytest.mark.parametrize(
    "rule,sql",
    [
        ("expr.substr", "SELECT SUBSTR(s, 2, 3) FROM t"),
        ("sql.dual", "SELECT 1 FROM dual"),
        ("expr.decode", "SELECT DECODE(a, b, 1, 0) FROM t"),
        ("sql.rownum", "SELECT x FROM t WHERE ROWNUM <= 2"),
        ("expr.sysdate", "SELECT SYSDATE FROM t"),
        ("sql.outer_join_plus", "SELECT a.x FROM a, b WHERE a.id = b.id(+)"),
        ("expr.replace", "SELECT REPLACE(s, 'x') FROM t"),
        ("expr.empty_result_null", "SELECT LTRIM(s, '0') FROM t"),
        ("expr.implicit_to_text", "SELECT 'n=' || sal FROM emp"),
        ("expr.nls_numeric", "SELECT TO_CHAR(sal, '990D00', 'NLS_NUMERIC_CHARACTERS='',.''') FROM emp"),
        ("sql.update_set_target", "UPDATE t a SET a.v = 1"),
        ("sql.for_update_of", "SELECT a.x FROM t a FOR UPDATE OF a.v"),
    ],
)
def test_disabled_rule_changes_output(rule, sql):
    on, off = make_ctx(), make_ctx(disabled=frozenset({rule}))
    out_on, out_off = convert_statement(sql, on), convert_statement(sql, off)
    assert out_on != out_off
    assert rule in on.applied_rules and rule not in off.applied_rules


def test_disabling_a_family_disables_its_rules():
    ctx = make_ctx(disabled=frozenset({"expr.*"}))
    assert convert_expression("NVL2(a, 1, 2)", ctx) == "NVL2(a, 1, 2)"  # kept as Oracle wrote it
    assert not [r for r in ctx.applied_rules if r.startswith("expr.")]


@pytest.mark.parametrize(
    "sql,construct",
    [
        ("UPDATE t SET v = 1 WHERE id = 2 RETURNING v INTO x", "RETURNING INTO"),
        ("SELECT a FROM t WHERE x = :b1", "bind variable"),
        ("SELECT x FROM t WHERE ROWNUM > 5", "ROWNUM condition"),
        ("SELECT TRUNC(hiredate, 'WW') FROM emp", "TRUNC(date, format)"),
        ("SELECT ename, CONNECT_BY_ISCYCLE FROM emp CONNECT BY PRIOR empno = mgr", "CONNECT BY"),
        ("SELECT e.x FROM a e, b f WHERE e.id = f.id START WITH e.id = 1 CONNECT BY PRIOR e.id = e.p", "CONNECT BY"),
        ("SELECT NEW_TIME(hiredate, 'EST', 'PST') FROM emp", "NEW_TIME"),
        (
            "MERGE INTO t USING s ON (t.id = s.id) WHEN MATCHED THEN UPDATE SET v = 1 DELETE WHERE v = 2",
            "sql statement",
        ),
        ("SELECT FROM WHERE", "sql statement"),
    ],
)
def test_unconvertible_is_marked_not_dropped(sql, construct):
    ctx = make_ctx()
    out = convert_statement(sql, ctx)
    assert MARKER_TOKEN in out
    assert construct in [u.construct for u in ctx.unconverted_items]


@pytest.mark.parametrize(
    "construct, original",
    [
        ("PACKAGE", 'CREATE PACKAGE "x /* y" AS'),
        ('PACKAGE "a /* b"', ""),
        ("GOTO", "GOTO l */ SELECT 1; /*"),
    ],
)
def test_marker_comment_closes_whatever_the_original_holds(construct, original):
    # PostgreSQL nests /* comments: an unbalanced one inside would swallow the rest of the unit
    tokens = [t.name for t in pglast.parser.scan(unconverted_marker(construct, original) + "; SELECT 1")]
    assert tokens == ["C_COMMENT", "IDENT", "ASCII_59", "SELECT", "ICONST"]


def test_identifiers_and_plsql_names_pass_through():
    # Oracle's "ABC" and "T" are the objects ABC and T, i.e. PostgreSQL's abc and t; "Mixed" is not
    ctx = make_ctx()
    out = convert_statement('SELECT "ABC", "Mixed", v_x, new.col FROM "T" WHERE id = p_id', ctx)
    assert out == 'SELECT abc, "Mixed", v_x, new.col FROM t WHERE id = p_id'
    assert not ctx.unconverted_items


@pytest.mark.parametrize(
    "oracle, pg",
    [
        ("SELECT emp#, x FROM t", 'SELECT "emp#", x FROM t'),  # '#' is an operator in PostgreSQL
        ('SELECT "inner".a FROM "inner"', 'SELECT "inner".a FROM "inner"'),
        (
            'SELECT "USER", user FROM dual',
            'SELECT "user", oracompat.ora_user()',
        ),  # quoted: a column; bare: the built-in
        ('SELECT "ORDER", "Select" FROM "TABLE"', 'SELECT "order", "Select" FROM "table"'),
        ('SELECT "we;ird""x".nextval FROM dual', 'SELECT NEXTVAL(\'"we;ird""x"\')'),
        (
            'SELECT "My Func"(1), pkg."My Func"(2), calc#total(3) FROM dual',
            'SELECT "My Func"(1), pkg."My Func"(2), "calc#total"(3)',
        ),
        ('SELECT t."Order Lines" FROM "Order Lines" t', 'SELECT t."Order Lines" FROM "Order Lines" AS t'),
    ],
)
def test_names_quoted_exactly_when_postgresql_needs_it(oracle, pg):
    assert convert_statement(oracle, make_ctx()) == pg


def test_unknown_operand_types_keep_numeric_semantics():
    assert convert_expression("x + 1", make_ctx()) == "x + 1"
    assert "INTERVAL" in convert_expression("d + 1", make_ctx(), types={"d": "DATE"})


def test_comments_read_before_tables_do_not_hide_columns():
    """comments.sql sorts before tables.sql; COMMENT ON TABLE t must not take t's catalog entry."""
    from migrator.convert.context import Catalog, CatalogEntry
    from migrator.convert.schema_model import Table
    from migrator.source.units import UnitKind

    cat = Catalog("s")
    cat.add(CatalogEntry(UnitKind.COMMENT, "s", "emp", "comment:s.emp#1"))
    cat.add(CatalogEntry(UnitKind.DATA, "s", "emp", "data:s.emp#1"))
    cat.add(CatalogEntry(UnitKind.TABLE, "s", "emp", "table:s.emp", table=Table(column_types={"hired": "DATE"})))
    cat.add(CatalogEntry(UnitKind.COMMENT, "s", "emp", "comment:s.emp#2"))
    assert cat.lookup("emp").kind is UnitKind.TABLE


def test_a_parse_failure_says_where_the_parse_stopped():
    """SQL sqlglot cannot parse is reported with the text where it stopped, so the report's reader
    finds the construct; the text is in double quotes (reports group messages without it)."""
    ctx = make_ctx()
    convert_expression("'<a>' || x || '</a>' ) || y", ctx)
    [item] = ctx.unconverted_items
    assert item.construct == "sql expression"
    assert item.message.startswith("sqlglot could not parse: ")
    assert item.message.endswith(''' near "SELECT '<a>' || x || '</a>' )"''')
