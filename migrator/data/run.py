"""`migrator data load`: INSERT exports (and SQL*Loader control files) into PostgreSQL, at volume.

    spool (migrator.data.spool)  →  order tables parents first  →  load each (migrator.data.loader)
    →  validate disabled foreign keys  →  OUT/data-report.json, OUT/load.sql

Memory stays flat whatever the size: files are streamed statement by statement into per-table
COPY scripts on disk, and those are streamed into PostgreSQL in batches. Tables load on
`workers` connections (a table once all the tables it references are loaded). A table is one
transaction, recorded in `OUT/.migrator/data-load.jsonl` when committed: `resume` loads only the
tables not recorded (nothing twice). A large table of COPY rows only commits chunk by chunk
(`loader.CHUNK_ROWS` rows), each chunk journaled once committed: `resume` goes on at the first
chunk not journaled, and the table's counts and checksum still cover every chunk.
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import asdict, dataclass, field
from pathlib import Path

import psycopg

from migrator.data.loader import ChunkDone, TableResult, chunked, load_table
from migrator.data.spool import Reject, Spooled, TableSpool, spool
from migrator.errors import MigratorError

REPORT = "data-report.json"
LOAD_SCRIPT = "load.sql"
_JOURNAL = ".migrator/data-load.jsonl"
_SPOOLED = ".migrator/data/spooled.json"


class DataLoadError(MigratorError):
    """The load cannot start (no input, an output folder in use, no database)."""


@dataclass
class Orphans:
    table: str
    constraint: str
    validated: bool
    orphan_keys: list[list[str | None]] = field(default_factory=list)  # the first 100


@dataclass
class LoadRun:
    tables: list[TableResult]
    constraints: list[Orphans]
    issues: list[str]
    seconds: float
    read_seconds: float = 0.0  # of `seconds`, reading the inputs into the COPY scripts (the spool)

    @property
    def ok(self) -> bool:
        return all(not t.error and t.checksums_agree for t in self.tables) and all(
            c.validated for c in self.constraints
        )


def load(
    inputs: list[Path],
    dsn: str,
    out: Path,
    *,
    schema: str | None = None,
    max_rejects: int | None = None,
    workers: int = 1,
    resume: bool = False,
    progress: bool = False,
    convert: Callable[[str], str] | None = None,
    read_workers: int | None = None,
) -> LoadRun:
    """`workers`: connections, tables (or chunks of a large one) loaded at once; `read_workers`:
    processes reading a large INSERT script (None: `default_read_workers(workers)`)."""
    t0 = time.perf_counter()
    files = _files(inputs)
    if not resume and (out / _JOURNAL).exists():
        raise DataLoadError(f"{out} holds a load already: --resume to finish it, or another --out")
    out.mkdir(parents=True, exist_ok=True)
    if resume and (out / _SPOOLED).exists():
        spooled = _read_spooled(out)
    else:
        readers = default_read_workers(workers) if read_workers is None else max(1, read_workers)
        spooled = spool(files, out, schema, convert or _default_convert(schema), workers=readers)
        _write_spooled(out, spooled)
    read_seconds = time.perf_counter() - t0
    return load_spooled(spooled, dsn, out, max_rejects=max_rejects, workers=workers, resume=resume,
                        progress=progress, t0=t0, read_seconds=read_seconds)  # fmt: skip


def load_spooled(
    spooled: Spooled,
    dsn: str,
    out: Path,
    *,
    max_rejects: int | None = None,
    workers: int = 1,
    resume: bool = False,
    progress: bool = False,
    t0: float | None = None,
    read_seconds: float = 0.0,
) -> LoadRun:
    """Phase two for spooled tables (from scripts, control files or a live source)."""
    t0 = time.perf_counter() if t0 is None else t0
    done = _journal(out) if resume else ({}, {})
    with psycopg.connect(dsn, autocommit=True) as conn:
        order, parents = _order(conn, list(spooled.tables))
        saved = _drop_disabled(conn, spooled.disabled)
    results = _load_all(spooled, order, parents, done, dsn, out, max_rejects, max(1, workers), progress)
    with psycopg.connect(dsn, autocommit=True) as conn:
        constraints = _restore_disabled(conn, saved)
    run = LoadRun([results[t] for t in order], constraints, spooled.issues, time.perf_counter() - t0, read_seconds)
    (out / REPORT).write_text(json.dumps(report(run), indent=1) + "\n", encoding="utf-8")
    script = ["-- psql -v ON_ERROR_STOP=1 -f load.sql   (after the schema; rejected rows are already left out)",
              "\\set ON_ERROR_STOP on"]  # fmt: skip
    script += [f"\\ir data/{spooled.tables[t].path.name}" for t in order if not results[t].error]
    (out / LOAD_SCRIPT).write_text("\n".join(script) + "\n", encoding="utf-8")
    return run


def default_read_workers(workers: int) -> int:
    """Reading an export is CPU work on this machine, not on the database: by default it uses the
    machine's cores (at most 8), and never fewer processes than the load has connections."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return max(1, workers, min(cores, 8))


def _default_convert(schema: str | None) -> Callable[[str], str]:
    """Statements that are not literal rows go through the SQL converter, as in `migrate`; it is
    prepared at the first such statement (an export of literal rows never imports it)."""
    ctx = None

    def convert(sql: str) -> str:
        nonlocal ctx
        from migrator.convert.ddl.data import convert_data

        if ctx is None:
            from migrator.convert.dispatch import prepare_context
            from migrator.source.units import SourceSet

            ctx = prepare_context(SourceSet(root="", schema=schema or "public"))
        ctx.begin_unit()
        return convert_data(sql, ctx)

    return convert


def _files(inputs: list[Path]) -> list[Path]:
    files: list[Path] = []
    for p in inputs:
        if p.is_dir():
            files += sorted(
                f for f in p.rglob("*") if f.is_file() and f.suffix.lower() in (".sql", ".ctl", ".dml", ".ins")
            )
        elif p.is_file():
            files.append(p)
        else:
            raise DataLoadError(f"no such file or folder: {p}")
    if not files:
        raise DataLoadError("no INSERT scripts (.sql, .dml, .ins) or SQL*Loader control files (.ctl) given")
    return files


def _order(conn: psycopg.Connection, tables: list[str]) -> tuple[list[str], dict[str, set[str]]]:
    """Tables parents first (by the database's foreign keys); a cycle keeps the input order."""
    oid: dict[str, int] = {}
    for t in tables:
        try:
            row = conn.execute("SELECT to_regclass(%s)::oid", (t,)).fetchone()
        except psycopg.Error:
            row = None
        if row and row[0]:
            oid[t] = row[0]
    by_oid = {v: k for k, v in oid.items()}
    parents: dict[str, set[str]] = {t: set() for t in tables}
    if oid:
        rows = conn.execute(
            "SELECT conrelid::oid, confrelid::oid FROM pg_constraint WHERE contype = 'f' AND conrelid = ANY(%s)",
            (list(oid.values()),),
        ).fetchall()
        for child, parent in rows:
            if parent in by_oid and parent != child:
                parents[by_oid[child]].add(by_oid[parent])
    order: list[str] = []
    placed: set[str] = set()
    while len(order) < len(tables):
        ready = [t for t in tables if t not in placed and parents[t] <= placed]
        if not ready:  # a cycle: the first table left goes next
            ready = [next(t for t in tables if t not in placed)]
        for t in ready:
            order.append(t)
            placed.add(t)
    return order, parents


def _load_all(
    spooled: Spooled, order, parents, done, dsn, out, max_rejects, workers, progress
) -> dict[str, TableResult]:
    tables_done, chunks_done = done
    results: dict[str, TableResult] = {t: TableResult(**tables_done[t]) for t in order if t in tables_done}
    todo = [t for t in order if t not in results]
    total = sum(spooled.tables[t].rows for t in todo)
    bar = _bar(total, progress)
    journal = (out / _JOURNAL).open("a", encoding="utf-8")
    lock = threading.Lock()

    def record(rec: dict) -> None:
        with lock:
            journal.write(json.dumps(rec) + "\n")
            journal.flush()
            os.fsync(journal.fileno())  # a chunk is journaled only once committed, and stays so

    def one(table: str) -> TableResult:
        def chunk_done(c: ChunkDone) -> None:
            record({"chunk_of": table} | asdict(c))
            bar(c.rows_loaded + len(c.rejected_rows))

        with psycopg.connect(dsn, autocommit=True) as conn:
            return load_table(conn, spooled.tables[table], out, max_rejects, chunks_done.get(table), chunk_done,
                              workers, lambda: psycopg.connect(dsn, autocommit=True))  # fmt: skip

    try:
        with ThreadPoolExecutor(workers) as pool:
            running: dict[Future[TableResult], str] = {}
            while todo or running:
                finished = set(results)
                # a table starts once every table it references is loaded; in a cycle of
                # references, the first table left starts when nothing else runs
                startable = [t for t in todo if parents[t] <= finished] or ([] if running else todo[:1])
                for t in startable[: workers - len(running)]:
                    todo.remove(t)
                    running[pool.submit(one, t)] = t
                completed, _ = wait(running, return_when=FIRST_COMPLETED)
                for fut in completed:
                    t = running.pop(fut)
                    res = fut.result()
                    results[t] = res
                    if not res.error:  # a table not loaded was rolled back: --resume tries it again
                        record(asdict(res))
                    if not chunked(spooled.tables[t]):
                        bar(res.rows_read)
    finally:
        journal.close()
        bar(0, close=True)
    return results


def _bar(total: int, show: bool):
    if not show:
        return lambda n, close=False: None
    from tqdm import tqdm

    t = tqdm(total=total, unit="row", unit_scale=True, desc="loading", file=sys.stderr)

    def update(n: int, close: bool = False) -> None:
        t.update(n)
        if close:
            t.close()

    return update


def _drop_disabled(conn: psycopg.Connection, disabled: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """The export's `ALTER TABLE … DISABLE CONSTRAINT`: the constraint is dropped for the load
    (PostgreSQL cannot disable one) and its definition kept to be put back and validated."""
    saved = []
    for table, name in disabled:
        row = conn.execute(
            "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = to_regclass(%s) AND conname = %s",
            (table, name.strip('"')),
        ).fetchone()
        if row:
            conn.execute(f"ALTER TABLE {table} DROP CONSTRAINT {name}".encode())
            saved.append((table, name, row[0]))
    return saved


def _restore_disabled(conn: psycopg.Connection, saved: list[tuple[str, str, str]]) -> list[Orphans]:
    """Each dropped constraint back as NOT VALID, then validated; rows it refuses are reported by key."""
    found = []
    for table, name, definition in saved:
        conn.execute(f"ALTER TABLE {table} ADD CONSTRAINT {name} {definition} NOT VALID".encode())
        try:
            conn.execute(f"ALTER TABLE {table} VALIDATE CONSTRAINT {name}".encode())
            found.append(Orphans(table, name, True))
        except psycopg.Error:
            found.append(Orphans(table, name, False, _orphans(conn, table, name)))
    return found


def _orphans(conn: psycopg.Connection, table: str, name: str) -> list[list[str | None]]:
    row = conn.execute(
        "SELECT confrelid::regclass::text, "
        "  (SELECT array_agg(attname ORDER BY k.n) FROM unnest(conkey) WITH ORDINALITY k(a, n) "
        "     JOIN pg_attribute ON attrelid = conrelid AND attnum = k.a), "
        "  (SELECT array_agg(attname ORDER BY k.n) FROM unnest(confkey) WITH ORDINALITY k(a, n) "
        "     JOIN pg_attribute ON attrelid = confrelid AND attnum = k.a) "
        "FROM pg_constraint WHERE conrelid = to_regclass(%s) AND conname = %s AND contype = 'f'",
        (table, name.strip('"')),
    ).fetchone()
    if not row:
        return []
    parent, cols, pcols = row
    quote = [f'c."{c}"' for c in cols]
    match = " AND ".join(f'p."{p}" = c."{c}"' for c, p in zip(cols, pcols))
    present = " AND ".join(f"{q} IS NOT NULL" for q in quote)
    sql = (f"SELECT {', '.join(q + '::text' for q in quote)} FROM {table} c WHERE {present} "
           f"AND NOT EXISTS (SELECT 1 FROM {parent} p WHERE {match}) LIMIT 100")  # fmt: skip
    return [list(r) for r in conn.execute(sql.encode()).fetchall()]


def report(run: LoadRun) -> dict:
    return {
        "seconds": round(run.seconds, 3),
        "read_seconds": round(run.read_seconds, 3),
        "ok": run.ok,
        "rows_read": sum(t.rows_read for t in run.tables),
        "rows_loaded": sum(t.rows_loaded for t in run.tables),
        "rows_rejected": sum(t.rows_rejected for t in run.tables),
        "tables": [asdict(t) | {"checksums_agree": t.checksums_agree} for t in run.tables],
        "constraints": [asdict(c) for c in run.constraints],
        "issues": run.issues[:1000],
        "issues_left_out": max(0, len(run.issues) - 1000),
    }


def _write_spooled(out: Path, s: Spooled) -> None:
    data = {
        "tables": [
            {"table": t.table, "path": str(t.path), "where": str(t.where_path), "rows": t.rows,
             "statements": t.statements, "rejects": [asdict(r) for r in t.rejects]}
            for t in s.tables.values()
        ],
        "disabled": s.disabled,
        "issues": s.issues,
    }  # fmt: skip
    path = out / _SPOOLED
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")


def _read_spooled(out: Path) -> Spooled:
    data = json.loads((out / _SPOOLED).read_text(encoding="utf-8"))
    tables = {}
    for t in data["tables"]:
        sp = TableSpool(t["table"], Path(t["path"]), Path(t["where"]), t["rows"], t["statements"],
                        [Reject(**r) for r in t["rejects"]])  # fmt: skip
        tables[sp.table] = sp
    return Spooled(tables, [tuple(d) for d in data["disabled"]], data["issues"])


def _journal(out: Path) -> tuple[dict[str, dict], dict[str, dict[int, ChunkDone]]]:
    """Tables loaded whole, and the committed chunks of the others, from the journal."""
    path = out / _JOURNAL
    tables: dict[str, dict] = {}
    chunks: dict[str, dict[int, ChunkDone]] = {}
    if not path.exists():
        return tables, chunks
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:  # a line cut by the crash: its chunk is not journaled
            continue
        if "chunk_of" in rec:
            table = rec.pop("chunk_of")
            chunks.setdefault(table, {})[rec["chunk"]] = ChunkDone(**rec)
        else:
            tables[rec["table"]] = rec
    return tables, chunks
