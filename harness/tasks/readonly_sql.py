"""Run one untrusted SQL query on a read-only connection and capture what happened.

Used to judge Text-to-SQL predictions by execution: the query may come from a model or a user's
predictions file, so every connection is read-only twice over (SQLite: `mode=ro` URI, `query_only`
and an authorizer refusing writes, ATTACH and PRAGMA; PostgreSQL: every query in its own
`BEGIN READ ONLY` transaction, rolled back), with a per-query timeout and a row cap. Knows nothing
of benchmarks or LLMs: it returns rows, or the DBMS's own error text and code.
"""

from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

DEFAULT_TIMEOUT_S = 30.0
DEFAULT_ROW_CAP = 100_000


@dataclass(frozen=True)
class QueryResult:
    """status: "ok" | "error" | "timeout" | "row cap" (more rows than the cap: not judged)."""

    status: str
    rows: tuple[tuple, ...] = ()
    columns: int = 0
    names: tuple[str, ...] = ()  # column names as the DBMS reports them
    error: str = ""  # the DBMS's message, as a user would see it
    code: str = ""  # SQLSTATE (PostgreSQL) or the sqlite3 exception class
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return self.status == "ok"


class ReadOnlyDatabase(Protocol):
    dialect: str  # "sqlite" | "postgres"

    def run(self, sql: str) -> QueryResult: ...
    def schema_rows(self) -> list[tuple[str, str]]: ...
    def close(self) -> None: ...


@dataclass
class Limits:
    timeout_s: float = DEFAULT_TIMEOUT_S
    row_cap: int = DEFAULT_ROW_CAP


def hashable(value):
    """Rows are compared as sets and multisets: make driver values hashable without changing equality
    for the scalar types (lists/dicts from PostgreSQL json/array columns become tuples/JSON text)."""
    if isinstance(value, list):
        return tuple(hashable(v) for v in value)
    if isinstance(value, dict):
        return json.dumps(value, sort_keys=True, default=str)
    if isinstance(value, memoryview | bytearray):
        return bytes(value)
    return value


# Authorizer action codes that would change something or reach outside the one database file.
_DENIED = {
    getattr(sqlite3, name)
    for name in (
        "SQLITE_ATTACH",
        "SQLITE_DETACH",
        "SQLITE_PRAGMA",
        "SQLITE_INSERT",
        "SQLITE_UPDATE",
        "SQLITE_DELETE",
        "SQLITE_ALTER_TABLE",
        "SQLITE_CREATE_INDEX",
        "SQLITE_CREATE_TABLE",
        "SQLITE_CREATE_TEMP_TABLE",
        "SQLITE_CREATE_TEMP_VIEW",
        "SQLITE_CREATE_TRIGGER",
        "SQLITE_CREATE_VIEW",
        "SQLITE_CREATE_VTABLE",
        "SQLITE_DROP_TABLE",
        "SQLITE_DROP_VIEW",
        "SQLITE_DROP_INDEX",
        "SQLITE_DROP_TRIGGER",
        "SQLITE_DROP_VTABLE",
        "SQLITE_ANALYZE",
        "SQLITE_REINDEX",
    )
    if hasattr(sqlite3, name)
}


def _authorize(action, *_args) -> int:
    return sqlite3.SQLITE_DENY if action in _DENIED else sqlite3.SQLITE_OK


@dataclass
class SqliteReadOnly:
    """One SQLite file opened read-only; `run` executes exactly one statement."""

    path: Path
    limits: Limits = field(default_factory=Limits)
    dialect: str = "sqlite"

    def __post_init__(self) -> None:
        self.path = Path(self.path)
        if not self.path.is_file():
            raise FileNotFoundError(f"no SQLite database at {self.path}")
        uri = f"file:{self.path.resolve().as_posix()}?mode=ro"
        self._conn = sqlite3.connect(uri, uri=True, check_same_thread=False, isolation_level=None)
        self._conn.execute("PRAGMA query_only = ON")
        # Benchmarks' text is UTF-8 but not always valid: keep bytes rather than fail the query.
        self._conn.text_factory = lambda b: b.decode("utf-8", errors="replace")
        self._conn.set_authorizer(_authorize)

    def run(self, sql: str) -> QueryResult:
        deadline = time.perf_counter() + self.limits.timeout_s
        t0 = time.perf_counter()
        self._conn.set_progress_handler(lambda: int(time.perf_counter() > deadline), 1000)
        try:
            cur = self._conn.execute(sql)
            rows = cur.fetchmany(self.limits.row_cap + 1)
            names = tuple(d[0] for d in cur.description or ())
        except (sqlite3.Error, ValueError, OverflowError) as err:
            seconds = time.perf_counter() - t0
            if time.perf_counter() > deadline:
                return QueryResult("timeout", error=f"timed out after {self.limits.timeout_s:g} s", seconds=seconds)
            return QueryResult("error", error=str(err), code=type(err).__name__, seconds=seconds)
        finally:
            self._conn.set_progress_handler(None, 0)
        return capped_result(rows, names, self.limits.row_cap, time.perf_counter() - t0)

    def schema_rows(self) -> list[tuple[str, str]]:
        """(table name, CREATE statement) of every user table, in file order."""
        self._conn.set_authorizer(None)
        try:
            return self._conn.execute(
                "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid"
            ).fetchall()
        finally:
            self._conn.set_authorizer(_authorize)

    def close(self) -> None:
        self._conn.close()


def capped_result(rows: list, names: tuple[str, ...], cap: int, seconds: float) -> QueryResult:
    if len(rows) > cap:
        return QueryResult("row cap", columns=len(names), names=names, error=f"more than {cap} rows", seconds=seconds)
    values = tuple(tuple(hashable(v) for v in r) for r in rows)
    return QueryResult("ok", values, len(names), names, seconds=seconds)
