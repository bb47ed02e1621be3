"""Test code is deployed routine by routine: what did not convert raises why, when it is called.

A library unit with anything not converted is refused whole (`convert.dispatch.refuse_partial`):
deploying it would hide a hole in production code. Test code is different: a test framework has a
large surface (Pete's logger writes through dynamic PL/SQL with OUT binds, its XML assertions use
XMLTYPE methods) and a suite uses a small part of it; refusing the whole framework package for one
routine would stop every test for a reason none of them reaches. So for test code only, each
`CREATE FUNCTION/PROCEDURE` statement whose body holds an unconverted marker, or whose body
PostgreSQL's parser refuses, keeps its signature and gets a body that raises SQLSTATE 0A000
(`feature_not_supported`) naming what did not convert; a test that reaches it is an `error` saying
so. A statement that is nothing but a marker (the unit-level refusal) is dropped; any other
statement with a marker (one in a routine's signature, a type) is left out and reported, and
whatever calls it fails with "does not exist", which the runner explains.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import pglast
from pglast.parser import parse_plpgsql_json

from harness.quoting import pg_string
from migrator.convert.context import MARKER_TOKEN

_ROUTINE = re.compile(
    r"^(?P<head>\s*CREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|PROCEDURE)\b.*?\bAS\s+)(?P<tag>\$[A-Za-z_]*\$)(?P<body>.*)(?P=tag)(?P<tail>[^$]*)$",
    re.S | re.I,
)
_CONSTRUCT = re.compile(rf"{MARKER_TOKEN}\(([^)]*)\)")
_BARE = re.compile(rf"^\s*(?:/\*.*?\*/\s*)?{MARKER_TOKEN}\s*;?\s*$", re.S)
_NAME = re.compile(r"(?:FUNCTION|PROCEDURE)\s+([^\s(]+)", re.I)


@dataclass
class Runnable:
    text: str
    stubbed: list[str] = field(default_factory=list)  # "routine: why" for each routine that raises now
    dropped: list[str] = field(default_factory=list)  # statements left out (first line each)

    @property
    def changed(self) -> bool:
        return bool(self.stubbed or self.dropped)


def runnable(output: str) -> Runnable:
    """`output` (a converted test unit) with what cannot run replaced as the module says."""
    try:
        pieces = [output[s.start : s.stop] for s in pglast.split(output, with_parser=False, only_slices=True)]
    except pglast.parser.ParseError:
        return Runnable(output)
    result = Runnable("")
    kept: list[str] = []
    for piece in pieces:
        why = _problem(piece)
        if why is None:
            kept.append(piece + ";")
            continue
        if _BARE.match(piece):
            continue
        m = _ROUTINE.match(piece)
        if m is not None and MARKER_TOKEN not in m.group("head"):
            name = (_NAME.search(m.group("head")) or [None, "?"])[1]
            message = pg_string(f"{name} is not converted: {why}")
            body = f"\nBEGIN\n    RAISE EXCEPTION USING ERRCODE = '0A000', MESSAGE = {message};\nEND;\n"
            kept.append(m.group("head") + m.group("tag") + body + m.group("tag") + m.group("tail") + ";")
            result.stubbed.append(f"{name}: {why}")
            continue
        result.dropped.append(piece.strip().splitlines()[0][:200] if piece.strip() else "")
        kept.append("-- left out for the tests (not converted): " + " ".join(piece.split())[:200])
    result.text = "\n\n".join(kept) + "\n"
    return result


def statements(text: str) -> list[str]:
    """`text`'s top-level statements (PostgreSQL's scanner: dollar quotes and comments known)."""
    return [text[s.start : s.stop] for s in pglast.split(text, with_parser=False, only_slices=True)]


def stub(piece: str, why: str) -> str | None:
    """A routine's CREATE statement with a body that raises `why` (None: not a routine)."""
    m = _ROUTINE.match(piece)
    if m is None or MARKER_TOKEN in m.group("head"):
        return None
    name = (_NAME.search(m.group("head")) or [None, "?"])[1]
    message = pg_string(f"{name} is not converted: {why}")
    body = f"\nBEGIN\n    RAISE EXCEPTION USING ERRCODE = '0A000', MESSAGE = {message};\nEND;\n"
    return m.group("head") + m.group("tag") + body + m.group("tag") + m.group("tail") + ";"


def salvage(conn, text: str) -> list[str] | None:
    """Deploy `text` (a test unit PostgreSQL refused whole) statement by statement: a routine
    PostgreSQL refuses gets a stub raising its error, any other refused statement is left out.
    Returns what was stubbed or left out (None when nothing at all could be deployed)."""
    import psycopg

    try:
        pieces = statements(text)
    except pglast.parser.ParseError:
        return None
    missing: list[str] = []
    done = 0
    for piece in pieces:
        if not piece.strip():
            continue
        try:
            conn.execute((piece + ";").encode("utf-8"))
            done += 1
            continue
        except psycopg.Error as exc:
            why = (exc.diag.message_primary if exc.diag and exc.diag.message_primary else str(exc)).strip()
        replacement = stub(piece, f"PostgreSQL refused it: {why}")
        if replacement is not None:
            try:
                conn.execute(replacement.encode("utf-8"))
                done += 1
                missing.append(f"{(_NAME.search(piece) or [None, '?'])[1]} raises ({why})")
                continue
            except psycopg.Error:
                pass
        missing.append(f"left out: {' '.join(piece.split())[:120]} ({why})")
    return missing if done else None


def _problem(piece: str) -> str | None:
    """Why a statement cannot be deployed as it is, or None."""
    if MARKER_TOKEN in piece:
        constructs = list(dict.fromkeys(c.strip() for c in _CONSTRUCT.findall(piece)))
        return "; ".join(constructs) or "not converted"
    if _ROUTINE.match(piece) and re.search(r"LANGUAGE\s+plpgsql", piece, re.I):
        try:
            parse_plpgsql_json(piece + ";")
        except pglast.parser.ParseError as exc:
            if str(exc).startswith("Not implemented"):  # libpg_query cannot decide: the server will
                return None
            return f"PostgreSQL's parser refuses it: {exc}"
    return None
