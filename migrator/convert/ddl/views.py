"""CREATE VIEW and CREATE MATERIALIZED VIEW: the query goes through the SQL converter."""

from __future__ import annotations

from harness.quoting import comment_text, quote_ident
from migrator.convert import type_hierarchy as hier
from migrator.convert.context import ConversionContext
from migrator.convert.ddl.common import convert_statement, guarded, words
from migrator.convert.ddl.tokens import ident, read_name, source
from migrator.convert.schema_model import ObjectType
from migrator.source.lexer import LexError, Token, matching_paren, split_top_level

_VIEW_PREFIX = {"OR", "REPLACE", "FORCE", "NO", "NOFORCE", "EDITIONABLE", "EDITIONING", "NONEDITIONABLE"}


def convert_view(text: str, ctx: ConversionContext) -> str:
    return guarded("ddl.view", "CREATE VIEW", _view, text, ctx)


def _view(text: str, toks: list[Token], ctx: ConversionContext) -> str:
    i = 1
    while toks[i].is_word(*_VIEW_PREFIX):
        if toks[i].is_word("FORCE"):
            ctx.note("FORCE dropped: PostgreSQL needs the view's tables to exist (deploy order handles it)")
        i += 1
    if not toks[i].is_word("VIEW"):
        raise LexError("not a CREATE VIEW statement")
    name, i = read_name(toks, i + 1)
    cols, i = _column_names(toks, i)
    if toks[i].is_word("OF"):  # an object view: its columns are the type's attributes
        cols, i = _object_view_columns(toks, i + 1, ctx)
    while not toks[i].is_word("AS"):  # BEQUEATH CURRENT_USER|DEFINER, SHARING=...
        ctx.note(f"view clause dropped: {toks[i].text}")
        i += 1
    query_toks, option = _split_view_option(toks[i + 1 :], ctx)
    query = convert_statement(source(text, query_toks), ctx)
    return f"CREATE OR REPLACE VIEW {name.sql}{cols} AS\n{query}{option};"


def _object_view_columns(toks: list[Token], i: int, ctx: ConversionContext) -> tuple[str, int]:
    """``CREATE VIEW v OF t WITH OBJECT IDENTIFIER (...) AS SELECT ...``: Oracle names the view's
    columns after t's attributes, in order (Object-Relational Developer's Guide, "Applying an
    Object Model to Relational Data"); the query's select list gives their values. The object
    identifier clause is not kept: references to the view's rows (REF, MAKE_REF) are refused."""
    type_name, j = read_name(toks, i)
    entry = ctx.catalog.lookup(*type_name) if 1 <= len(type_name) <= 2 else None
    info = entry.plsql_type if entry is not None else None
    if entry is not None and hier.in_hierarchy(ctx.catalog, (entry.schema, entry.name)):
        raise LexError(f"object view OF {type_name.sql}: a type of a hierarchy (UNDER / NOT FINAL)")
    if entry is None or not isinstance(info, ObjectType) or not info.attributes:
        raise LexError(f"object view OF {type_name.sql}: not an object type of the export")
    ctx.note(f"object view OF {type_name.sql}: columns named after its attributes; object identifier not kept")
    return f" ({', '.join(quote_ident(a) for a in info.attributes)})", j


def _column_names(toks: list[Token], i: int) -> tuple[str, int]:
    if toks[i].text != "(":
        return "", i
    end = matching_paren(toks, i)
    # Oracle allows inline constraints in a view's column list; only the names matter here.
    names = [quote_ident(ident(el[0])) for el in split_top_level(toks[i + 1 : end])]
    return f" ({', '.join(names)})", end + 1


def _split_view_option(toks: list[Token], ctx: ConversionContext) -> tuple[list[Token], str]:
    """Separate a trailing WITH READ ONLY / WITH CHECK OPTION [CONSTRAINT name] from the query."""
    depth = 0
    for k, t in enumerate(toks):
        depth += t.text == "(" and t.kind == "op"
        depth -= t.text == ")" and t.kind == "op"
        if depth or not t.is_word("WITH") or k + 1 >= len(toks):
            continue
        if toks[k + 1].is_word("READ"):
            ctx.note(
                "WITH READ ONLY: PostgreSQL views on one table are updatable; revoke "
                "INSERT/UPDATE/DELETE on the view to keep it read-only"
            )
            return toks[:k], ""
        if toks[k + 1].is_word("CHECK"):
            if k + 3 < len(toks):
                ctx.note(f"check option constraint name dropped: {words(toks[k + 3 :])}")
            return toks[:k], "\nWITH CHECK OPTION"
    return toks, ""


def convert_materialized_view(text: str, ctx: ConversionContext) -> str:
    return guarded("ddl.materialized_view", "CREATE MATERIALIZED VIEW", _mview, text, ctx)


def _mview(text: str, toks: list[Token], ctx: ConversionContext) -> str:
    if toks[3].is_word("LOG"):
        ctx.note("materialized view log not needed: PostgreSQL refreshes by re-running the query")
        return f"-- materialized view log omitted (no PostgreSQL equivalent needed): {comment_text(words(toks[5:]))}"
    name, i = read_name(toks, 3)
    cols, i = _column_names(toks, i)
    options: list[Token] = []
    while i < len(toks) and not (toks[i].is_word("AS") and i + 1 < len(toks) and toks[i + 1].is_word("SELECT", "WITH")):
        if toks[i].is_word("PREBUILT"):
            raise LexError("ON PREBUILT TABLE: the existing table would have to become the view")
        options.append(toks[i])
        i += 1
    query = convert_statement(source(text, toks[i + 1 :]), ctx)
    no_data = any(t.is_word("DEFERRED") for t in options) and any(t.is_word("BUILD") for t in options)
    if options:
        ctx.note(
            f"materialized view options dropped: {words(options)}; PostgreSQL refreshes only "
            "on REFRESH MATERIALIZED VIEW (no FAST/ON COMMIT/scheduled refresh)"
        )
    return f"CREATE MATERIALIZED VIEW {name.sql}{cols} AS\n{query}\n{'WITH NO DATA' if no_data else 'WITH DATA'};"
