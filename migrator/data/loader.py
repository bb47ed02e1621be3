"""Phase two of a load: each table's COPY script streamed into PostgreSQL, rejects split out, checked.

A table loads in one transaction (so a crash or Ctrl-C leaves it either loaded or untouched, and
`--resume` loads the untouched ones: nothing twice). Its COPY rows go in batches, each under a
savepoint; a batch PostgreSQL refuses is cut in halves until the refused rows are alone, and each
of those is a reject with its `file:line`, its reason (type, length, NOT NULL, unique, foreign
key, CHECK, from the SQLSTATE) and its text, in `OUT/rejects/<table>.bad`; the rest loads. More
than `max_rejects` rejects in a table rolls the table back (SQL*Loader's ERRORS=).

Validation: rows read = loaded + rejected, and an order-independent checksum (a sum of per-row
hashes of the values, each normalised by its column's type) of the rows sent — each batch hashed
while the server runs its COPY — must equal the one the server computes over the stored table in
one scan (`checksum.loaded_sum`): a value PostgreSQL stored other than it was sent (a rounded
number, a shifted zone) is caught there. Once loaded, the table's COPY
script is rewritten without its rejects, so `psql -f deploy.sql` loads the same rows and no bad
row can stop it.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack
from dataclasses import asdict, dataclass, field
from pathlib import Path

import psycopg

from migrator.data import checksum, copy_text
from migrator.data.checksum import MASK64
from migrator.data.spool import EMPTY_FIRST, Reject, TableSpool

BATCH_ROWS = 20_000  # rows per COPY write and savepoint (a refused row re-sends at most its batch)
CHUNK_ROWS = 200_000  # rows per committed chunk of a large table (resume goes chunk by chunk)
_COPY_LINE = re.compile(r"\bCOPY [^,]+, line (\d+)")
_COPY_HEAD = re.compile(r"COPY (.+?)(?: \((.*)\))? FROM STDIN;$")
# SQLSTATE → the reason a row was refused, as SQL*Loader's log would class it
_REASONS = {"22001": "length", "23502": "NOT NULL", "23505": "unique", "23503": "foreign key", "23514": "CHECK"}


@dataclass
class TableResult:
    table: str
    rows_read: int = 0
    rows_loaded: int = 0
    rows_rejected: int = 0
    statements: int = 0
    # "" when not comparable: the table was not loaded, or converted statements or several column
    # lists wrote rows the source values alone do not describe
    source_checksum: str = ""
    loaded_checksum: str = ""
    origin_checksum: str = ""  # computed at the source by a query (data copy --oracle); "" when not
    reject_file: str | None = None
    error: str | None = None  # the table was not loaded (too many rejects, a statement failed)
    seconds: float = 0.0

    @property
    def checksums_agree(self) -> bool:
        at_origin = not self.origin_checksum or self.origin_checksum == self.loaded_checksum
        return self.source_checksum == self.loaded_checksum and at_origin


@dataclass
class _Block:
    command: str  # COPY t (cols) FROM STDIN
    table: str
    columns: list[str] | None
    lines: list[str] = field(default_factory=list)
    wheres: list[str] = field(default_factory=list)


def _parts(path: Path, where_path: Path) -> Iterator[_Block | str]:
    """The COPY script read back in order: COPY blocks of at most BATCH_ROWS rows, and SQL."""
    with path.open(encoding="utf-8", newline="\n") as f, where_path.open(encoding="utf-8") as w:
        yield from script_parts(f, lambda: w.readline().rstrip("\n"))


def script_parts(lines: Iterable[str], where: Callable[[], str]) -> Iterator[_Block | str]:
    """A COPY script's lines as COPY blocks (each row with `where()`, read in step) and SQL."""
    block: _Block | None = None
    sql: list[str] = []
    for line in lines:
        if block is not None:
            if line.startswith(copy_text.END_OF_DATA) and line.rstrip("\n") == copy_text.END_OF_DATA:
                yield block
                block = None
                continue
            block.lines.append(line)
            block.wheres.append(where())
            if len(block.lines) >= BATCH_ROWS:
                yield block
                block = _Block(block.command, block.table, block.columns)
            continue
        m = _COPY_HEAD.match(line.rstrip("\n"))
        if m is not None:
            if sql:
                yield "".join(sql)
                sql = []
            cols = [c.strip() for c in m.group(2).split(",")] if m.group(2) else None
            block = _Block(line.rstrip("\n").rstrip(";"), m.group(1), cols)
        else:
            sql.append(line)
    if block is not None:  # no end marker: what was read is still sent
        yield block
    if sql:
        yield "".join(sql)


@dataclass
class ChunkDone:
    """A committed chunk of a table (rows [chunk * CHUNK_ROWS, …) of its COPY script): journaled,
    so that a resumed load skips it and still counts it."""

    chunk: int
    rows_loaded: int
    source_sum: int
    rejected_rows: list[int]  # row numbers in the COPY script PostgreSQL refused
    rejects: list[dict]  # their Reject fields (where still to be read from the where file)


def chunked(spool: TableSpool) -> bool:
    """A table of COPY rows only is loaded in chunks, each committed (and resumable) on its own;
    one with statements or an emptying first (REPLACE/TRUNCATE) stays one transaction."""
    if spool.statements or spool.rows <= CHUNK_ROWS:
        return False
    with spool.path.open("rb") as f:
        return _COPY_HEAD.match(f.readline().decode("utf-8").rstrip("\n")) is not None


def load_table(
    conn: psycopg.Connection,
    spool: TableSpool,
    out: Path,
    max_rejects: int | None,
    done: dict[int, ChunkDone] | None = None,
    on_chunk: Callable[[ChunkDone], None] | None = None,
    workers: int = 1,
    connect: Callable[[], psycopg.Connection] | None = None,
) -> TableResult:
    """Load one table's COPY script (conn in autocommit mode); the table's rejects are written out.

    Rows go to COPY in batches of BATCH_ROWS, each one `write`, under a savepoint; a refused batch is
    split to its refused rows. A chunked table (see `chunked`) commits every CHUNK_ROWS rows and
    reports each chunk to `on_chunk` (the journal); chunks in `done` are skipped (resume). With
    `workers` > 1 and `connect`, a chunked table's chunks are shared out to that many connections
    (chunk k to worker k mod workers), each reading the script on its own."""
    import time

    t0 = time.perf_counter()
    done = done or {}
    by_chunk = chunked(spool)
    conn.execute("SET TimeZone = 'UTC'")  # a timestamptz without a zone is UTC (masks.py says why)
    if by_chunk and workers > 1 and connect is not None:

        def share(k: int) -> _Loaded:
            with connect() as own:
                own.execute("SET TimeZone = 'UTC'")
                return _load_chunks(own, spool, max_rejects, done, on_chunk, (k, workers))

        with ThreadPoolExecutor(workers) as pool:
            parts = list(pool.map(share, range(workers)))
    else:
        parts = [_load_chunks(conn, spool, max_rejects, done, on_chunk, (0, 1))]
    return _finish(conn, spool, out, parts, done, by_chunk, max_rejects, t0)


@dataclass
class _Loaded:
    """What one connection loaded of a table: its committed chunks, the rows PostgreSQL refused."""

    chunks: list[ChunkDone] = field(default_factory=list)
    refused: dict[int, Reject] = field(default_factory=dict)  # row number → its reject (where to fill)
    statements: int = 0
    column_lists: set[tuple[str, ...] | None] = field(default_factory=set)
    error: str | None = None


def _load_chunks(
    conn: psycopg.Connection,
    spool: TableSpool,
    max_rejects: int | None,
    done: dict[int, ChunkDone],
    on_chunk: Callable[[ChunkDone], None] | None,
    share: tuple[int, int],
) -> _Loaded:
    res = _Loaded()
    by_chunk = chunked(spool)
    mine, of = share
    canons_of: dict[tuple[str, tuple[str, ...] | None], list] = {}
    current: ChunkDone | None = None
    tx: ExitStack | None = None
    earlier = len(spool.rejects) + sum(len(c.rejected_rows) for c in done.values())

    def begin(chunk: int) -> None:
        nonlocal current, tx
        current = ChunkDone(chunk, 0, 0, [], [])
        tx = ExitStack()
        tx.enter_context(conn.transaction())

    def commit() -> None:
        nonlocal current, tx
        if tx is None or current is None:
            return
        tx.close()
        res.chunks.append(current)
        if on_chunk is not None and by_chunk:
            on_chunk(current)
        tx = current = None

    copier = ThreadPoolExecutor(1, thread_name_prefix="copy")
    try:
        row_no = 0
        for part in _script(spool.path):
            if isinstance(part, str):
                if current is None:
                    begin(0)  # a table with statements is never chunked: one transaction
                conn.execute(part.encode("utf-8"))
                res.statements += EMPTY_FIRST not in part  # emptying the table adds no row
                continue
            command, table, column_names, batches = part
            key = (table, tuple(column_names) if column_names is not None else None)
            res.column_lists.add(key[1])
            if key not in canons_of:
                canons_of[key] = [
                    checksum.source_canon(c.type_name) for c in checksum.table_columns(conn, table, column_names)
                ]
            canons = canons_of[key]
            for lines in batches:
                k = 0
                while k < len(lines):
                    chunk = row_no // CHUNK_ROWS if by_chunk else 0
                    take = len(lines) - k if not by_chunk else min(len(lines) - k, (chunk + 1) * CHUNK_ROWS - row_no)
                    if by_chunk and (chunk in done or chunk % of != mine):  # committed before, or another's
                        row_no += take
                        k += take
                        continue
                    if current is None or current.chunk != chunk:
                        commit()
                        begin(chunk)
                    assert current is not None
                    part_lines = lines[k : k + take]
                    # the server runs the COPY while this thread hashes the same lines (psycopg
                    # waits on the socket without the GIL); refused rows are taken out after
                    copying = copier.submit(_copy_lines, conn, command, part_lines)
                    sent_sum = checksum.lines_sum(part_lines, canons)
                    bad = copying.result()
                    if bad:
                        sent_sum -= checksum.lines_sum([part_lines[i] for i in bad], canons)
                    current.source_sum = (current.source_sum + sent_sum) & MASK64
                    current.rows_loaded += len(part_lines) - len(bad)
                    for i, (reason, text) in sorted(bad.items()):
                        res.refused[row_no + i] = Reject("", reason, text)
                        current.rejected_rows.append(row_no + i)
                        current.rejects.append(asdict(res.refused[row_no + i]))
                    if max_rejects is not None and earlier + len(res.refused) > max_rejects:
                        raise _TooMany(f"more than {max_rejects} rejected rows (--max-rejects): the table is not loaded"
                                       + (" past its last committed chunk" if by_chunk else ""))  # fmt: skip
                    row_no += take
                    k += take
        commit()
    except _TooMany as exc:
        res.error = str(exc)
    except psycopg.Error as exc:
        res.error = f"{type(exc).__name__}: {str(exc).strip()}"
    finally:
        copier.shutdown()  # a COPY under way ends before its transaction is rolled back
        if tx is not None:
            tx.__exit__(_Rollback, _Rollback(), None)
    return res


def _finish(
    conn: psycopg.Connection,
    spool: TableSpool,
    out: Path,
    parts: list[_Loaded],
    done: dict[int, ChunkDone],
    by_chunk: bool,
    max_rejects: int | None,
    t0: float,
) -> TableResult:
    """A table's result from what its connections loaded (and its chunks committed before a resume):
    counts, the checksums, the reject file; the COPY script rewritten without its refused rows."""
    import time

    res = TableResult(spool.table, rows_read=spool.rows + len(spool.rejects))
    chunks = list(done.values()) + [c for p in parts for c in p.chunks]
    refused: dict[int, Reject] = {}
    for c in done.values():
        for r_no, fields in zip(c.rejected_rows, c.rejects):
            refused[r_no] = Reject(**fields)
    for p in parts:
        refused.update(p.refused)
    res.statements = sum(p.statements for p in parts)
    res.error = next((p.error for p in parts if p.error), None)
    if by_chunk and res.error is None and max_rejects is not None and len(spool.rejects) + len(refused) > max_rejects:
        res.error = f"more than {max_rejects} rejected rows (--max-rejects): the table is not loaded past its chunks"
    column_lists = set().union(*(p.column_lists for p in parts)) if parts else set()
    if res.error is None and len(column_lists) == 1 and not res.statements:
        (columns,) = column_lists
        try:
            with conn.transaction():
                cols = checksum.table_columns(conn, spool.table, list(columns) if columns else None)
                res.loaded_checksum = f"{checksum.loaded_sum(conn, spool.table, cols):016x}"
            res.source_checksum = f"{sum(c.source_sum for c in chunks) & MASK64:016x}"
        except psycopg.Error as exc:
            res.error = f"{type(exc).__name__}: {str(exc).strip()}"
    rejects = list(spool.rejects)
    if refused:
        _fill_wheres(spool.where_path, refused)
        rejects += [refused[r] for r in sorted(refused)]
    res.rows_rejected = len(rejects)
    res.rows_loaded = sum(c.rows_loaded for c in chunks)
    if res.error and not by_chunk:
        res.rows_loaded = 0
    if res.error:
        res.source_checksum = res.loaded_checksum = ""
    if rejects:
        res.reject_file = _write_rejects(out, spool, rejects)
    if refused and not res.error:
        _drop_rows(spool.path, set(refused))
    res.seconds = time.perf_counter() - t0
    return res


class _Rollback(Exception):
    """Leaves a chunk's transaction rolled back (an error or an interrupt inside it)."""


def _script(path: Path) -> Iterator[str | tuple[str, str, list[str] | None, Iterator[list[bytes]]]]:
    """The COPY script in order: SQL text, and per COPY block (command, table, columns, batches of
    at most BATCH_ROWS lines as bytes). A block's batches are read before the next part."""
    with path.open("rb") as f:
        sql: list[str] = []
        for raw in f:
            m = _COPY_HEAD.match(raw.decode("utf-8").rstrip("\n"))
            if m is None:
                sql.append(raw.decode("utf-8"))
                continue
            if sql:
                yield "".join(sql)
                sql = []
            cols = [c.strip() for c in m.group(2).split(",")] if m.group(2) else None
            yield raw.decode("utf-8").rstrip("\n").rstrip(";"), m.group(1), cols, _batches(f)
        if sql:
            yield "".join(sql)


def _batches(f) -> Iterator[list[bytes]]:
    batch: list[bytes] = []
    for raw in f:
        if raw == _END:
            break
        batch.append(raw)
        if len(batch) >= BATCH_ROWS:
            yield batch
            batch = []
    if batch:
        yield batch


_END = (copy_text.END_OF_DATA + "\n").encode()


def _copy_lines(conn: psycopg.Connection, command: str, lines: list[bytes]) -> dict[int, tuple[str, str]]:
    """COPY the lines (one write); the rows PostgreSQL refused: index → (reason, COPY line)."""
    bad: dict[int, tuple[str, str]] = {}
    stack = [(0, len(lines))]
    while stack:
        lo, hi = stack.pop()
        error = _try_copy(conn, command, lines[lo:hi])
        if error is None:
            continue
        line = _COPY_LINE.search(error.diag.context or "") if error.diag else None
        at = lo + int(line.group(1)) - 1 if line else None
        if hi - lo == 1:
            at = lo
        if at is not None and lo <= at < hi:
            bad[at] = (_reason(error), lines[at].decode("utf-8", "replace").rstrip("\n"))
            stack += [r for r in ((at + 1, hi), (lo, at)) if r[0] < r[1]]  # rows before it go first
        else:
            mid = (lo + hi) // 2
            stack += [(mid, hi), (lo, mid)]
    return bad


def _fill_wheres(where_path: Path, refused: dict[int, Reject]) -> None:
    """Each refused row's `file:line` and source span: its line of the where file found by
    counting newlines block by block (`_line_offsets`), then read where it is."""
    want = sorted(r for r, rej in refused.items() if not rej.where)
    if not want:
        return
    with where_path.open("rb") as f:
        offsets = _line_offsets(f, {n + 1 for n in want})
        for n in want:
            if n + 1 not in offsets:
                continue
            f.seek(offsets[n + 1])
            where, _, source = f.readline().decode("utf-8").rstrip("\n").partition("\t")
            refused[n].where, refused[n].source = where, source


class _TooMany(Exception):
    pass


def copy_batch(conn: psycopg.Connection, block: _Block, rejects: list[Reject]) -> Iterator[tuple[int, bool]]:
    """(row index, loaded?) for each row of the block. A refused COPY names the row it stopped
    at (`COPY t, line N`): that row is a reject, the rows before it go again (they passed), and
    the load goes on after it; an error without a line (a deferred check) is found by halving."""
    stack = [(0, len(block.lines))]
    while stack:
        lo, hi = stack.pop()
        error = _try_copy(conn, block.command, block.lines[lo:hi])
        if error is None:
            yield from ((k, True) for k in range(lo, hi))
            continue
        line = _COPY_LINE.search(error.diag.context or "") if error.diag else None
        bad = lo + int(line.group(1)) - 1 if line else None
        if hi - lo == 1:
            bad = lo
        if bad is not None and lo <= bad < hi:
            where, _, source = block.wheres[bad].partition("\t")
            rejects.append(Reject(where, _reason(error), block.lines[bad].rstrip("\n"), source))
            yield bad, False
            stack += [r for r in ((bad + 1, hi), (lo, bad)) if r[0] < r[1]]  # rows before it go first
        else:
            mid = (lo + hi) // 2
            stack += [(mid, hi), (lo, mid)]  # the first half is tried first: rows keep their order


def _try_copy(conn: psycopg.Connection, command: str, lines: list[str] | list[bytes]) -> psycopg.Error | None:
    data = b"".join(lines) if lines and isinstance(lines[0], bytes) else "".join(lines).encode("utf-8")  # type: ignore[arg-type]
    try:
        with conn.transaction(), conn.cursor().copy(command.encode("utf-8")) as copy:
            copy.write(data)
    except psycopg.Error as exc:
        return exc
    return None


def _reason(exc: psycopg.Error) -> str:
    state = exc.sqlstate or ""
    kind = _REASONS.get(state, "type" if state.startswith("22") else "refused")
    message = str(exc).strip().splitlines()[0]
    detail = exc.diag.message_detail if exc.diag else None
    return f"{kind}: {message}" + (f" ({detail})" if detail else "")


def _write_rejects(out: Path, spool: TableSpool, rejects: list[Reject]) -> str:
    rel = f"rejects/{spool.path.stem}.bad"
    path = out / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8", newline="\n") as f:
        f.write(rejects_text(rejects))
    return rel


def rejects_text(rejects: list[Reject]) -> str:
    """SQL*Loader's .bad with a reason: `-- file:line: reason` then the original text."""
    originals = _original_texts([r.source for r in rejects if r.source])
    return "".join(f"-- {r.where}: {' '.join(r.reason.split())}\n{originals.get(r.source, r.text).rstrip()}\n"
                   for r in rejects)  # fmt: skip


def _original_texts(sources: list[str]) -> dict[str, str]:
    """The source lines of refused rows: their byte offsets found by counting newlines block by
    block (in C), then each span read where it is, so a few rejects in a large export cost one
    quick pass of it, not a Python loop over its lines."""
    wanted: dict[str, list[tuple[int, int, str]]] = {}
    for src in sources:
        path, start, end = src.split("\t")
        wanted.setdefault(path, []).append((int(start), int(end), src))
    texts: dict[str, str] = {}
    for path, spans in wanted.items():
        try:
            with open(path, "rb") as f:
                offsets = _line_offsets(f, {n for first, last, _ in spans for n in (first, last + 1)})
                for first, last, src in spans:
                    if first not in offsets:
                        continue
                    f.seek(offsets[first])
                    stop = offsets.get(last + 1)
                    raw = f.read(stop - offsets[first]) if stop is not None else f.read()
                    texts[src] = raw.decode("utf-8", "replace")
        except OSError:
            continue
    return texts


def _line_offsets(f, lines: set[int]) -> dict[int, int]:
    """The byte offset of the start of each of `lines` (1-based) that the file has."""
    want = sorted(lines)
    found: dict[int, int] = {}
    k, line, base = 0, 1, 0  # `line`: the line the byte at `base` is in
    while k < len(want) and want[k] <= 1:
        found[want[k]] = 0
        k += 1
    while k < len(want):
        block = f.read(1 << 20)
        if not block:
            break
        newlines = block.count(b"\n")
        pos, at = 0, line
        while k < len(want) and want[k] <= line + newlines:
            while at < want[k]:  # the newline that ends line want[k] - 1
                pos = block.index(b"\n", pos) + 1
                at += 1
            found[want[k]] = base + pos
            k += 1
        line += newlines
        base += len(block)
    return found  # a line past the last newline is not there: its span is read to the end


def _drop_rows(path: Path, rows: set[int]) -> None:
    """Rewrite the COPY script without the refused rows (`without_rows`, on bytes: the script is
    UTF-8 and only its few SQL lines are decoded; past the last refused row the rest is copied
    whole); replaced atomically."""
    import shutil

    tmp = path.with_suffix(".tmp")
    last = max(rows)
    end = copy_text.END_OF_DATA.encode()
    with path.open("rb") as src, tmp.open("wb") as dst:
        row_no, in_copy = 0, False
        for line in src:
            if in_copy:
                if line.rstrip(b"\n") == end:
                    in_copy = False
                else:
                    row_no += 1
                    if row_no - 1 in rows:
                        if row_no - 1 == last:
                            shutil.copyfileobj(src, dst, 1 << 20)
                            break
                        continue
            elif _COPY_HEAD.match(line.decode("utf-8").rstrip("\n")):
                in_copy = True
            dst.write(line)
    os.replace(tmp, path)


def without_rows(lines: Iterable[str], rows: set[int]) -> Iterator[str]:
    """A COPY script's lines without its COPY rows numbered in `rows` (0-based, over all blocks)."""
    row_no, in_copy = 0, False
    for line in lines:
        if in_copy:
            if line.rstrip("\n") == copy_text.END_OF_DATA:
                in_copy = False
            else:
                row_no += 1
                if row_no - 1 in rows:
                    continue
        elif _COPY_HEAD.match(line.rstrip("\n")):
            in_copy = True
        yield line
