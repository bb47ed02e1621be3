"""Every PL/SQL unit of the fixture schemas converts without a crash; its output parses with pglast,
unless the converter reported what it could not convert (then the output fails loudly by design)."""

from __future__ import annotations

from pathlib import Path

import pglast
import pytest

from tests.migrator.plsql_support import convert_all, fixture_units

SCHEMAS = sorted(p for p in (Path(__file__).parents[3] / "fixtures" / "schemas").glob("*") if p.is_dir())


@pytest.mark.parametrize("schema_dir", SCHEMAS, ids=lambda p: p.name)
def test_fixture_plsql_units_convert_and_parse(schema_dir):
    units = fixture_units(schema_dir)
    results = convert_all(units, schema_dir.name)
    assert results, "no PL/SQL units found"
    silent_failures = []
    for unit, text, unconverted, _, _ in results:
        try:
            pglast.parse_sql(text)
        except pglast.parser.ParseError as exc:
            if not unconverted:
                silent_failures.append((unit.name, str(exc)))
    assert not silent_failures
