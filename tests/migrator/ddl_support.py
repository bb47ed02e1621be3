"""Helpers for the DDL tests: build units and a catalog by hand (no reader needed)."""

from __future__ import annotations

from migrator.convert import plsql
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
    ctx = ConversionContext(catalog=Catalog(default_schema="hr"), rules=RuleSet(disabled=disabled))
    for u in units:
        ctx.catalog.add(CatalogEntry(u.kind, u.schema, u.name, u.id))
    ddl.prepare(units, ctx.catalog)
    plsql.prepare(units, ctx)  # signatures of functions, object and collection types
    return ctx


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
    (UnitKind.TYPE, "point_t", "CREATE TYPE point_t AS OBJECT (x NUMBER, y NUMBER)"),
    (UnitKind.TYPE, "point_list", "CREATE TYPE point_list AS TABLE OF point_t"),
    (UnitKind.TYPE, "word_list", "CREATE TYPE word_list AS TABLE OF VARCHAR2(100)"),
    (
        UnitKind.FUNCTION,
        "corners",
        "CREATE FUNCTION corners (p_n NUMBER) RETURN point_list PIPELINED IS BEGIN RETURN; END corners;",
    ),
    (UnitKind.FUNCTION, "words", "CREATE FUNCTION words (p_text VARCHAR2) RETURN word_list IS BEGIN RETURN NULL; END;"),
]


def convert_golden_case(name: str, text: str, disabled: frozenset[str] = frozenset()) -> tuple[str, ConversionContext]:
    """A golden DDL/data case (its kind from its name's prefix) converted beside the catalog units:
    the golden text (output, notes, rules) and the context it was converted in."""
    unit = make_unit(PREFIX_KIND[name.split("_", 1)[0]], name, text)
    ctx = context_for([unit, *(make_unit(k, n, t) for k, n, t in _CATALOG_UNITS)], disabled)
    return convert_with_report(unit, ctx), ctx
