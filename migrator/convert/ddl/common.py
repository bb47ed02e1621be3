"""Helpers shared by the DDL converters: calling the SQL converter, names, unconverted output."""

from __future__ import annotations

from migrator.convert.context import ConversionContext, unconverted_marker
from migrator.convert.sql import convert as sql
from migrator.source.lexer import LexError, Token, tokenize

# Storage and parallelism options both tables and indexes take: dropped, with a note.
STORAGE_WORDS = frozenset(
    "TABLESPACE STORAGE PCTFREE INITRANS MAXTRANS LOGGING NOLOGGING COMPRESS NOCOMPRESS PARALLEL NOPARALLEL".split()
)


def convert_statement(text: str, ctx: ConversionContext, types: dict | None = None) -> str:
    """Convert one SQL statement via migrator.convert.sql.convert; column types go along when it takes them
    (so it can tell a DATE column from a number in `col + 1`)."""
    return sql.convert_statement(text, ctx, types=types).strip().rstrip(";").rstrip()


def convert_expression(text: str, ctx: ConversionContext, types: dict | None = None) -> str:
    return sql.convert_expression(text, ctx, types=types).strip()


def unconverted(ctx: ConversionContext, construct: str, message: str, original: str) -> str:
    """Record the construct and return a statement that keeps it visible and fails on deploy."""
    ctx.unconverted(construct, message)
    return unconverted_marker(construct, original) + ";"


def words(tokens: list[Token]) -> str:
    """Tokens re-joined with single spaces (for notes about dropped clauses)."""
    out = ""
    for tok in tokens:
        glue = "" if not out or tok.text in (")", ",", ".") or out.endswith(("(", ".")) else " "
        out += glue + tok.text
    return out


def require(ctx: ConversionContext, rule_id: str, construct: str) -> None:
    """A clause whose rule is switched off makes its whole statement unconverted (LexError)."""
    if not ctx.enabled(rule_id):
        raise LexError(f"{construct}: rule {rule_id} is disabled")


def guarded(rule_id: str, construct: str, convert, text: str, ctx: ConversionContext) -> str:
    """Run one statement-level rule: off → unconverted marker; unreadable → unconverted marker;
    else `convert(text, tokens, ctx)`, recorded as applied."""
    if not ctx.enabled(rule_id):
        return unconverted(ctx, construct, f"rule {rule_id} is disabled", text)
    try:
        out = convert(text, tokenize(text), ctx)
    except LexError as exc:
        return unconverted(ctx, construct, str(exc), text)
    ctx.applied(rule_id)
    return out
