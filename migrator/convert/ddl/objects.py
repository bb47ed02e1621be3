"""COMMENT ON and CREATE SYNONYM.

PostgreSQL has no synonyms. A synonym for a table or view becomes a view ``SELECT * FROM
target`` (simple views are updatable, so DML through it keeps working); a synonym for a
sequence, routine or package cannot be a view and is reported unconverted — the catalog keeps
its `Synonym` (`migrator.convert.schema_model`) so the SQL and PL/SQL converters can resolve references through it.
"""

from __future__ import annotations

from harness.quoting import pg_string
from migrator.convert.context import ConversionContext
from migrator.convert.ddl.common import unconverted
from migrator.convert.ddl.tokens import Name, read_name
from migrator.convert.schema_model import Synonym
from migrator.source.lexer import LexError, Token, string_value, tokenize
from migrator.source.units import UnitKind

_COMMENT_TARGET = {UnitKind.VIEW: "VIEW", UnitKind.MATERIALIZED_VIEW: "MATERIALIZED VIEW"}
_VIEWABLE = {UnitKind.TABLE, UnitKind.VIEW, UnitKind.MATERIALIZED_VIEW}


def convert_comment(text: str, ctx: ConversionContext) -> str:
    if not ctx.enabled("ddl.comment"):
        return unconverted(ctx, "COMMENT", "rule ddl.comment is disabled", text)
    try:
        toks = tokenize(text)
        what = toks[2].text.upper()  # COMMENT ON TABLE|COLUMN|MATERIALIZED VIEW ...
        i = 4 if what == "MATERIALIZED" else 3
        name, i = read_name(toks, i)
        value = string_value(toks[i + 1]) if toks[i].is_word("IS") else None
        if value is None:
            raise LexError("expected IS '<text>'")
    except (LexError, IndexError) as exc:
        return unconverted(ctx, "COMMENT", f"could not read the statement: {exc}", text)
    if what == "TABLE":
        # Oracle's COMMENT ON TABLE also covers views; PostgreSQL wants the right object word.
        entry = ctx.catalog.lookup(*name)
        what = _COMMENT_TARGET.get(entry.kind, "TABLE") if entry else "TABLE"
    elif what == "MATERIALIZED":
        what = "MATERIALIZED VIEW"
    elif what not in ("COLUMN",):
        return unconverted(ctx, f"COMMENT ON {what}", "no PostgreSQL object of this kind", text)
    ctx.applied("ddl.comment")
    return f"COMMENT ON {what} {name.sql} IS {pg_string(value)};"


def synonym_info(text: str) -> Synonym:
    """The synonym's target, for the schema model and for its own conversion."""
    toks = tokenize(text)
    public = any(t.is_word("PUBLIC") for t in toks[:5])
    k = next(k for k, t in enumerate(toks) if t.is_word("FOR"))
    target, j = read_name(toks, k + 1)
    dblink = j < len(toks) and toks[j].text == "@"
    return Synonym(target, public, dblink)


def convert_synonym(text: str, ctx: ConversionContext) -> str:
    try:
        toks: list[Token] = tokenize(text)
        info = synonym_info(text)
        s = next(k for k, t in enumerate(toks) if t.is_word("SYNONYM"))
        name, _ = read_name(toks, s + 1)
    except (LexError, StopIteration, IndexError) as exc:
        return unconverted(ctx, "CREATE SYNONYM", f"could not read the statement: {exc}", text)
    target = info.target
    if info.dblink:
        return unconverted(ctx, "synonym over a database link", "use postgres_fdw for remote objects", text)
    entry = ctx.catalog.lookup(*target)
    if entry is not None and entry.kind not in _VIEWABLE:
        return unconverted(
            ctx,
            f"synonym for {entry.kind.value}",
            f"PostgreSQL has no synonyms: reference {target} directly (or via search_path)",
            text,
        )
    if not ctx.enabled("ddl.synonym"):
        return unconverted(ctx, "CREATE SYNONYM", "rule ddl.synonym is disabled", text)
    if info.public and len(name) == 1:
        name = Name(("public", *name))  # a public synonym is visible from every schema
    if entry is None:
        ctx.note(f"synonym target {target} is not in this export; assumed to be a table or view")
    ctx.note(f"synonym {name} → view over {target} (its column list is fixed at creation)")
    ctx.applied("ddl.synonym")
    return f"CREATE OR REPLACE VIEW {name.sql} AS SELECT * FROM {target.sql};"
