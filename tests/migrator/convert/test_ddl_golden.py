"""Golden files: Oracle DDL / data statements in, PostgreSQL out (with notes), and every output
must parse with pglast."""

from __future__ import annotations

import pglast
import pytest

from migrator.convert.context import MARKER_TOKEN
from migrator.source.units import UnitKind
from tests.golden import assert_golden, golden_cases
from tests.migrator.ddl_support import PREFIX_KIND, context_for, convert_with_report, make_unit

# Tables, sequences and types the golden statements refer to, so the catalog knows their kinds.
_CATALOG_UNITS = [
    (
        UnitKind.TABLE,
        "employees",
        "CREATE TABLE employees (employee_id NUMBER(10) PRIMARY KEY, "
        "last_name VARCHAR2(60), hire_date DATE, salary NUMBER(12,2), status CHAR(1), email VARCHAR2(120), "
        "department_id NUMBER(5), last_modified TIMESTAMP, termination_date DATE)",
    ),
    (
        UnitKind.TABLE,
        "departments",
        "CREATE TABLE departments (department_id NUMBER(5), department_name VARCHAR2(60), created_on DATE)",
    ),
    (
        UnitKind.TABLE,
        "events",
        "CREATE TABLE events (id NUMBER, name VARCHAR2(40), nick VARCHAR2(40), "
        "on_day DATE, at_ts TIMESTAMP, qty NUMBER, frac NUMBER)",
    ),
    (UnitKind.SEQUENCE, "employees_seq", "CREATE SEQUENCE employees_seq"),
]

CASES = golden_cases("ddl") + golden_cases("data")


def _kind(name: str) -> UnitKind:
    return PREFIX_KIND[name.split("_", 1)[0]]


@pytest.mark.parametrize("name,src,expected", CASES, ids=[c[0] for c in CASES])
def test_golden(name, src, expected):
    unit = make_unit(_kind(name), name, src.read_text(encoding="utf-8"))
    others = [make_unit(k, n, t) for k, n, t in _CATALOG_UNITS]
    ctx = context_for([unit, *others])
    assert_golden(convert_with_report(unit, ctx), expected)


@pytest.mark.parametrize("name,src,expected", CASES, ids=[c[0] for c in CASES])
def test_golden_output_parses(name, src, expected):
    if not expected.exists():
        pytest.skip("golden output not written yet")
    text = expected.read_text(encoding="utf-8")
    if MARKER_TOKEN in text:
        # Unconverted output must fail loudly rather than deploy something different.
        with pytest.raises(pglast.parser.ParseError):
            pglast.parse_sql(text)
        return
    pglast.parse_sql(text)
