"""One column definition of CREATE TABLE / ALTER TABLE ADD|MODIFY: type, default, identity,
virtual column, inline constraints."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.quoting import quote_ident
from migrator.convert.context import ConversionContext
from migrator.convert.datatypes import is_mapped, map_type
from migrator.convert.ddl import sequences as ddl_sequences
from migrator.convert.ddl.common import convert_expression, require
from migrator.convert.ddl.constraints import CONSTRAINT_STARTS, STATE_WORDS, keep, parse_constraint, render
from migrator.convert.ddl.tokens import ident, source
from migrator.source.lexer import LexError, Token, matching_paren

_TYPE_END = (
    CONSTRAINT_STARTS
    | STATE_WORDS
    | {"DEFAULT", "GENERATED", "AS", "VISIBLE", "INVISIBLE", "ENCRYPT", "SORT", "COLLATE", "VIRTUAL"}
)
# Defaults Oracle evaluates per row that have an exact PostgreSQL spelling.
_DEFAULT_FUNCS = {
    "SYSDATE": "oracompat.sysdate()",  # LOCALTIMESTAMP(0) unless oracompat.fixed_date freezes it
    "SYSTIMESTAMP": "CURRENT_TIMESTAMP",
    "CURRENT_DATE": "LOCALTIMESTAMP(0)",
    "CURRENT_TIMESTAMP": "CURRENT_TIMESTAMP",
    "LOCALTIMESTAMP": "LOCALTIMESTAMP",
}


@dataclass
class Column:
    name: str
    oracle_type: str  # as written ("" for a virtual column without a declared type)
    pg_type: str = ""
    parts: list[str] = field(default_factory=list)  # DEFAULT / GENERATED / constraints, in order
    not_null: bool = False


def oracle_type_of(text: str, toks: list[Token]) -> tuple[str, int]:
    """The type tokens of a column definition (toks[0] is the name) → (type text, next index)."""
    i = 1
    while i < len(toks) and not toks[i].is_word(*_TYPE_END):
        i = matching_paren(toks, i) + 1 if toks[i].text == "(" else i + 1
    return source(text, toks[1:i]), i


def parse_column(text: str, toks: list[Token], ctx: ConversionContext, types: dict | None = None) -> Column:
    oracle_type, i = oracle_type_of(text, toks)
    col = Column(ident(toks[0]), oracle_type)
    if oracle_type:
        col.pg_type = _column_type(oracle_type, ctx)
    while i < len(toks):
        i = _parse_clause(text, toks, i, col, ctx, types)
    return col


def _column_type(oracle_type: str, ctx: ConversionContext) -> str:
    pg = map_type(oracle_type, ctx)
    if not is_mapped(oracle_type):
        ctx.note(f"type {oracle_type} kept as written (user-defined or unknown type)")
    if oracle_type.upper().startswith("BFILE"):
        ctx.note(
            "BFILE column: a locator (directory, file name) of oracompat.bfile; the file stays where the directory maps"
        )
    return pg


def _parse_clause(text: str, toks: list[Token], i: int, col: Column, ctx: ConversionContext, types: dict | None) -> int:
    t = toks[i]
    if t.is_word("DEFAULT"):
        return _parse_default(text, toks, i + 1, col, ctx, types)
    if t.is_word("GENERATED") or t.is_word("AS"):
        return _parse_generated(text, toks, i, col, ctx, types)
    if t.is_word("VISIBLE", "INVISIBLE", "VIRTUAL", "SORT"):
        if t.is_word("INVISIBLE"):
            ctx.note(f"column {col.name}: INVISIBLE dropped (PostgreSQL has no invisible columns; SELECT * shows it)")
        return i + 1
    if t.is_word("ENCRYPT", "COLLATE"):
        raise LexError(f"column {col.name}: {t.text.upper()} is not supported")
    con, j = parse_constraint(text, toks, i, ctx, column=col.name, types=types)
    if con.kind == "not_null":
        col.not_null = True
    if keep(con, ctx):
        col.parts.append(render(con, inline=True))
    return j


def _parse_default(
    text: str, toks: list[Token], i: int, col: Column, ctx: ConversionContext, types: dict | None
) -> int:
    on_null = False
    if i + 1 < len(toks) and toks[i].is_word("ON") and toks[i + 1].is_word("NULL"):
        on_null, i = True, i + 2
    start = i
    i = _expression_end(toks, i)
    expr = source(text, toks[start:i])
    col.parts.append(f"DEFAULT {_default_expression(expr, ctx, types)}")
    if on_null:
        # Oracle replaces an explicit NULL by the default; PostgreSQL cannot without a trigger.
        # DEFAULT ON NULL implies NOT NULL, so an explicit NULL now fails instead of defaulting.
        ctx.note(f"column {col.name}: DEFAULT ON NULL → DEFAULT ... NOT NULL (explicit NULL inserts now fail)")
        if not col.not_null:
            col.parts.append("NOT NULL")
            col.not_null = True
    return i


def _expression_end(toks: list[Token], i: int) -> int:
    """End of a DEFAULT expression: the next constraint keyword at depth 0 outside CASE."""
    case_depth = 0
    first = i
    while i < len(toks):
        t = toks[i]
        if t.text == "(":
            i = matching_paren(toks, i) + 1
            continue
        if t.is_word("CASE"):
            case_depth += 1
        elif t.is_word("END") and case_depth:
            case_depth -= 1
        elif case_depth == 0 and i > first and t.is_word(*_TYPE_END):
            break
        i += 1
    return i


def _default_expression(expr: str, ctx: ConversionContext, types: dict | None) -> str:
    key = expr.strip().upper()
    if key in _DEFAULT_FUNCS and ctx.enabled("ddl.default_sysdate"):
        ctx.applied("ddl.default_sysdate")
        return _DEFAULT_FUNCS[key]
    return convert_expression(expr, ctx, types)


def _parse_generated(
    text: str, toks: list[Token], i: int, col: Column, ctx: ConversionContext, types: dict | None
) -> int:
    j = i + 1 if toks[i].is_word("GENERATED") else i
    mode = []
    while j < len(toks) and not toks[j].is_word("AS"):
        mode.append(toks[j].text.upper())
        j += 1
    if j + 1 < len(toks) and toks[j + 1].is_word("IDENTITY"):
        return _identity(toks, j + 2, mode, col, ctx)
    require(ctx, "ddl.virtual_column", f"virtual column {col.name}")
    end = matching_paren(toks, j + 1)  # AS ( expr )
    expr = convert_expression(source(text, toks[j + 2 : end]), ctx, types)
    if not col.pg_type:
        raise LexError(f"virtual column {col.name} has no declared type; PostgreSQL needs one")
    ctx.applied("ddl.virtual_column")
    ctx.note(f"virtual column {col.name} → STORED generated column (computed on write, not on read)")
    col.parts.append(f"GENERATED ALWAYS AS ({expr}) STORED")
    return end + 1


def _identity(toks: list[Token], i: int, mode: list[str], col: Column, ctx: ConversionContext) -> int:
    require(ctx, "ddl.identity", f"identity column {col.name}")
    ctx.applied("ddl.identity")
    if "ON" in mode:  # BY DEFAULT ON NULL
        ctx.note(f"identity column {col.name}: ON NULL dropped (explicit NULL inserts now fail)")
    kind = "ALWAYS" if "ALWAYS" in mode or not mode else "BY DEFAULT"
    options = ""
    if i < len(toks) and toks[i].text == "(":
        end = matching_paren(toks, i)
        opts = ddl_sequences.options(toks[i + 1 : end], ctx)
        options = f" ({' '.join(opts)})" if opts else ""
        i = end + 1
    if col.pg_type not in ("smallint", "integer", "bigint"):
        # PostgreSQL identity columns must be integer typed; NUMBER without precision → bigint.
        ctx.note(f"identity column {col.name}: type {col.oracle_type} → bigint (identity needs an integer type)")
        col.pg_type = "bigint"
    col.parts.append(f"GENERATED {kind} AS IDENTITY{options}")
    col.not_null = True
    return i


def render_column(col: Column) -> str:
    return " ".join(x for x in [quote_ident(col.name), col.pg_type, *col.parts] if x)
