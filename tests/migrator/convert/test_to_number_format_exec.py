"""TO_NUMBER(text, format model) reads the text against the model, as Oracle does (issue #33.4a).

Oracle Database SQL Language Reference: "TO_NUMBER" (expr "containing a number in the format
specified by the optional format model") and "Format Models" → "Number Format Models" (Table
"Number Format Elements": `,` `.` `$` `0` `9` `B` `C` `D` `EEEE` `G` `L` `MI` `PR` `S` `TM` `U`
`V` `X`, and the FM modifier). Text that does not fit the model is ORA-01722 (invalid number): a
group separator where the model has none, more fraction digits than the model has, more integer
digits than it has. A model that mixes `.`/`,` with D/G is ORA-01481. PostgreSQL's own to_number
skips what it cannot place: TO_NUMBER('1,5', '9,999,990.99') is 15 there, '1.234,56' 1.23 and
'-12,00' -1200 — each silently wrong, the last test shows it with rule expr.to_number_format off.
"""

from __future__ import annotations

from decimal import Decimal

import psycopg
import pytest

from harness.engines.postgres import scratch_database
from harness.ground_truth.oracle_errors import sqlstate_matches_ora
from migrator.convert.oracompat.support import SUPPORT_SQL
from migrator.convert.sql.convert import convert_expression
from tests.migrator.sql_catalog import make_ctx


@pytest.fixture(scope="module")
def db(pg_engine):
    with scratch_database(pg_engine, prefix="tonum") as dsn, psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(SUPPORT_SQL)
        yield conn


def _value(conn, oracle_expr: str, disabled: frozenset[str] = frozenset()):
    ctx = make_ctx(disabled)
    sql = convert_expression(oracle_expr, ctx)
    assert not ctx.unconverted_items, ctx.unconverted_items
    return conn.execute(f"SELECT {sql}").fetchone()[0]


NLS_DE = "'NLS_NUMERIC_CHARACTERS='',.'''"

# (Oracle expression, Oracle's result)
RESULTS = [
    ("TO_NUMBER('1,234.50', '9,999,990.99')", Decimal("1234.5")),
    ("TO_NUMBER('1234.5', '9,999,990.99')", Decimal("1234.5")),  # a group separator may be left out
    ("TO_NUMBER('5', '9,999')", Decimal("5")),
    ("TO_NUMBER('  -12.5', '99.9')", Decimal("-12.5")),  # TO_CHAR's blank sign position
    ("TO_NUMBER('.5', '9.9')", Decimal("0.5")),
    ("TO_NUMBER('12-', '99MI')", Decimal("-12")),
    ("TO_NUMBER('12', '99MI')", Decimal("12")),
    ("TO_NUMBER('<12>', '99PR')", Decimal("-12")),
    ("TO_NUMBER('+7', 'S9')", Decimal("7")),
    ("TO_NUMBER('7-', '9S')", Decimal("-7")),
    ("TO_NUMBER('$1,234.50', '$9,999.99')", Decimal("1234.5")),
    ("TO_NUMBER('ff', 'XX')", Decimal("255")),
    ("TO_NUMBER('1.2E+03', '9.9EEEE')", Decimal("1200")),
    ("TO_NUMBER('12345', '999V99')", Decimal("123.45")),
    ("TO_NUMBER('1,234.56', 'FM9G999D99')", Decimal("1234.56")),
    (f"TO_NUMBER('1.234,56', '9G999D99', {NLS_DE})", Decimal("1234.56")),
    ("TO_NUMBER('42', 'TM')", Decimal("42")),
    ("TO_NUMBER(NULL, '999')", None),
]

# (Oracle expression, Oracle error)
ERRORS = [
    ("TO_NUMBER('1,5', '9,999,990.99')", -1722),  # the separator is not where the model has it
    ("TO_NUMBER('1.234,56', '9,999,990.99')", -1722),  # a separator after the decimal point
    ("TO_NUMBER('-12,00', '9,999,990.99')", -1722),
    ("TO_NUMBER('1.234', '9.99')", -1722),  # more fraction digits than the model
    ("TO_NUMBER('12345', '999')", -1722),  # more integer digits than the model
    ("TO_NUMBER('12.5', '999')", -1722),  # a decimal point the model does not have
    ("TO_NUMBER('abc', '999')", -1722),
    ("TO_NUMBER('fff', 'XX')", -1722),
    ("TO_NUMBER('1,234', '99G999.99')", -1481),  # G mixed with '.'
    ("TO_NUMBER('12', '99Q')", -1481),  # no such element
]


@pytest.mark.parametrize("expr,expected", RESULTS)
def test_to_number_reads_the_text_against_the_model(db, expr, expected):
    assert _value(db, expr) == expected


@pytest.mark.parametrize("expr,ora", ERRORS)
def test_to_number_refuses_text_that_does_not_fit(db, expr, ora):
    with pytest.raises(psycopg.Error) as err:
        _value(db, expr)
    assert sqlstate_matches_ora(err.value.sqlstate, ora), (err.value.sqlstate, str(err.value))


def test_a_number_argument_is_read_as_its_text(db):
    """TO_NUMBER(123.56, '999.9'): the number becomes text first ('123.56'), which the model
    refuses (two fraction digits); with '999.99' it reads back."""
    with pytest.raises(psycopg.Error):
        _value(db, "TO_NUMBER(123.56, '999.9')")
    assert _value(db, "TO_NUMBER(123.56, '999.99')") == Decimal("123.56")


def test_with_the_rule_off_postgresql_answers_silently_wrong(db):
    off = frozenset({"expr.to_number_format"})
    assert _value(db, "TO_NUMBER('1,5', '9,999,990.99')", off) == Decimal("15")
    assert _value(db, "TO_NUMBER('1.234', '9.99')", off) == Decimal("1.23")
