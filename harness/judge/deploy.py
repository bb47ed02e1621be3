"""Deploy converted units, one at a time and in order, into a scratch PostgreSQL database.

Each unit's text is sent as one simple-protocol query in autocommit mode: PostgreSQL runs the
statements of one query string in a single implicit transaction, so a unit either deploys whole
or leaves nothing behind, and one failing unit does not stop the others. The error is kept with
its SQLSTATE (psycopg keys errors by SQLSTATE) so reports can say exactly why a unit was refused.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import psycopg


@dataclass(frozen=True)
class DeployOutcome:
    unit_id: str
    ok: bool
    seconds: float
    error: str | None = None
    sqlstate: str | None = None
    # Set when the unit deployed (or not) after one of its dependencies was refused: PL/pgSQL
    # bodies bind late, so "deployed" alone would overstate what works.
    blocked_by: tuple[str, ...] = ()


def execute_script(conn: psycopg.Connection, text: str) -> tuple[str | None, str | None]:
    """Run a multi-statement script; returns (error text, SQLSTATE), both None on success.
    A script with psql's inline `COPY … FROM STDIN;` rows (a table's data unit) runs in one
    transaction, its rows streamed through COPY, as psql runs it."""
    try:
        if has_inline_copy(text):
            with conn.transaction():
                for sql, rows in _copy_parts(text):
                    if rows is None:
                        conn.execute(sql.encode("utf-8"))
                        continue
                    with conn.cursor().copy(sql.encode("utf-8")) as copy:
                        copy.write(rows.encode("utf-8"))
            return None, None
        conn.execute(text.encode("utf-8"))  # bytes: never treated as a parameterised query
        return None, None
    except psycopg.Error as exc:
        diag = exc.diag
        where = f" (line {_line_of(text, diag.statement_position)})" if diag and diag.statement_position else ""
        return f"{type(exc).__name__}: {str(exc).strip()}{where}", exc.sqlstate


def _line_of(text: str, position: str) -> int:
    """The line of `text` that holds the error: the server gives a character position (1-based)
    in the script, not a line."""
    return text[: max(0, int(position) - 1)].count("\n") + 1


# psql's inline COPY: the command on its own line, its rows, then a line `\.`
# The command may name quoted identifiers holding ';' ("C;1"): a quoted name is skipped whole.
_COPY_FROM_STDIN = re.compile(r'^COPY\b(?:"(?:[^"]|"")*"|[^;"])*?\bFROM\s+STDIN\b[^;\n]*;[ \t]*\n', re.I | re.M)


def has_inline_copy(text: str) -> bool:
    """psql's `COPY … FROM STDIN;` followed by its rows (a pg_dump, a table's data unit)."""
    return "STDIN" in text.upper() and _COPY_FROM_STDIN.search(text) is not None


def _copy_parts(text: str) -> Iterator[tuple[str, str | None]]:
    """`text` as (SQL, None) and (COPY command, its inline rows) parts, in order."""
    pos = 0
    for m in _COPY_FROM_STDIN.finditer(text):
        if m.start() < pos:  # a row of the previous COPY
            continue
        if text[pos : m.start()].strip():
            yield text[pos : m.start()], None
        end = text.find("\n\\.", m.end() - 1)
        if end < 0:  # no end marker: sent as SQL, PostgreSQL reports what is wrong
            yield text[m.start() :], None
            return
        yield m.group().strip(), text[m.end() : end + 1]
        nl = text.find("\n", end + 3)
        pos = len(text) if nl < 0 else nl + 1
    if text[pos:].strip():
        yield text[pos:], None


def deploy_units(
    dsn: str,
    preamble: str,
    items: Iterable[tuple[str, str, Iterable[str]]],
    *,
    statement_timeout_ms: int = 30_000,
    on_done: Callable[[DeployOutcome], None] | None = None,
    probe: Callable[[psycopg.Connection, str], None] | None = None,
) -> tuple[DeployOutcome, list[DeployOutcome]]:
    """Run `preamble`, then each (unit_id, sql, dependency ids) in the given order.

    Returns the preamble's outcome and one outcome per unit. A unit whose dependency failed is
    still attempted (its own error, if any, is the useful one) and carries `blocked_by`.
    `probe(conn, unit_id)` runs after each unit on the same connection (e.g. to see what it created).
    """
    outcomes: list[DeployOutcome] = []
    failed: set[str] = set()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"SET statement_timeout = {int(statement_timeout_ms)}")
        t0 = time.perf_counter()
        err, state = execute_script(conn, preamble)
        pre = DeployOutcome("<preamble>", err is None, time.perf_counter() - t0, err, state)
        if probe:
            probe(conn, "<preamble>")
        for unit_id, text, deps in items:
            t0 = time.perf_counter()
            err, state = execute_script(conn, text) if text.strip() else ("empty output: nothing to deploy", None)
            blocked = tuple(sorted(d for d in deps if d in failed))
            outcome = DeployOutcome(unit_id, err is None, time.perf_counter() - t0, err, state, blocked)
            if err is not None:
                failed.add(unit_id)
            outcomes.append(outcome)
            if probe:
                probe(conn, unit_id)
            if on_done:
                on_done(outcome)
    return pre, outcomes
