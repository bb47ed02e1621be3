"""Non-PL/SQL units: tables, indexes, sequences, views, types, data, grants, synonyms, comments.

`prepare` records what other converters need to know about the schema (column types, primary
keys, type shapes, sequence options, synonym targets); `convert_unit` dispatches one unit to the
module for its kind. Each module reads DDL from the tokens of `migrator.source.lexer` (helpers
in `tokens.py`) and hands SQL expressions and queries to `migrator.convert.sql.convert`.
"""

from __future__ import annotations

from migrator.convert.context import Catalog, ConversionContext
from migrator.convert.ddl import alter, data, grants, indexes, object_types, objects, sequences, tables, views
from migrator.convert.ddl.common import unconverted
from migrator.source.lexer import LexError, tokenize
from migrator.source.units import Unit, UnitKind

_INFO = {
    UnitKind.TABLE: tables.table_info,
    UnitKind.SEQUENCE: lambda text: {"sequence": sequences.sequence_info(text)},
    UnitKind.TYPE: lambda text: object_types.parse_type(text)[1],
    UnitKind.SYNONYM: objects.synonym_info,
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
    """Fill catalog entries' `info` for tables, sequences, types and synonyms.

    A unit that cannot be read here is left without info; its conversion reports the problem.
    """
    for unit in units:
        reader = _INFO.get(unit.kind)
        entry = catalog.entries.get((unit.schema, unit.name))
        if reader is None or entry is None or entry.unit_id != unit.id:
            continue
        try:
            entry.info.update(reader(_statement_text(unit)))
        except (LexError, IndexError, ValueError, StopIteration):
            continue


def convert_unit(unit: Unit, ctx: ConversionContext) -> str:
    if unit.kind is UnitKind.DATA and unit.parts:  # a table's INSERTs: COPY rows (migrator.data)
        from migrator.data.table_unit import convert_table_data

        return convert_table_data(unit, ctx)
    converter = _CONVERTERS.get(unit.kind)
    if converter is not None:
        return converter(_statement_text(unit), ctx)
    return _convert_other(_statement_text(unit), ctx)


def _statement_text(unit: Unit) -> str:
    """The statement without a trailing ';' (kept by the reader for '/'-terminated TYPE specs)."""
    return unit.text.rstrip().rstrip(";").rstrip()


def _convert_other(text: str, ctx: ConversionContext) -> str:
    """An unrecognised statement is kept visibly; a bare COMMIT/ROLLBACK needs nothing."""
    try:
        first = tokenize(text)[0].text.upper()
    except (LexError, IndexError):
        first = ""
    if first in _SESSION:
        ctx.note(f"{first} omitted: psql runs each statement in its own transaction")
        return f"-- {first} (not needed: psql autocommits)"
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
