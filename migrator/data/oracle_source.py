"""`migrator data copy --oracle DSN`: tables read from a live Oracle into the same streaming loader.

A `RowSource` gives table names, their columns and their rows as Python values; `copy_rows`
spools each table's rows as COPY lines (`OUT/data/<table>.sql`, as `data load` does) and loads
them with the same rejects, checksums, parents-first order, `--workers` and resume. `OracleSource`
reads with python-oracledb in thin mode (no client install): array size and prefetch of
`ARRAY_SIZE` rows, LOBs fetched as str/bytes row by row (never a whole table in memory), and a
table's rows counted on Oracle by a query, which must equal the rows read. Tables are read on
`workers` threads (one connection each). Tests drive `copy_rows` with an in-process source; the
Oracle part needs an Oracle and is skipped without one, as `record --oracle` is.
"""

from __future__ import annotations

import datetime as dt
import decimal
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Protocol

from migrator.data import checksum, copy_text
from migrator.data.checksum import Column
from migrator.data.rows import Value, pg_name
from migrator.data.run import LoadRun, load_spooled
from migrator.data.spool import Spooled, TableSpool, file_name

ARRAY_SIZE = 5_000


class RowSource(Protocol):
    def tables(self) -> list[str]: ...
    def columns(self, table: str) -> list[str]: ...
    def rows(self, table: str) -> Iterator[tuple]: ...
    def count(self, table: str) -> int | None: ...  # counted at the source (None: not known)
    # the table's checksum (checksum.py) computed at the source, given each source column's
    # PostgreSQL column; None: the source cannot compute it (a type without a canonical expression)
    def checksum(self, table: str, columns: list[tuple[str, Column]]) -> int | None: ...


def to_value(v: object) -> Value:
    """A driver's Python value as COPY text for the matching PostgreSQL type."""
    if v is None or isinstance(v, bytes):
        return v
    if isinstance(v, str):
        return v or None  # Oracle has no empty string
    if isinstance(v, dt.datetime):
        return v.isoformat(" ")
    if isinstance(v, dt.date):
        return v.isoformat()
    if isinstance(v, dt.timedelta):  # INTERVAL DAY TO SECOND
        return f"{v.days} days {v.seconds} seconds {v.microseconds} microseconds"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, decimal.Decimal)):
        return str(v)
    if isinstance(v, float):
        return repr(v)
    read = getattr(v, "read", None)  # a LOB the driver did not fetch inline
    if callable(read):
        return to_value(read())
    return str(v)


def stored_name(name: str) -> str:
    """A name as Oracle's dictionary stores it (upper case for names written bare) → the PostgreSQL
    identifier text the converted DDL created for it."""
    return pg_name('"' + name.replace('"', '""') + '"')


def oracle_quoted(name: str) -> str:
    """A dictionary name as an Oracle quoted identifier (Oracle names cannot hold a double quote:
    one that does is refused rather than pasted into the query)."""
    if '"' in name or "\x00" in name:
        raise ValueError(f"not an Oracle identifier: {name!r}")
    return f'"{name}"'


def copy_rows(
    source: RowSource,
    pg_dsn: str,
    out: Path,
    *,
    tables: list[str] | None = None,
    max_rejects: int | None = None,
    workers: int = 1,
    progress: bool = False,
) -> LoadRun:
    t0 = time.perf_counter()
    names = tables or source.tables()
    spooled = Spooled({}, [], [])

    def read(name: str) -> TableSpool:
        # the dictionary's stored names, as the converted DDL names them (folded, quoted where needed)
        cols = [stored_name(c) for c in source.columns(name)]
        target = stored_name(name)
        fname = file_name(target)
        sp = TableSpool(target, out / "data" / f"{fname}.sql", out / ".migrator" / "data" / f"{fname}.where")
        sp.open()
        try:
            for k, row in enumerate(source.rows(name), 1):
                sp.row(tuple(cols), copy_text.line(to_value(v) for v in row), f"{name}:row {k}")
        finally:
            sp.close()
        counted = source.count(name)
        if counted is not None and counted != sp.rows:
            spooled.issues.append(f"{name}: {counted} rows counted on the source, {sp.rows} read")
        return sp

    with ThreadPoolExecutor(max(1, workers)) as pool:
        for sp in pool.map(read, names):
            spooled.tables[sp.table] = sp
    run = load_spooled(spooled, pg_dsn, out, max_rejects=max_rejects, workers=workers, progress=progress, t0=t0)
    _compare_at_source(source, names, run, pg_dsn)
    _rewrite_report(run, out)
    return run


def _compare_at_source(source: RowSource, names: list[str], run: LoadRun, pg_dsn: str) -> None:
    """Each loaded table's checksum computed again at the source (on Oracle, by a query): it must
    equal the loaded table's. A source that cannot compute it leaves `origin_checksum` empty."""
    import psycopg

    at_source_of = getattr(source, "checksum", None)  # an in-process source may not compute one
    if at_source_of is None:
        return
    results = {r.table: r for r in run.tables}
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        for name in names:
            res = results.get(stored_name(name))
            if res is None or not res.loaded_checksum:
                continue
            src_cols = source.columns(name)
            pg_cols = checksum.table_columns(conn, res.table, [stored_name(c) for c in src_cols])
            at_source = at_source_of(name, list(zip(src_cols, pg_cols)))
            if at_source is not None:
                res.origin_checksum = f"{at_source & checksum.MASK64:016x}"
                if not res.checksums_agree:
                    run.issues.append(f"{name}: the checksum computed at the source differs from the loaded table's")


def _rewrite_report(run: LoadRun, out: Path) -> None:
    import json

    from migrator.data.run import REPORT, report

    (out / REPORT).write_text(json.dumps(report(run), indent=1) + "\n", encoding="utf-8")


class OracleSource:
    """Tables of the connected Oracle user, read with python-oracledb (thin mode)."""

    def __init__(self, dsn: str):
        from harness.engines.oracle import DsnOracle, _oracledb

        self._engine = DsnOracle(dsn)
        _oracledb().defaults.fetch_lobs = False  # CLOB/BLOB as str/bytes, row by row

    def _connect(self):
        return self._engine.connect()

    def tables(self) -> list[str]:
        with self._connect() as conn, conn.cursor() as cur:
            cur.execute(
                "SELECT table_name FROM user_tables WHERE nested = 'NO' AND temporary = 'N' ORDER BY table_name"
            )
            return [r[0] for r in cur]

    def columns(self, table: str) -> list[str]:
        with self._connect() as conn, conn.cursor() as cur:
            cur.execute(
                "SELECT column_name FROM user_tab_columns WHERE table_name = :t ORDER BY column_id", t=table.upper()
            )
            return [r[0] for r in cur]

    def rows(self, table: str) -> Iterator[tuple]:
        cols = ", ".join(oracle_quoted(c) for c in self.columns(table))
        with self._connect() as conn, conn.cursor() as cur:
            cur.arraysize = ARRAY_SIZE
            cur.prefetchrows = ARRAY_SIZE + 1
            cur.execute(f"SELECT {cols} FROM {oracle_quoted(table)}")
            while batch := cur.fetchmany():
                yield from batch

    def count(self, table: str) -> int | None:
        with self._connect() as conn, conn.cursor() as cur:
            cur.execute(f"SELECT COUNT(*) FROM {oracle_quoted(table)}")
            row = cur.fetchone()
            return int(row[0]) if row else None

    def checksum(self, table: str, columns: list[tuple[str, Column]]) -> int | None:
        """The checksum by one query on Oracle (checksum.oracle_checksum_query)."""
        query = checksum.oracle_checksum_query(oracle_quoted(table), [(oracle_quoted(n), c) for n, c in columns])
        if query is None:
            return None
        with self._connect() as conn, conn.cursor() as cur:
            # a value without a zone loads into timestamptz as UTC (the load's session): so is it cast here
            cur.execute("ALTER SESSION SET TIME_ZONE = 'UTC'")
            cur.execute(query)
            row = cur.fetchone()
            return int(row[0] or 0) if row else None


def copy_from_oracle(
    oracle_dsn: str,
    pg_dsn: str,
    out: Path,
    *,
    tables: list[str] | None = None,
    max_rejects: int | None = None,
    workers: int = 1,
    progress: bool = False,
) -> LoadRun:
    return copy_rows(OracleSource(oracle_dsn), pg_dsn, out, tables=tables, max_rejects=max_rejects,
                     workers=workers, progress=progress)  # fmt: skip
