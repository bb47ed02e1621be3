"""GRANT / REVOKE on objects. Grantees are Oracle users and roles that may not exist on the
PostgreSQL side, so each grant to a named role runs only when the role exists (a NOTICE says
when it was skipped); grants to PUBLIC are emitted directly."""

from __future__ import annotations

from harness.quoting import pg_string, quote_ident
from migrator.convert.context import ConversionContext
from migrator.convert.ddl.common import unconverted
from migrator.convert.ddl.tokens import Name, dollar_tag, ident, read_name
from migrator.source.lexer import LexError, Token, split_top_level, tokenize
from migrator.source.units import UnitKind

_TABLE_PRIVS = {
    "SELECT": "SELECT",
    "READ": "SELECT",
    "INSERT": "INSERT",
    "UPDATE": "UPDATE",
    "DELETE": "DELETE",
    "REFERENCES": "REFERENCES",
    "ALL": "ALL",
    "TRIGGER": "TRIGGER",
}
# Oracle object privileges that govern DDL/maintenance rather than data access.
_NO_EQUIVALENT = {"ALTER", "INDEX", "DEBUG", "FLASHBACK", "QUERY", "ON", "UNDER", "MERGE", "KEEP", "WRITE"}
_ROUTINES = {UnitKind.FUNCTION, UnitKind.PROCEDURE}


def convert_grant(text: str, ctx: ConversionContext) -> str:
    if not ctx.enabled("ddl.grant"):
        return unconverted(ctx, "GRANT", "rule ddl.grant is disabled", text)
    try:
        out = _convert(text, tokenize(text), ctx)
    except (LexError, IndexError) as exc:
        return unconverted(ctx, "GRANT", f"could not read the statement: {exc}", text)
    if out is None:
        return unconverted(
            ctx,
            "system privilege or role grant",
            "system privileges and role grants are administered outside the schema",
            text,
        )
    ctx.applied("ddl.grant")
    return out


def _convert(text: str, toks: list[Token], ctx: ConversionContext) -> str | None:
    verb = toks[0].text.upper()  # GRANT | REVOKE
    on = next((k for k, t in enumerate(toks) if t.is_word("ON")), -1)
    if on < 0:
        return None
    to_word = "TO" if verb == "GRANT" else "FROM"
    to = next(k for k, t in enumerate(toks) if t.is_word(to_word) and k > on)
    obj, _ = read_name(toks, on + 1)
    privs = [" ".join(t.text.upper() for t in p) for p in split_top_level(toks[1:on])]
    grantees = [ident(p[0]) for p in split_top_level(_grantee_tokens(toks[to + 1 :]))]
    with_option = " WITH GRANT OPTION" if any(t.is_word("GRANT") for t in toks[to + 1 :]) else ""
    target, pg_privs = _target(obj, privs, ctx)
    if not pg_privs:
        return unconverted(ctx, f"{verb} {', '.join(privs)}", "privileges with no PostgreSQL equivalent", text)
    stmts = []
    for grantee in grantees:
        option = with_option if grantee != "public" else ""  # PostgreSQL: no grant option for PUBLIC
        role = quote_ident(grantee)
        stmt = (
            f"GRANT {', '.join(pg_privs)} ON {target} TO {role}{option}"
            if verb == "GRANT"
            else f"REVOKE {', '.join(pg_privs)} ON {target} FROM {role}"
        )
        stmts.append(_guarded(stmt, grantee, ctx))
    return "\n".join(stmts)


def _grantee_tokens(toks: list[Token]) -> list[Token]:
    out = []
    for t in toks:
        if t.is_word("WITH", "CASCADE", "FORCE"):
            break
        out.append(t)
    return out


def _target(obj: Name, privs: list[str], ctx: ConversionContext) -> tuple[str, list[str]]:
    entry = ctx.catalog.lookup(*obj)
    kind = entry.kind if entry else UnitKind.TABLE
    dropped = [p for p in privs if p.split()[0] in _NO_EQUIVALENT]
    if dropped:
        ctx.note(f"privileges without PostgreSQL equivalent dropped: {', '.join(dropped)}")
    kept = [p for p in privs if p not in dropped]
    if kind in _ROUTINES:
        return f"ROUTINE {obj.sql}", ["EXECUTE"] if any(p.startswith(("EXECUTE", "ALL")) for p in kept) else []
    if kind in (UnitKind.PACKAGE_SPEC, UnitKind.PACKAGE_BODY):
        # A package becomes a schema: EXECUTE on it means using that schema's routines.
        ctx.note(f"EXECUTE on package {obj} → USAGE on schema {obj} (grant EXECUTE on its routines too)")
        # the package's schema has the package's own name (migrator.convert.plsql.emit_package)
        return f"SCHEMA {quote_ident(obj.last)}", ["USAGE"] if kept else []
    if kind is UnitKind.SEQUENCE:
        # nextval needs USAGE (or UPDATE); Oracle SELECT on a sequence is what lets you call NEXTVAL.
        return f"SEQUENCE {obj.sql}", ["USAGE", "SELECT"] if kept else []
    privs_pg = []
    for p in kept:
        pg = _TABLE_PRIVS.get(p.split()[0])
        if pg and pg not in privs_pg:
            privs_pg.append("ALL PRIVILEGES" if pg == "ALL" else pg)
    return f"TABLE {obj.sql}", privs_pg


def _guarded(stmt: str, grantee: str, ctx: ConversionContext) -> str:
    if grantee == "public":
        return stmt + ";"
    ctx.note(f"grant to {grantee} runs only if that role exists in PostgreSQL")
    # the role name is a value here: a string literal, with '%' doubled in RAISE's format string
    body = (
        "\nBEGIN\n"
        f"    IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = {pg_string(grantee)}) THEN\n"
        f"        {stmt};\n"
        "    ELSE\n"
        f"        RAISE NOTICE {pg_string(f'role {grantee} does not exist: skipped: '.replace('%', '%%') + '%')}, "
        f"{pg_string(stmt)};\n"
        "    END IF;\nEND\n"
    )
    tag = dollar_tag(body, "grant")
    return f"DO {tag}{body}{tag};"
