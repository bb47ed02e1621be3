"""A foreign key's columns get the PostgreSQL type of the key they reference.

Oracle compares NUMBER with NUMBER whatever the precision, so a NUMBER column may reference a
NUMBER(6) or an identity column. PostgreSQL maps those to different types (numeric, integer,
bigint), and a foreign key needs types of one btree family: numeric against integer is refused
("foreign key constraint cannot be implemented"). Every value of an enforced foreign key equals a
value of the referenced key, so giving the referencing column the referenced column's type keeps
every row the constraint admits (noted on the unit). Only numeric types are aligned; other
mismatches are left for PostgreSQL to report.
"""

from __future__ import annotations

from migrator.convert.context import ConversionContext
from migrator.convert.datatypes import map_type
from migrator.convert.ddl.tokens import Name, ident, read_name
from migrator.oracle_types import is_bounded_integer, parse, postgres_type
from migrator.source.lexer import Token, matching_paren

_INTEGERS = ("smallint", "integer", "bigint")


def _numeric(pg_type: str) -> bool:
    return pg_type in _INTEGERS or pg_type.startswith("numeric")


def column_pg_type(table: Name, column: str, ctx: ConversionContext) -> str | None:
    """The PostgreSQL type CREATE TABLE gives `table.column` (None when the catalog does not know)."""
    entry = ctx.catalog.lookup(*table)
    if entry is None or not entry.table.column_types or column not in entry.table.column_types:
        return None
    types = entry.table.column_types
    pg = map_type(types[column])
    parsed = parse(" ".join(types[column].split()))
    if parsed is not None and is_bounded_integer(parsed) and ctx.enabled("ddl.number_precision"):
        pg = postgres_type(parsed, bounded=True)  # what CREATE TABLE gives it (map_type with the run's rules)
    if column in entry.table.identity_columns and pg not in _INTEGERS:
        return "bigint"  # as columns._identity makes it
    return pg


def referenced_columns(ref: Name, toks: list[Token], i: int, ctx: ConversionContext) -> list[str]:
    """The referenced columns: the list at toks[i], else the referenced table's primary key."""
    if i < len(toks) and toks[i].text == "(":
        return [ident(t) for t in toks[i + 1 : matching_paren(toks, i)] if t.kind in ("word", "qident")]
    entry = ctx.catalog.lookup(*ref)
    return list(entry.table.primary_key) if entry is not None else []


def aligned_type(own_type: str | None, column: str, ref_type: str | None, ctx: ConversionContext) -> str | None:
    """The type `column` should have to reference a column of `ref_type` (None: keep its own)."""
    if own_type is None or ref_type is None or own_type == ref_type:
        return None
    if not (_numeric(own_type) and _numeric(ref_type)):
        return None
    if own_type.startswith("numeric") and ref_type.startswith("numeric"):
        return None  # one type, numeric, whatever the typmod
    ctx.note(
        f"column {column}: {own_type} → {ref_type}, the type of the key its foreign key references"
        " (PostgreSQL cannot compare the two in a foreign key; every value the key admits is kept)"
    )
    return ref_type


def foreign_key_types(table: Name, elements: list[list[Token]], ctx: ConversionContext) -> dict[str, str]:
    """For a CREATE TABLE's elements: referencing column → the referenced column's PostgreSQL type."""
    out: dict[str, str] = {}
    for el in elements:
        for r, t in enumerate(el):
            if not t.is_word("REFERENCES"):
                continue
            ref, j = read_name(el, r + 1)
            ref_cols = referenced_columns(ref, el, j, ctx)
            fk = next((k for k in range(r) if el[k].is_word("FOREIGN")), None)
            if fk is not None and el[fk + 2].text == "(":
                own = [ident(x) for x in el[fk + 3 : matching_paren(el, fk + 2)] if x.kind in ("word", "qident")]
            elif el[0].kind in ("word", "qident") and not el[0].is_word("CONSTRAINT", "FOREIGN"):
                own = [ident(el[0])]
            else:
                continue
            for col, ref_col in zip(own, ref_cols):
                ref_type = column_pg_type(ref, ref_col, ctx)
                if ref_type is not None:
                    out[col] = ref_type
    return out
