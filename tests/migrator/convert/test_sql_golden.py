"""Golden files: tests/golden/sql/<case>.ora.sql → <case>.pg.sql; every output re-parses with pglast."""

from __future__ import annotations

import pglast
import pytest

from migrator.convert.context import MARKER_TOKEN
from migrator.convert.sql.convert import convert_statement
from tests.golden import assert_golden, golden_cases
from tests.migrator.sql_catalog import make_ctx

CASES = golden_cases("sql")


@pytest.mark.parametrize("name,src,expected", CASES, ids=[c[0] for c in CASES])
def test_sql_golden(name, src, expected):
    ctx = make_ctx()
    out = convert_statement(src.read_text(encoding="utf-8").strip(), ctx)
    assert_golden(out, expected)
    if name.startswith("unconverted_"):
        assert MARKER_TOKEN in out and ctx.unconverted_items
    else:
        assert not ctx.unconverted_items, ctx.unconverted_items
        pglast.parse_sql(out)


def test_golden_corpus_is_not_empty():
    assert len(CASES) >= 20
