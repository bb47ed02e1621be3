"""Golden files: Oracle DDL / data statements in, PostgreSQL out (with notes), and every output
must parse with pglast."""

from __future__ import annotations

import pglast
import pytest

from migrator.convert.context import MARKER_TOKEN
from tests.golden import assert_golden, golden_cases
from tests.migrator.ddl_support import convert_golden_case

CASES = golden_cases("ddl") + golden_cases("data")


@pytest.mark.parametrize("name,src,expected", CASES, ids=[c[0] for c in CASES])
def test_golden(name, src, expected):
    assert_golden(convert_golden_case(name, src.read_text(encoding="utf-8"))[0], expected)


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
