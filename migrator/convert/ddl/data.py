"""Top-level data statements (INSERT / UPDATE / DELETE / MERGE) and multi-table INSERT ALL.

Expressions and literals (TO_DATE, DATE/TIMESTAMP literals, q-quotes, '' = NULL) are the SQL
converter's job; this module only reshapes what PostgreSQL has no statement for.
"""

from __future__ import annotations

from migrator.convert.context import Catalog, ConversionContext
from migrator.convert.ddl.common import convert_statement, unconverted
from migrator.convert.ddl.tokens import Name, read_name, source
from migrator.source.lexer import LexError, Token, matching_paren, tokenize


def convert_data(text: str, ctx: ConversionContext) -> str:
    if not ctx.enabled("data.insert"):
        return unconverted(ctx, "data statement", "rule data.insert is disabled", text)
    try:
        toks = tokenize(text)
    except LexError as exc:
        return unconverted(ctx, "data statement", str(exc), text)
    if len(toks) > 1 and toks[0].is_word("INSERT") and toks[1].is_word("ALL", "FIRST"):
        if not ctx.enabled("data.insert_all"):
            return unconverted(ctx, "INSERT ALL", "rule data.insert_all is disabled", text)
        try:
            return _insert_all(text, toks, ctx)
        except (LexError, IndexError) as exc:
            return unconverted(ctx, "INSERT ALL", f"could not read the statement: {exc}", text)
    out = convert_statement(text, ctx, types=_table_types(toks, ctx.catalog))
    ctx.applied("data.insert")
    return out + ";"


def _table_types(toks: list[Token], catalog: Catalog) -> dict | None:
    """Column types of the statement's target table, when the catalog knows it."""
    for k, t in enumerate(toks[:-1]):
        if t.is_word("INTO", "UPDATE", "FROM"):
            name, _ = read_name(toks, k + 1)
            entry = catalog.lookup(*name)
            return entry.table.column_types if entry else None
    return None


def _insert_all(text: str, toks: list[Token], ctx: ConversionContext) -> str:
    """Unconditional INSERT ALL → one INSERT per INTO clause.

    Rows from ``SELECT ... FROM dual`` become plain VALUES; rows from a real query are inserted
    with ``INSERT INTO t (cols) SELECT <values> FROM (<query>) src`` per target, which re-runs the
    query once per target (same rows unless the query is volatile — noted).
    """
    if toks[1].is_word("FIRST") or any(t.is_word("WHEN") for t in toks):
        return unconverted(
            ctx,
            "conditional INSERT ALL/FIRST",
            "conditional multi-table insert: split into INSERT ... SELECT ... WHERE per branch",
            text,
        )
    clauses, query_start = _into_clauses(toks, 2)
    query = source(text, toks[query_start:])
    from_dual = _is_dual_query(toks[query_start:])
    if not from_dual:
        ctx.note("INSERT ALL over a query: the query runs once per target table")
    out = []
    for table, cols, values in clauses:
        cols_text = source(text, cols)
        vals_text = source(text, values)
        # Oracle text again (converted below), so the table is written the Oracle way
        stmt = (
            f"INSERT INTO {table.oracle} {cols_text} VALUES {vals_text}"
            if from_dual
            else f"INSERT INTO {table.oracle} {cols_text} SELECT {vals_text[1:-1]} FROM ({query}) src"
        )
        out.append(convert_statement(stmt, ctx, types=_types_of(table, ctx.catalog)) + ";")
    ctx.applied("data.insert_all")
    return "\n".join(out)


def _types_of(table: Name, catalog: Catalog) -> dict | None:
    entry = catalog.lookup(*table)
    return entry.table.column_types if entry else None


def _into_clauses(toks: list[Token], i: int) -> tuple[list, int]:
    clauses = []
    while i < len(toks) and toks[i].is_word("INTO"):
        table, i = read_name(toks, i + 1)
        cols: list[Token] = []
        if toks[i].text == "(":
            end = matching_paren(toks, i)
            cols, i = toks[i : end + 1], end + 1
        if not toks[i].is_word("VALUES"):
            raise LexError("INSERT ALL INTO without VALUES")
        end = matching_paren(toks, i + 1)
        clauses.append((table, cols, toks[i + 1 : end + 1]))
        i = end + 1
    return clauses, i


def _is_dual_query(toks: list[Token]) -> bool:
    names = [t.text.upper() for t in toks if t.kind == "word"]
    return "DUAL" in names and "WHERE" not in names and names.count("SELECT") == 1
