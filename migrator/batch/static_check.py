"""Static check of converted output with PostgreSQL's own parser (pglast wraps libpg_query).

`parse_sql` checks the SQL grammar of every statement; `parse_plpgsql` additionally compiles the
body of every PL/pgSQL function, procedure and DO block, which catches statement-level errors
inside bodies that the SQL grammar sees only as an opaque string. Passing here means "PostgreSQL
would parse it" — not that it is correct (that takes execution).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

import pglast
from pglast.parser import parse_plpgsql_json, parse_sql_json

# libpg_query's offline PL/pgSQL compiler has no catalog: it cannot resolve `schema.type%TYPE`
# and similar names outside pg_catalog/public and says "Not implemented". That is a limit of the
# checker, not an error in the text; such bodies are left to the deploy step (reported as a note).
_UNSUPPORTED = "Not implemented"
# psql's inline COPY: the command (kept), then its rows up to and including the `\.` line (left out)
_COPY_ROWS = re.compile(r"^(COPY\b[^;]*?\bFROM\s+STDIN\b[^;\n]*;)[ \t]*\n.*?^\\\.$", re.I | re.M | re.S)


@dataclass(frozen=True)
class StaticResult:
    ok: bool
    statements: int
    plpgsql_bodies: int
    error: str | None = None
    note: str | None = None  # the check could not decide part of the text (see _UNSUPPORTED)


def _language(options: list[dict] | None) -> str | None:
    """The LANGUAGE option of a CREATE FUNCTION/PROCEDURE or DO, as written (None if not given)."""
    for opt in options or ():
        elem = opt.get("DefElem", {})
        if elem.get("defname") == "language":
            return elem["arg"]["String"]["sval"]
    return None


def _is_plpgsql(node: dict) -> bool:
    """`node` is one statement of libpg_query's JSON parse tree ({"DoStmt": {...}} etc.)."""
    if "DoStmt" in node:
        lang = _language(node["DoStmt"].get("args"))
        return lang is None or lang.lower() == "plpgsql"
    if "CreateFunctionStmt" in node:
        lang = _language(node["CreateFunctionStmt"].get("options"))
        return lang is not None and lang.lower() == "plpgsql"
    return False


def check_sql(text: str) -> StaticResult:
    """Parse `text`; every PL/pgSQL routine/DO block is also parsed as PL/pgSQL.

    The statements are read from libpg_query's JSON tree (json.loads): building pglast's Python
    node objects (`parse_sql`) for every statement took twice as long, and only each statement's
    kind, LANGUAGE and position are needed; text with no DO block or function is not read at all
    (below). Positions in the JSON are UTF-8 byte offsets. The inline rows of psql's
    `COPY … FROM STDIN;` (a table's data unit) are data, not SQL: the COPY command is checked."""
    if "STDIN" in text:
        text = _COPY_ROWS.sub(r"\1", text)
    try:
        tree = parse_sql_json(text)
    except pglast.parser.ParseError as exc:
        return StaticResult(False, 0, 0, f"SQL parse error: {exc}")
    if '"DoStmt"' not in tree and '"CreateFunctionStmt"' not in tree:
        # No PL/pgSQL to compile, so only the number of statements is wanted, and the JSON is not
        # read (reading it was most of the check's time, for tables and views). Each statement is
        # one {"stmt": ...} (RawStmt is the one node with that field); a `"` inside a JSON string
        # is escaped, so a string constant cannot spell the key.
        return StaticResult(True, tree.count('{"stmt":'), 0)
    stmts = json.loads(tree).get("stmts", [])
    data = text if text.isascii() else text.encode("utf-8")  # byte offsets index the encoded text
    bodies = 0
    notes: list[str] = []
    for stmt in stmts:
        if not _is_plpgsql(stmt["stmt"]):
            continue
        start, length = stmt.get("stmt_location", 0), stmt.get("stmt_len", 0)
        raw = data[start : start + length] if length else data[start:]
        piece = raw if isinstance(raw, str) else raw.decode("utf-8")
        try:
            parse_plpgsql_json(piece + ";")  # compiles it; the tree is not wanted
        except pglast.parser.ParseError as exc:
            if str(exc).startswith(_UNSUPPORTED):
                notes.append(f"PL/pgSQL body not statically checkable by libpg_query: {exc}")
                continue
            return StaticResult(False, len(stmts), bodies, f"PL/pgSQL parse error: {exc}")
        bodies += 1
    return StaticResult(True, len(stmts), bodies, note="; ".join(notes) or None)
