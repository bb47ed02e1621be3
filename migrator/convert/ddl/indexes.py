"""CREATE INDEX: unique, composite, function-based, DESC; bitmap → btree; storage dropped."""

from __future__ import annotations

from harness.quoting import comment_text, quote_ident
from migrator.convert.context import ConversionContext
from migrator.convert.ddl.common import STORAGE_WORDS, convert_expression, guarded, require, words
from migrator.convert.ddl.tables import SESSION_COLUMN, XACT_COLUMN, rows_end_with_transaction, session_rows_name
from migrator.convert.ddl.tokens import ident, read_name, source
from migrator.source.lexer import LexError, Token, matching_paren, split_top_level

# Index options after the column list that only concern storage, build or statistics.
_PHYSICAL = STORAGE_WORDS | frozenset(
    "COMPUTE ONLINE LOCAL GLOBAL NOSORT REVERSE VISIBLE INVISIBLE SORT USABLE UNUSABLE".split()
)


def convert_index(text: str, ctx: ConversionContext) -> str:
    return guarded("ddl.index", "CREATE INDEX", _convert, text, ctx)


def _convert(text: str, toks: list[Token], ctx: ConversionContext) -> str:
    i, unique = 1, ""
    if toks[i].is_word("UNIQUE"):
        unique, i = "UNIQUE ", i + 1
    elif toks[i].is_word("BITMAP"):
        ctx.note("BITMAP index → btree (PostgreSQL builds bitmaps at query time from btree indexes)")
        i += 1
    if not toks[i].is_word("INDEX"):
        raise LexError("not a CREATE INDEX statement")
    qualified, i = read_name(toks, i + 1)
    # PostgreSQL puts an index in its table's schema; the index name cannot be qualified.
    name = qualified.last
    if not toks[i].is_word("ON"):
        raise LexError("expected ON after the index name")
    if toks[i + 1].is_word("CLUSTER"):
        raise LexError("cluster index: PostgreSQL has no table clusters")
    table, i = read_name(toks, i + 1)
    if toks[i].text != "(":
        raise LexError("expected the indexed column list")
    end = matching_paren(toks, i)
    elements = split_top_level(toks[i + 1 : end])
    plain = tuple(ident(el[0]) for el in elements if len(el) == 1 and el[0].kind in ("word", "qident"))
    entry = ctx.catalog.lookup(*table)
    if entry is not None and len(plain) == len(elements) and (name, plain) in entry.table.key_constraints:
        # Oracle creates the index first and the constraint then uses it; PostgreSQL's constraint
        # creates its own unique index under the constraint's name, which is this index's name
        ctx.note(f"index {name}: the index of constraint {name} on the same columns, created with it")
        return f"-- index {comment_text(name)}: created by constraint {comment_text(name)} of {comment_text(table.sql)}"
    cols = [_element(text, el, ctx) for el in elements]
    _trailing(text, toks[end + 1 :], ctx)
    entry = ctx.catalog.lookup(*table) if ctx.catalog is not None and len(table) <= 2 else None
    on_commit = entry.table.on_commit if entry is not None else ""
    if on_commit and ctx.enabled("ddl.session_temporary_table"):
        # a global temporary table's rows are in its row table (its name is a view); a unique
        # index holds per session (and transaction), as the rows are private to it
        ctx.applied("ddl.session_temporary_table")
        table = session_rows_name(table)
        if unique:
            hidden = [SESSION_COLUMN, XACT_COLUMN] if rows_end_with_transaction(on_commit) else [SESSION_COLUMN]
            cols = [quote_ident(c) for c in hidden] + cols
    return f"CREATE {unique}INDEX {quote_ident(name)} ON {table.sql} ({', '.join(cols)});"


def _element(text: str, el: list[Token], ctx: ConversionContext) -> str:
    order = ""
    if el[-1].is_word("ASC", "DESC"):
        order, el = " " + el[-1].text.upper(), el[:-1]
    if len(el) == 1 and el[0].kind in ("word", "qident"):
        return quote_ident(ident(el[0])) + order
    # A function-based index: PostgreSQL wants the expression in parentheses.
    return f"({convert_expression(source(text, el), ctx)}){order}"


def _trailing(text: str, toks: list[Token], ctx: ConversionContext) -> None:
    if not toks:
        return
    if any(t.is_word("INDEXTYPE") for t in toks):
        raise LexError("domain index (INDEXTYPE IS ...): use a PostgreSQL text-search or GIN index")
    if not toks[0].is_word(*_PHYSICAL):
        raise LexError(f"unknown index option {source(text, toks[:3])!r}")
    require(ctx, "ddl.physical_attributes", "index options")
    ctx.applied("ddl.physical_attributes")
    ctx.note(f"index options dropped (storage/build only, no behaviour): {words(toks)}")
    if any(t.is_word("INVISIBLE") for t in toks):
        ctx.note("INVISIBLE index: PostgreSQL's planner will use it")
