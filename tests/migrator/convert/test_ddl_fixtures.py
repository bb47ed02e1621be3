"""Smoke check on the bundled fixture schemas: every DDL unit converts without a crash, parses
(or is visibly marked unconverted), and the structural objects deploy in dependency order."""

from __future__ import annotations

from pathlib import Path

import pglast
import psycopg
import pytest

from migrator.convert.context import MARKER_TOKEN, Catalog, CatalogEntry, ConversionContext
from migrator.convert.ddl import dispatch as ddl
from migrator.convert.oracompat.support import SUPPORT_SQL
from migrator.source.units import UnitKind as K

SCHEMAS = sorted(
    p for p in (Path(__file__).parents[3] / "fixtures" / "schemas").iterdir() if p.is_dir() and any(p.iterdir())
)
# Kinds whose conversion is entirely this package's (views and data also depend on the SQL converter).
STRUCTURAL = {K.TABLE, K.INDEX, K.SEQUENCE, K.COMMENT, K.TYPE, K.ALTER, K.SYNONYM, K.GRANT}


def _convert_schema(path: Path):
    source_mod = pytest.importorskip("migrator.source.reader")
    depgraph = pytest.importorskip("migrator.source.dependencies")
    src = source_mod.read_schema_dir(path)
    catalog = Catalog(src.schema)
    for u in src.units:
        catalog.add(CatalogEntry(u.kind, u.schema, u.name, u.id))
    ddl.prepare(src.units, catalog)
    ctx = ConversionContext(catalog)
    by_id = src.by_id()
    results = []
    for uid in depgraph.analyze_dependencies(src).order:
        unit = by_id[uid]
        if unit.kind in STRUCTURAL:
            ctx.begin_unit()
            results.append((unit, ddl.convert_unit(unit, ctx), list(ctx.unconverted_items)))
    return src.schema, results


@pytest.mark.parametrize("path", SCHEMAS, ids=[p.name for p in SCHEMAS])
def test_fixture_ddl_converts_and_parses(path):
    _, results = _convert_schema(path)
    assert results
    for unit, out, unconverted in results:
        if MARKER_TOKEN in out:
            assert unconverted, f"{unit.id}: marker without a report entry"
            continue
        pglast.parse_sql(out)


@pytest.mark.parametrize("path", SCHEMAS, ids=[p.name for p in SCHEMAS])
def test_fixture_ddl_deploys(path, pg_dsn):
    schema, results = _convert_schema(path)
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(SUPPORT_SQL)  # DEFAULT SYSDATE calls oracompat.sysdate()
        conn.execute(f"CREATE SCHEMA IF NOT EXISTS {schema}; SET search_path = {schema}, public")
        for unit, out, unconverted in results:
            if unconverted:
                continue
            try:
                conn.execute(out)
            except psycopg.Error as exc:
                raise AssertionError(f"{unit.id} failed to deploy: {exc}\n{out}") from exc
