"""CREATE VIEW and CREATE MATERIALIZED VIEW: the query goes through the SQL converter."""

from __future__ import annotations

from harness.quoting import comment_text, quote_ident
from migrator.convert.context import ConversionContext
from migrator.convert.ddl.common import convert_statement, guarded, words
from migrator.convert.ddl.tokens import ident, read_name, source
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
    while not toks[i].is_word("AS"):  # BEQUEATH CURRENT_USER|DEFINER, SHARING=...
        ctx.note(f"view clause dropped: {toks[i].text}")
        i += 1
    query_toks, option = _split_view_option(toks[i + 1 :], ctx)
    query = convert_statement(source(text, query_toks), ctx)
    return f"CREATE OR REPLACE VIEW {name.sql}{cols} AS\n{query}{option};"


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
