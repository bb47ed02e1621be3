"""Whole-schema pass: parse every PL/SQL unit once and record what other units need to know.

This is the PL/SQL reader of the schema model (`migrator.convert.schema_model`); it writes these
fields of the catalog entries:
* routines: ``routines`` = [Routine, ...] (overloads; bodies may be None)
* type bodies: ``methods`` = {name: [Routine, ...]}
* packages (on the spec entry, or the body's when there is no spec): ``package`` = a `Package`
  (variables, types, routines, exceptions, cursors, the spec's variables, declaration orders)
* tables: ``table.plsql_column_types`` = {col: oracle type} read from the CREATE TABLE text
* schema-level types: ``plsql_type`` = an `ObjectType` or a `CollectionType`
"""

from __future__ import annotations

import dataclasses
from types import MappingProxyType

from harness.ground_truth.oracle_errors import user_exception_sqlstate
from migrator.convert.compile_target import Constants
from migrator.convert.context import Catalog, CatalogEntry, ConversionContext
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import conditional
from migrator.convert.plsql.emitter import sparse_scan
from migrator.convert.plsql.parse_unit import ParsedUnit, TypeBody, parse_unit
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import type_text
from migrator.convert.schema_model import CollectionType, ObjectType, Package, SchemaType
from migrator.source.lexer import Token, matching_paren, split_top_level, tokenize
from migrator.source.units import Unit, UnitKind

_COL_STOP = frozenset(
    {
        "DEFAULT",
        "NOT",
        "NULL",
        "CONSTRAINT",
        "PRIMARY",
        "REFERENCES",
        "CHECK",
        "UNIQUE",
        "GENERATED",
        "ENABLE",
        "DISABLE",
        "COLLATE",
        "VISIBLE",
        "INVISIBLE",
        "AS",
        "SORT",
        "ENCRYPT",
    }
)


def parsed(unit: Unit, ctx: ConversionContext) -> ParsedUnit:
    """Parse a unit once per text (prepare and convert share the tree, kept in `ctx.parses`);
    parse errors re-raise."""
    parses = ctx.parses
    hit = parses.get(unit.id)
    # with conditional compilation the tree depends on the target and the package constants too
    key: object = unit.text
    if conditional.has_directives(unit.text):
        key = (unit.text, ctx.compilation)
    if hit is None or hit[0] is not key and hit[0] != key:
        try:
            result: object = parse_unit(compiled_text(unit, ctx))
        except Exception as exc:  # kept so convert_unit reports it for this unit
            result = exc
        hit = (key, result)
        parses[unit.id] = hit
    if isinstance(hit[1], Exception):
        raise hit[1]
    assert isinstance(hit[1], ParsedUnit), "ctx.parses holds parses and parse errors"
    return hit[1]


_UNIT_TYPES = MappingProxyType(
    {
        UnitKind.FUNCTION: "FUNCTION",
        UnitKind.PROCEDURE: "PROCEDURE",
        UnitKind.PACKAGE_SPEC: "PACKAGE",
        UnitKind.PACKAGE_BODY: "PACKAGE BODY",
        UnitKind.TRIGGER: "TRIGGER",
        UnitKind.TYPE: "TYPE",
        UnitKind.TYPE_BODY: "TYPE BODY",
        UnitKind.ANONYMOUS_BLOCK: "ANONYMOUS BLOCK",
    }
)


def compiled_text(unit: Unit, ctx: ConversionContext) -> str:
    """The unit as Oracle's compiler reads it: conditional compilation resolved for
    `ctx.compilation` (conditional.py)."""
    if not conditional.has_directives(unit.text):
        return unit.text
    name = "" if unit.kind is UnitKind.ANONYMOUS_BLOCK else unit.name
    return conditional.preprocess(unit.text, name, unit.schema, _UNIT_TYPES.get(unit.kind, ""), ctx.compilation)


def static_constants(units: list[Unit]) -> Constants:
    """The static constants of the package specifications among `units` (for a `Compilation`)."""
    return conditional.static_constants([(u.name, u.text) for u in units if u.kind is UnitKind.PACKAGE_SPEC])


def prepare(units: list[Unit], ctx: ConversionContext) -> None:
    catalog = ctx.catalog
    for unit in units:
        try:
            if unit.kind is UnitKind.TABLE:
                _table_columns(unit, catalog)
            elif unit.kind is UnitKind.TYPE:
                _schema_type(unit, catalog)
            elif unit.kind.is_plsql and unit.kind is not UnitKind.ANONYMOUS_BLOCK:
                _plsql(unit, catalog, parsed(unit, ctx).tree)
            if (
                unit.kind.is_plsql
                and "FORMAT_ERROR_" in unit.text.upper()
                and _error_outside_handler(parsed(unit, ctx).tree)
            ):
                # a routine reads the error of the handler that called it: handlers publish theirs
                catalog.flags.add("error_stack_callee")
        except Exception:  # this unit's own conversion reports the failure
            continue


def _error_outside_handler(node) -> bool:
    """Does DBMS_UTILITY.FORMAT_ERROR_STACK/BACKTRACE occur outside every exception handler?"""
    if isinstance(node, Token):
        return node.upper in ("FORMAT_ERROR_STACK", "FORMAT_ERROR_BACKTRACE")
    if isinstance(node, A.Handler):
        return False
    if isinstance(node, (list, tuple)):
        return any(_error_outside_handler(x) for x in node)
    if dataclasses.is_dataclass(node):
        return any(_error_outside_handler(getattr(node, f.name)) for f in dataclasses.fields(node))
    return False


def _entry(catalog: Catalog, unit: Unit) -> CatalogEntry:
    entry = catalog.entries.get((unit.schema, unit.name))
    if entry is None:
        entry = CatalogEntry(unit.kind, unit.schema, unit.name, unit.id)
        catalog.add(entry)
    return entry


def _plsql(unit: Unit, catalog: Catalog, tree) -> None:
    entry = _entry(catalog, unit)
    if isinstance(tree, A.Routine):
        entry.routines.append(tree)
    elif isinstance(tree, TypeBody):
        for r in tree.routines:
            entry.methods.setdefault(r.name, []).append(r)
    elif isinstance(tree, A.Package):
        if entry.package is None:
            entry.package = Package()
        pkg = entry.package
        base = f"{unit.schema}.{unit.name}"
        # variables and types in declaration order, the spec's before the body's: a SUBTYPE may
        # be anchored to a variable declared before it (SUBTYPE t IS g_var%TYPE)
        order = pkg.body_order if tree.is_body else pkg.spec_order
        if tree.is_body and ".DELETE" in unit.text.upper():
            deleted = sparse_scan(tokenize(unit.text))
            pkg.sparse_variables |= {d.name for d in tree.decls if isinstance(d, A.VarDecl) and d.name in deleted}
        for d in tree.decls:
            if isinstance(d, A.VarDecl):
                pkg.variables.setdefault(d.name, d)
                order.append(("var", d.name))
                if not tree.is_body:
                    pkg.public_variables.append(d.name)
            elif isinstance(d, A.TypeDecl):
                pkg.types.setdefault(d.name, d)
                order.append(("type", d.name))
            elif isinstance(d, A.Routine):
                sigs = pkg.routines.setdefault(d.name, [])
                if not any(_same_sig(s, d) for s in sigs):
                    sigs.append(d)
            elif isinstance(d, A.ExceptionDecl):
                pkg.exceptions.setdefault(d.name, user_exception_sqlstate(f"{base}.{d.name}"))
            elif isinstance(d, A.CursorDecl):
                pkg.cursors.setdefault(d.name, d)
            elif isinstance(d, A.Pragma) and d.name == "EXCEPTION_INIT" and len(d.args) == 2:
                pkg.exception_init[norm_name(d.args[0][0])] = d.args[1]


def _same_sig(a: A.Routine, b: A.Routine) -> bool:
    """One member declared twice (spec and body): its parameters' names and types (overloads may
    differ in names only: named calls tell them apart)."""
    return a.kind == b.kind and [(p.name, p.type.text.upper()) for p in a.params] == [
        (p.name, p.type.text.upper()) for p in b.params
    ]


def _table_columns(unit: Unit, catalog: Catalog) -> None:
    toks = tokenize(unit.text)
    k = next((i for i, t in enumerate(toks) if t.is_op("(")), None)
    if k is None:
        return
    cols: dict[str, str] = {}
    for item in split_top_level(toks[k + 1 : matching_paren(toks, k)]):
        _column(item, cols)
    entry = _entry(catalog, unit)
    entry.table = dataclasses.replace(entry.table, plsql_column_types=cols)


def _column(item: list, cols: dict[str, str]) -> None:
    if len(item) < 2 or item[0].is_word(
        "CONSTRAINT", "PRIMARY", "FOREIGN", "UNIQUE", "CHECK", "SUPPLEMENTAL", "PERIOD"
    ):
        return
    typ = []
    for t in item[1:]:
        if t.is_word(*_COL_STOP):
            break
        typ.append(t)
    cols[norm_name(item[0])] = type_text(typ)


def _schema_type(unit: Unit, catalog: Catalog) -> None:
    toks = tokenize(unit.text, eof=True)
    words = [t.upper for t in toks]
    info: SchemaType = ObjectType()  # UNDER subtypes and forward declarations too
    for i, w in enumerate(words):
        if w in ("TABLE", "VARRAY", "VARYING") and "OF" in words[i:]:
            j = words.index("OF", i)
            end = len(toks) - 1
            for m in range(j + 1, len(toks)):
                if toks[m].is_word("NOT") or toks[m].is_op(";") or toks[m].kind == "eof":
                    end = m
                    break
            # VARRAY(n) / VARYING ARRAY(n): its limit
            limit = next((int(t.text) for t in toks[i:j] if t.text.isdigit()), None) if w != "TABLE" else None
            info = CollectionType(w != "TABLE", type_text(toks[j + 1 : end]), limit)
            break
        if w == "OBJECT":
            info = ObjectType(_object_attrs(toks[i + 1 :]))
            break
    _entry(catalog, unit).plsql_type = info


def _object_attrs(toks: list) -> dict[str, str]:
    """Attribute name → Oracle type of `OBJECT ( ... )` (method declarations skipped)."""
    attrs: dict[str, str] = {}
    if not toks or not toks[0].is_op("("):
        return attrs
    for item in split_top_level(toks[1 : matching_paren(toks, 0)]):
        _attr(item, attrs)
    return attrs


def _attr(item: list, attrs: dict[str, str]) -> None:
    if len(item) >= 2 and not item[0].is_word(
        "MEMBER", "STATIC", "CONSTRUCTOR", "MAP", "ORDER", "OVERRIDING", "FINAL", "NOT", "INSTANTIABLE"
    ):
        attrs[norm_name(item[0])] = type_text(item[1:])
