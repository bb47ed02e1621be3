"""Static check of converted output with PostgreSQL's own parser (pglast wraps libpg_query).

`parse_sql` checks the SQL grammar of every statement; `parse_plpgsql` additionally compiles the
body of every PL/pgSQL function, procedure and DO block, which catches statement-level errors
inside bodies that the SQL grammar sees only as an opaque string. Passing here means "PostgreSQL
would parse it" — not that it is correct (that takes execution).
"""

from __future__ import annotations

from dataclasses import dataclass

import pglast
from pglast import parse_plpgsql, parse_sql

# libpg_query's offline PL/pgSQL compiler has no catalog: it cannot resolve `schema.type%TYPE`
# and similar names outside pg_catalog/public and says "Not implemented". That is a limit of the
# checker, not an error in the text; such bodies are left to the deploy step (reported as a note).
_UNSUPPORTED = "Not implemented"


@dataclass(frozen=True)
class StaticResult:
    ok: bool
    statements: int
    plpgsql_bodies: int
    error: str | None = None
    note: str | None = None  # the check could not decide part of the text (see _UNSUPPORTED)


def _is_plpgsql(stmt) -> bool:
    node = stmt.stmt
    name = type(node).__name__
    if name == "DoStmt":
        langs = [a.arg.sval for a in (node.args or ()) if a.defname == "language"]
        return not langs or langs[0].lower() == "plpgsql"
    if name == "CreateFunctionStmt":
        for opt in node.options or ():
            if opt.defname == "language":
                return opt.arg.sval.lower() == "plpgsql"
    return False


def check_sql(text: str) -> StaticResult:
    """Parse `text`; every PL/pgSQL routine/DO block is also parsed as PL/pgSQL."""
    try:
        stmts = parse_sql(text)
    except pglast.parser.ParseError as exc:
        return StaticResult(False, 0, 0, f"SQL parse error: {exc}")
    bodies = 0
    notes: list[str] = []
    for stmt in stmts:
        if not _is_plpgsql(stmt):
            continue
        # pglast reports statement locations in characters of the input string.
        start = stmt.stmt_location or 0
        piece = text[start : start + stmt.stmt_len] if stmt.stmt_len else text[start:]
        try:
            parse_plpgsql(piece + ";")
        except pglast.parser.ParseError as exc:
            if str(exc).startswith(_UNSUPPORTED):
                notes.append(f"PL/pgSQL body not statically checkable by libpg_query: {exc}")
                continue
            return StaticResult(False, len(stmts), bodies, f"PL/pgSQL parse error: {exc}")
        bodies += 1
    return StaticResult(True, len(stmts), bodies, note="; ".join(notes) or None)
