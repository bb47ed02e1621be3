"""Helpers for the PL/SQL tests: crude splitting of fixture files and a catalog over them."""

from __future__ import annotations

import re
from pathlib import Path

from migrator.convert import plsql, supplied
from migrator.convert.compile_target import Compilation
from migrator.convert.context import Catalog, CatalogEntry, ConversionContext, RuleSet
from migrator.convert.ddl import dispatch as ddl
from migrator.convert.plsql.prepare import compiled_text, static_constants
from migrator.source.units import SourceSpan, Unit, UnitKind

_HEAD = re.compile(
    r"(?is)^\s*(?:CREATE\s+(?:OR\s+REPLACE\s+)?(?:(?:NON)?EDITIONABLE\s+)?"
    r"(PACKAGE\s+BODY|PACKAGE|FUNCTION|PROCEDURE|TRIGGER|TYPE\s+BODY|TYPE|TABLE)\s+"
    r"(?:\w+\.)?\"?(\w+)\"?|(DECLARE|BEGIN))"
)
_KINDS = {
    "PACKAGE BODY": UnitKind.PACKAGE_BODY,
    "PACKAGE": UnitKind.PACKAGE_SPEC,
    "FUNCTION": UnitKind.FUNCTION,
    "PROCEDURE": UnitKind.PROCEDURE,
    "TRIGGER": UnitKind.TRIGGER,
    "TYPE BODY": UnitKind.TYPE_BODY,
    "TYPE": UnitKind.TYPE,
    "TABLE": UnitKind.TABLE,
}


def _strip_comments(chunk: str) -> str:
    lines = chunk.split("\n")
    while lines and (not lines[0].strip() or lines[0].strip().startswith("--")):
        lines.pop(0)
    return "\n".join(lines).strip()


def make_unit(text: str, schema: str = "s", n: int = 0) -> Unit | None:
    text = _strip_comments(text).rstrip().rstrip("/").rstrip()
    m = _HEAD.match(text)
    if not m:
        return None
    if m.group(3):
        kind, name = UnitKind.ANONYMOUS_BLOCK, f"block{n}"
    else:
        kind, name = _KINDS[re.sub(r"\s+", " ", m.group(1).upper())], m.group(2).lower()
    span = SourceSpan("x.sql", 1, text.count("\n") + 1, 0, len(text))
    return Unit(f"{kind.value}:{schema}.{name}#{n}", kind, schema, name, text, span)


def split_sql(text: str, schema: str = "s") -> list[Unit]:
    """Units from a SQL*Plus script: PL/SQL ends at '/', tables at ';' (crude, for tests)."""
    units = []
    for n, chunk in enumerate(re.split(r"(?m)^\s*/\s*$", text)):
        chunk = _strip_comments(chunk)
        while chunk:
            u = make_unit(chunk, schema, len(units) + n * 100)
            if u is None or u.kind in (UnitKind.TABLE, UnitKind.TYPE) and "BODY" not in chunk[:40].upper():
                # plain SQL statements end at ';' — take one statement
                end = chunk.find(";\n")
                stmt = chunk if end < 0 else chunk[: end + 1]
                if u is not None:
                    u.text = stmt.rstrip(";")
                    units.append(u)
                chunk = _strip_comments(chunk[len(stmt) :])
                continue
            units.append(u)
            break
    return units


def context_for(units: list[Unit], schema: str = "s", disabled: frozenset[str] = frozenset()) -> ConversionContext:
    """The context as `migrator.convert.dispatch.prepare_context` builds it: the DDL converter's
    pass (column types for the SQL rules), then the PL/SQL passes."""
    compilation = Compilation(constants=static_constants(units))
    ctx = ConversionContext(
        catalog=Catalog(default_schema=schema), rules=RuleSet(disabled=disabled), compilation=compilation
    )
    for u in units:
        ctx.catalog.add(CatalogEntry(u.kind, u.schema, u.name, u.id))
    ddl.prepare(units, ctx.catalog)
    plsql.prepare(units, ctx)
    return ctx


def convert_all(units: list[Unit], schema: str = "s", disabled: frozenset[str] = frozenset()):
    ctx = context_for(units, schema, disabled)
    cat = ctx.catalog
    out = []
    for u in units:
        if not u.kind.is_plsql:
            continue
        ctx.begin_unit()
        text = plsql.convert_unit(u, ctx)
        # as migrator.convert.dispatch does: packages without an equivalent reported once per unit
        source = compiled_text(u, ctx) if u.kind.is_plsql else u.text
        text = supplied.report_redesign(source, text, ctx, lambda name: cat.lookup(schema, name) is not None)
        out.append((u, text, list(ctx.unconverted_items), list(ctx.applied_rules), list(ctx.notes)))
    return out


def fixture_units(schema_dir: Path) -> list[Unit]:
    units = []
    for f in sorted(schema_dir.iterdir()):
        if f.is_file():
            units += split_sql(f.read_text(encoding="utf-8", errors="replace"), schema_dir.name)
    return units


# The package spec and table the golden PL/SQL cases use.
SPEC = """CREATE OR REPLACE PACKAGE counter_pkg AS
  c_step CONSTANT PLS_INTEGER := 2;
  g_count PLS_INTEGER := 0;
  FUNCTION next_val RETURN PLS_INTEGER;
  PROCEDURE reset;
END counter_pkg"""
TABLE = "CREATE TABLE emp (id NUMBER(10), name VARCHAR2(40), salary NUMBER(10,2), dept NUMBER(5))"
# A schema-level object type with a constructor, a member and a static method, and a nested table of it.
TYPE_SPEC = """CREATE OR REPLACE TYPE point_t AS OBJECT (
  x NUMBER,
  y NUMBER,
  CONSTRUCTOR FUNCTION point_t (p_xy IN VARCHAR2) RETURN SELF AS RESULT,
  MEMBER FUNCTION norm1 RETURN NUMBER,
  STATIC FUNCTION origin RETURN point_t
)"""
TYPE_LIST = "CREATE OR REPLACE TYPE point_list AS TABLE OF point_t"
TYPE_BODY = """CREATE OR REPLACE TYPE BODY point_t AS
  CONSTRUCTOR FUNCTION point_t (p_xy IN VARCHAR2) RETURN SELF AS RESULT IS
  BEGIN
    SELF.x := TO_NUMBER(SUBSTR(p_xy, 1, INSTR(p_xy, ',') - 1));
    y := TO_NUMBER(SUBSTR(p_xy, INSTR(p_xy, ',') + 1));
    RETURN;
  END;
  MEMBER FUNCTION norm1 RETURN NUMBER IS
  BEGIN
    RETURN ABS(x) + ABS(y);
  END;
  STATIC FUNCTION origin RETURN point_t IS
  BEGIN
    RETURN point_t(0, 0);
  END;
END;"""


def convert_golden_case(text: str, disabled: frozenset[str] = frozenset()):
    """A golden PL/SQL case converted after the golden table and package spec: (unit, output,
    unconverted, applied rules, notes)."""
    units = [make_unit(TABLE, n=1), make_unit(SPEC, n=2)]
    units += [make_unit(TYPE_SPEC, n=4), make_unit(TYPE_LIST, n=5), make_unit(TYPE_BODY, n=6), make_unit(text, n=3)]
    return convert_all(units, disabled=disabled)[-1]
