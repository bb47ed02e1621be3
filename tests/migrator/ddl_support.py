"""Helpers for the DDL tests: build units and a catalog by hand (no reader needed)."""

from __future__ import annotations

from migrator.convert.context import Catalog, CatalogEntry, ConversionContext, RuleSet
from migrator.convert.ddl import dispatch as ddl
from migrator.source.units import SourceSpan, Unit, UnitKind

# Golden file name prefix → unit kind.
PREFIX_KIND = {
    "table": UnitKind.TABLE,
    "index": UnitKind.INDEX,
    "sequence": UnitKind.SEQUENCE,
    "view": UnitKind.VIEW,
    "mview": UnitKind.MATERIALIZED_VIEW,
    "comment": UnitKind.COMMENT,
    "grant": UnitKind.GRANT,
    "revoke": UnitKind.GRANT,
    "synonym": UnitKind.SYNONYM,
    "type": UnitKind.TYPE,
    "alter": UnitKind.ALTER,
    "other": UnitKind.OTHER,
    "insert": UnitKind.DATA,
    "update": UnitKind.DATA,
    "delete": UnitKind.DATA,
}


def make_unit(kind: UnitKind, name: str, text: str, schema: str = "hr") -> Unit:
    text = text.strip().rstrip(";").rstrip()
    return Unit(
        id=f"{kind.value}:{schema}.{name}",
        kind=kind,
        schema=schema,
        name=name,
        text=text,
        span=SourceSpan("test.sql", 1, text.count("\n") + 1, 0, len(text)),
    )


def context_for(units: list[Unit], disabled: frozenset[str] = frozenset()) -> ConversionContext:
    catalog = Catalog(default_schema="hr")
    for u in units:
        catalog.add(CatalogEntry(u.kind, u.schema, u.name, u.id))
    ddl.prepare(units, catalog)
    return ConversionContext(catalog=catalog, rules=RuleSet(disabled=disabled))


def convert(unit: Unit, ctx: ConversionContext) -> str:
    ctx.begin_unit()
    return ddl.convert_unit(unit, ctx)


def convert_with_report(unit: Unit, ctx: ConversionContext) -> str:
    """Output followed by the notes and unconverted items as SQL comments (golden format)."""
    out = convert(unit, ctx)
    lines = [out]
    lines += [f"-- unconverted: {u.construct}: {u.message}" for u in ctx.unconverted_items]
    lines += [f"-- note: {n}" for n in ctx.notes]
    lines += [f"-- rules: {', '.join(ctx.applied_rules)}"] if ctx.applied_rules else []
    return "\n".join(lines)
