"""Golden files for the PL/SQL converter: tests/golden/plsql/<case>.ora.sql → <case>.pg.sql.

Each output must also parse with pglast (statements, and every function body as PL/pgSQL)."""

from __future__ import annotations

import pytest

from migrator.batch.static_check import check_sql
from migrator.convert.context import MARKER_TOKEN
from tests.golden import assert_golden, golden_cases
from tests.migrator.plsql_support import convert_golden_case


def check_parses(sql: str) -> None:
    """As the product's static check: statements with pglast, every PL/pgSQL body too (a body
    libpg_query cannot compile offline, e.g. one naming a type outside pg_catalog, is left to
    deployment)."""
    result = check_sql(sql)
    assert result.ok, result.error


@pytest.mark.parametrize("name,src,expected", golden_cases("plsql"), ids=lambda v: v if isinstance(v, str) else "")
def test_plsql_golden(name, src, expected):
    unit, text, unconverted, applied, notes = convert_golden_case(src.read_text(encoding="utf-8"))
    header = f"-- rules: {', '.join(applied)}\n"
    if unconverted:
        header += "".join(f"-- unconverted: {u.construct}: {u.message}\n" for u in unconverted)
    assert_golden(header + text, expected)
    if unconverted:  # reported and marked: PostgreSQL must refuse it, as it refuses the marker
        assert MARKER_TOKEN in text
    else:
        check_parses(text)
