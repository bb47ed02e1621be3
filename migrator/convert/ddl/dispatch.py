"""Non-PL/SQL units: tables, indexes, sequences, views, types, data, grants, synonyms, comments.

`prepare` records what other converters need to know about the schema (column types, primary
keys, type shapes, sequence options, synonym targets); `convert_unit` dispatches one unit to the
module for its kind. Each module reads DDL from the tokens of `migrator.source.lexer` (helpers
in `tokens.py`) and hands SQL expressions and queries to `migrator.convert.sql.convert`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from harness.quoting import comment_text
from migrator.convert.context import Catalog, CatalogEntry, ConversionContext
from migrator.convert.ddl import admin, alter, data, grants, indexes, object_types, objects, sequences, tables, views
from migrator.convert.ddl.common import unconverted
from migrator.convert.schema_model import Sequence
from migrator.source.dynamic_ddl import dynamic_creates
from migrator.source.lexer import LexError, tokenize
from migrator.source.statement_kind import read_head, session_schema
from migrator.source.units import Unit, UnitKind


def _read_table(text: str, entry: CatalogEntry) -> None:
    read = tables.table_info(text)
    entry.table = dataclasses.replace(
        entry.table,
        column_types=read.column_types,
        primary_key=read.primary_key,
        disabled_constraints=read.disabled_constraints,
        identity_columns=read.identity_columns,
        key_constraints=read.key_constraints,
        on_commit=read.on_commit,
    )


def _read_sequence(text: str, entry: CatalogEntry) -> None:
    entry.sequence = Sequence(sequences.sequence_info(text))


def _read_type(text: str, entry: CatalogEntry) -> None:
    entry.declared_type = object_types.declared_type(text)


def _read_synonym(text: str, entry: CatalogEntry) -> None:
    entry.synonym = objects.synonym_info(text)


# The DDL reader of the schema model: what each kind of statement tells the other converters.
_READERS: dict[UnitKind, Callable[[str, CatalogEntry], None]] = {
    UnitKind.TABLE: _read_table,
    UnitKind.SEQUENCE: _read_sequence,
    UnitKind.TYPE: _read_type,
    UnitKind.SYNONYM: _read_synonym,
}

_CONVERTERS = {
    UnitKind.TABLE: tables.convert_table,
    UnitKind.INDEX: indexes.convert_index,
    UnitKind.SEQUENCE: sequences.convert_sequence,
    UnitKind.VIEW: views.convert_view,
    UnitKind.MATERIALIZED_VIEW: views.convert_materialized_view,
    UnitKind.DATA: data.convert_data,
    UnitKind.TYPE: object_types.convert_type,
    UnitKind.SYNONYM: objects.convert_synonym,
    UnitKind.GRANT: grants.convert_grant,
    UnitKind.COMMENT: objects.convert_comment,
    UnitKind.ALTER: alter.convert_alter,
}

# Session statements that psql handles by itself: reported in a note, not converted.
_SESSION = {"COMMIT", "ROLLBACK", "SAVEPOINT"}


def prepare(units: list[Unit], catalog: Catalog) -> None:
    """Fill the schema model (`migrator.convert.schema_model`) for tables, sequences, types and
    synonyms: `table`, `sequence`, `declared_type` and `synonym` of their catalog entries.

    A unit that cannot be read here leaves its entry's field unset; its conversion reports the problem.
    """
    for unit in units:
        reader = _READERS.get(unit.kind)
        entry = catalog.entries.get((unit.schema, unit.name))
        if reader is None or entry is None:
            continue
        # the entry is its first definition's; a forward declaration (CREATE TYPE t;) gives way to
        # the full definition after it, which is what defines the type
        forward = unit.kind is UnitKind.TYPE and entry.kind is UnitKind.TYPE and entry.declared_type is None
        if entry.unit_id != unit.id and not forward:
            continue
        try:
            reader(_statement_text(unit), entry)
        except (LexError, IndexError, ValueError, StopIteration):
            continue
    for unit in units:  # what an install block creates: read from the statement its literal holds
        for created in dynamic_creates(unit):
            entry = catalog.entries.get((created.schema, created.name))
            reader = _READERS.get(created.kind)
            if entry is None or entry.unit_id != unit.id or reader is None:
                continue
            try:
                reader(created.text, entry)
            except (LexError, IndexError, ValueError, StopIteration):
                continue
    for unit in units:  # ALTER TABLE ... ADD a key: the table's entry learns its name
        entry = catalog.entries.get((unit.schema, unit.name))
        if unit.kind is UnitKind.ALTER and entry is not None and entry.kind is UnitKind.TABLE:
            try:
                added = tables.key_constraints(tokenize(_statement_text(unit)), None)
            except (LexError, IndexError):
                continue
            if added:
                keys = (*entry.table.key_constraints, *added)
                entry.table = dataclasses.replace(entry.table, key_constraints=keys)


def convert_unit(unit: Unit, ctx: ConversionContext) -> str:
    if unit.kind is UnitKind.DATA and unit.parts:  # a table's INSERTs: COPY rows (migrator.data)
        from migrator.data.table_unit import convert_table_data

        return convert_table_data(unit, ctx)
    converter = _CONVERTERS.get(unit.kind)
    if converter is not None:
        return converter(_statement_text(unit), ctx)
    return _convert_other(_statement_text(unit), ctx)


def convert_statement_text(text: str, ctx: ConversionContext) -> str:
    """One DDL statement given as text, not as a unit (the literal of an EXECUTE IMMEDIATE in an
    install script), converted by the rule for its kind. A DROP keeps its error when the object
    is absent: the PL/SQL around it may handle it."""
    head = read_head(text, 0)
    if head.kind is not None and head.kind.is_plsql:
        return unconverted(
            ctx,
            "dynamic CREATE of PL/SQL",
            "a routine, package, type body or trigger created by EXECUTE IMMEDIATE",
            text,
        )
    statement = text.rstrip().rstrip(";").rstrip()
    converter = _CONVERTERS.get(head.kind) if head.kind is not None else None
    if converter is not None:
        return converter(statement, ctx)
    try:
        if admin.handles(tokenize(statement)):
            return admin.convert_admin(statement, ctx, top_level=False)
    except LexError:
        pass
    return _convert_other(statement, ctx)


def _statement_text(unit: Unit) -> str:
    """The statement without a trailing ';' (kept by the reader for '/'-terminated TYPE specs)."""
    return unit.text.rstrip().rstrip(";").rstrip()


def _current_schema(schema: str, ctx: ConversionContext) -> str:
    """`ALTER SESSION SET CURRENT_SCHEMA = x`: the reader made x the owner of the objects after it
    in the script, and each of their units sets its owner's search_path; nothing is left to run."""
    if not ctx.enabled("ddl.current_schema"):
        return unconverted(ctx, "ALTER SESSION SET CURRENT_SCHEMA", "rule ddl.current_schema is disabled", "")
    ctx.applied("ddl.current_schema")
    ctx.note(f"ALTER SESSION SET CURRENT_SCHEMA: the objects after it in its file are created in schema {schema}")
    return f"-- ALTER SESSION SET CURRENT_SCHEMA = {comment_text(schema)} (applied: the units after it are owned by it)"


def _convert_other(text: str, ctx: ConversionContext) -> str:
    """An unrecognised statement is kept visibly; a bare COMMIT/ROLLBACK needs nothing."""
    try:
        first = tokenize(text)[0].text.upper()
    except (LexError, IndexError):
        first = ""
    if first in _SESSION:
        ctx.note(f"{first} omitted: psql runs each statement in its own transaction")
        return f"-- {first} (not needed: psql autocommits)"
    if first == "ALTER" and (schema := session_schema(text, 0, len(text))) is not None:
        return _current_schema(schema, ctx)
    try:
        if admin.handles(tokenize(text)):
            if not ctx.enabled("ddl.admin"):
                return unconverted(ctx, "unrecognised statement", "rule ddl.admin is disabled", text)
            return admin.convert_admin(text, ctx)
    except LexError:
        pass
    # A statement of a kind the reader did not classify: route by its leading words.
    for kind, words in _LEADING.items():
        if _starts(text, words):
            return _CONVERTERS[kind](text, ctx)
    return unconverted(ctx, "unrecognised statement", "no rule converts this kind of statement", text)


_LEADING = {
    UnitKind.DATA: ("INSERT", "UPDATE", "DELETE", "MERGE"),
    UnitKind.COMMENT: ("COMMENT",),
    UnitKind.GRANT: ("GRANT", "REVOKE"),
}


def _starts(text: str, words: tuple[str, ...]) -> bool:
    try:
        return tokenize(text)[0].text.upper() in words
    except (LexError, IndexError):
        return False
