"""Dispatch one unit to the converter for its kind, and build the catalog the converters share."""

from __future__ import annotations

import re
import traceback

from harness.quoting import pg_string, quote_ident
from migrator.convert import plsql, supplied
from migrator.convert.compile_target import Compilation, CompileTarget
from migrator.convert.context import (
    MARKER_TOKEN,
    Catalog,
    CatalogEntry,
    Conversion,
    ConversionContext,
    RuleSet,
    unconverted_marker,
)
from migrator.convert.ddl import dispatch as ddl
from migrator.convert.plsql.prepare import compiled_text, parsed, static_constants
from migrator.source.dynamic_ddl import dynamic_creates
from migrator.source.lexer import EOF, Token, keeping_tokens
from migrator.source.units import SourceSet, Unit, UnitKind


def prepare_context(
    source: SourceSet,
    disabled_rules: frozenset[str] = frozenset(),
    memo: bool = True,
    target: CompileTarget | None = None,
) -> ConversionContext:
    """The context to convert `source`'s units in: its catalog (the whole-schema passes done),
    the rules, and conditional compilation for `target` (default: Oracle 19.0, no PLSQL_CCFLAGS)
    with the schema's package constants."""
    ctx = ConversionContext(
        catalog=Catalog(default_schema=source.schema),
        rules=RuleSet(disabled=disabled_rules),
        memo={} if memo else None,
        compilation=Compilation(target or CompileTarget(), static_constants(source.units)),
        # a folder of schema folders, or an export whose ALTER SESSION SET CURRENT_SCHEMA gives
        # objects other owners
        owner_schemas=bool(source.owners) or any(u.schema != source.schema for u in source.units),
        keep_oracle_source=any("DBMS_METADATA" in u.text.upper() for u in source.units if u.kind.is_plsql),
    )
    catalog = ctx.catalog
    for unit in source.units:
        catalog.add(CatalogEntry(unit.kind, unit.schema, unit.name, unit.id))
    for unit in source.units:  # objects an install block creates (EXECUTE IMMEDIATE 'CREATE ...')
        for created in dynamic_creates(unit):
            if (created.schema, created.name) not in catalog.entries:
                catalog.add(CatalogEntry(created.kind, created.schema, created.name, unit.id))
    # Each converter family adds what it learns in a whole-schema pass (columns, signatures,
    # package members) before any unit is converted; both read the tables, tokenized once.
    with keeping_tokens():
        ddl.prepare(source.units, catalog)
        plsql.prepare(source.units, ctx)
    return ctx


def convert_unit(unit: Unit, ctx: ConversionContext) -> Conversion:
    ctx.begin_unit()
    if ctx.owner_schemas:
        ctx.own_schema(unit.schema)
    try:
        if unit.kind.is_plsql:
            output = plsql.convert_unit(unit, ctx)
        else:
            output = ddl.convert_unit(unit, ctx)
        source = compiled_text(unit, ctx) if unit.kind.is_plsql else unit.text  # not code Oracle leaves out
        tokens = _parsed_tokens(unit, source, ctx) if unit.kind.is_plsql else None
        output = supplied.report_redesign(source, output, ctx, _user_object(ctx, unit), tokens)
        output = refuse_partial(output, ctx)
        if ctx.keep_oracle_source and unit.kind in _SOURCE_TYPES and output.strip():
            output = output.rstrip() + "\n\n" + keep_source(unit)
        if ctx.owner_schemas and output.strip():
            output = owner_search_path(unit.schema) + _definer_path(output, ctx)
        error = None
    except Exception as exc:  # a rule crash must not stop the batch; it is reported per unit
        output = ""
        error = f"{type(exc).__name__}: {exc}\n{traceback.format_exc(limit=6)}"
    return Conversion(
        unit_id=unit.id,
        output=output,
        applied_rules=list(ctx.applied_rules),
        unconverted=list(ctx.unconverted_items),
        notes=list(ctx.notes),
        error=error,
    )


# Oracle's object types of the PL/SQL units whose source DBMS_METADATA.GET_DDL gives back.
_SOURCE_TYPES = {
    UnitKind.PACKAGE_SPEC: "PACKAGE",
    UnitKind.PACKAGE_BODY: "PACKAGE BODY",
    UnitKind.PROCEDURE: "PROCEDURE",
    UnitKind.FUNCTION: "FUNCTION",
    UnitKind.TRIGGER: "TRIGGER",
    UnitKind.TYPE: "TYPE",
    UnitKind.TYPE_BODY: "TYPE BODY",
}


def keep_source(unit: Unit) -> str:
    """The statement that records the unit's Oracle text (as the export has it) for
    DBMS_METADATA.GET_DDL (`oracompat/packages_utl_file.sql`), under Oracle's upper-case names."""
    values = ", ".join(
        pg_string(v) for v in (unit.schema.upper(), _SOURCE_TYPES[unit.kind], unit.name.upper(), unit.text)
    )
    return (
        f"INSERT INTO oracompat.oracle_source (owner, object_type, name, text) VALUES ({values})\n"
        "    ON CONFLICT (owner, object_type, name) DO UPDATE SET text = EXCLUDED.text;\n"
    )


def owner_search_path(schema: str) -> str:
    """In a multi-schema run, what a unit's file begins with: its unqualified names (created or
    named) are its owner's, as in Oracle, whichever unit ran before it."""
    path = ", ".join(quote_ident(s) for s in dict.fromkeys([schema, "oracompat", "public"]))
    return f"SET search_path = {path};\n"


_ROUTINE_BODY = re.compile(r"^LANGUAGE plpgsql AS \$", re.M)
_TRANSACTION_CONTROL = re.compile(r"\b(?:COMMIT|ROLLBACK)\b", re.I)


def _definer_path(output: str, ctx: ConversionContext) -> str:
    """A routine resolves its unqualified names in its owner's schema, as Oracle's stored code does
    whoever calls it: its search_path is the one it was created with (`owner_search_path`).
    PostgreSQL forbids COMMIT/ROLLBACK in a routine with its own search_path, so a unit with
    transaction control keeps the database's (every owner schema, in name order), said in a note."""
    if not _ROUTINE_BODY.search(output):
        return output
    if _TRANSACTION_CONTROL.search(output):
        ctx.notes.append(
            "multi-schema run: this unit commits or rolls back, which PostgreSQL forbids in a routine with its "
            "own search_path, so its unqualified names resolve through the database's search_path "
            "(every owner schema in name order), not only its owner's"
        )
        return output
    return _ROUTINE_BODY.sub("LANGUAGE plpgsql SET search_path FROM CURRENT AS $", output)


def _parsed_tokens(unit: Unit, source: str, ctx: ConversionContext) -> list[Token] | None:
    """The code tokens of `source` from the unit's parse, when it was parsed from that very text
    (the PL/SQL converter's tree, cached), without the parser's end token; None otherwise."""
    try:
        parser = parsed(unit, ctx).parser
    except Exception:  # not parsed (conditional compilation refused, a parse error): read again
        return None
    if parser.text != source:
        return None
    toks = parser.toks
    return toks[:-1] if toks and toks[-1].kind == EOF else toks


def refuse_partial(output: str, ctx: ConversionContext) -> str:
    """A unit with anything not converted must not deploy. A marker in statement position is a
    syntax error at CREATE time, but one inside an expression of a PL/pgSQL body is only an
    unknown name, found when that line runs: such a unit would deploy and fail in production.
    So unless a statement-position marker is already there, one leads the unit."""
    if not ctx.unconverted_items or _STATEMENT_MARKER.search(output):
        return output
    names = ", ".join(dict.fromkeys(u.construct for u in ctx.unconverted_items))
    return unconverted_marker("not converted", names) + ";\n" + output


_STATEMENT_MARKER = re.compile(rf"^[ \t]*/\* {MARKER_TOKEN}\(.*\*/ {MARKER_TOKEN};[ \t]*$", re.MULTILINE)


def _user_object(ctx: ConversionContext, unit: Unit):
    """Is a name (plain) an object of the schema, which then is no Oracle-supplied package?"""

    def user(name: str) -> bool:
        return ctx.catalog.lookup(unit.schema, name) is not None or ctx.catalog.lookup(name) is not None

    return user
