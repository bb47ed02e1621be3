"""Phase two of a load: each table's COPY script streamed into PostgreSQL, rejects split out, checked.

A table loads in one transaction (so a crash or Ctrl-C leaves it either loaded or untouched, and
`--resume` loads the untouched ones: nothing twice). Its COPY rows go in batches, each under a
savepoint; a batch PostgreSQL refuses is cut in halves until the refused rows are alone, and each
of those is a reject with its `file:line`, its reason (type, length, NOT NULL, unique, foreign
key, CHECK, from the SQLSTATE) and its text, in `OUT/rejects/<table>.bad`; the rest loads. More
than `max_rejects` rejects in a table rolls the table back (SQL*Loader's ERRORS=).

Validation: rows read = loaded + rejected, and an order-independent checksum (a sum of per-row
hashes of the values, each normalised by its column's type) of the rows sent must equal the one
read back from the table with `COPY (SELECT …) TO STDOUT` — a value PostgreSQL stored other than
it was sent (a rounded number, a shifted zone) is caught there. Once loaded, the table's COPY
script is rewritten without its rejects, so `psql -f deploy.sql` loads the same rows and no bad
row can stop it.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path
from zoneinfo import ZoneInfo

import psycopg

from migrator.data import copy_text
from migrator.data.spool import EMPTY_FIRST, Reject, TableSpool

BATCH_ROWS = 20_000
_MASK64 = (1 << 64) - 1
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
    reject_file: str | None = None
    error: str | None = None  # the table was not loaded (too many rejects, a statement failed)
    seconds: float = 0.0

    @property
    def checksums_agree(self) -> bool:
        return self.source_checksum == self.loaded_checksum


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


def load_table(conn: psycopg.Connection, spool: TableSpool, out: Path, max_rejects: int | None) -> TableResult:
    """Load one table's COPY script (conn in autocommit mode); the table's rejects are written out."""
    import time

    t0 = time.perf_counter()
    res = TableResult(spool.table, rows_read=spool.rows + len(spool.rejects))
    rejects: list[Reject] = list(spool.rejects)
    rejected_rows: set[int] = set()  # row numbers in the COPY script (0-based) PostgreSQL refused
    source_sum = 0
    column_lists: set[tuple[str, ...] | None] = set()
    row_no = 0
    try:
        with conn.transaction():
            for part in _parts(spool.path, spool.where_path):
                if isinstance(part, str):
                    conn.execute(part.encode("utf-8"))
                    res.statements += EMPTY_FIRST not in part  # emptying the table adds no row
                    continue
                column_lists.add(tuple(part.columns) if part.columns is not None else None)
                normal = _normalizers(conn, part.table, part.columns)
                for k, ok in copy_batch(conn, part, rejects):
                    if ok:
                        source_sum = (source_sum + _row_hash(part.lines[k], normal)) & _MASK64
                    else:
                        rejected_rows.add(row_no + k)
                row_no += len(part.lines)
                if max_rejects is not None and len(rejects) > max_rejects:
                    raise _TooMany(f"more than {max_rejects} rejected rows (--max-rejects): the table is not loaded")
            if len(column_lists) == 1 and not res.statements:
                (columns,) = column_lists
                res.source_checksum = f"{source_sum:016x}"
                res.loaded_checksum = _table_checksum(conn, spool.table, list(columns) if columns else None)
    except _TooMany as exc:
        res.error = str(exc)
    except psycopg.Error as exc:
        res.error = f"{type(exc).__name__}: {str(exc).strip()}"
    res.rows_rejected = len(rejects)
    res.rows_loaded = 0 if res.error else spool.rows - len(rejected_rows)
    if res.error:
        res.source_checksum = res.loaded_checksum = ""
    if rejects:
        res.reject_file = _write_rejects(out, spool, rejects)
    if rejected_rows and not res.error:
        _drop_rows(spool.path, rejected_rows)
    res.seconds = time.perf_counter() - t0
    return res


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


def _try_copy(conn: psycopg.Connection, command: str, lines: list[str]) -> psycopg.Error | None:
    try:
        with conn.transaction(), conn.cursor().copy(command.encode("utf-8")) as copy:
            copy.write("".join(lines).encode("utf-8"))
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
    """The source lines of refused rows, read in one streamed pass per file."""
    wanted: dict[str, list[tuple[int, int, str]]] = {}
    for src in sources:
        path, start, end = src.split("\t")
        wanted.setdefault(path, []).append((int(start), int(end), src))
    texts: dict[str, str] = {}
    for path, spans in wanted.items():
        spans.sort()
        collecting: dict[str, list[str]] = {}
        try:
            with open(path, encoding="utf-8", errors="replace", newline="") as f:
                for n, line in enumerate(f, 1):
                    for first, last, src in spans:
                        if first <= n <= last:
                            collecting.setdefault(src, []).append(line)
                    if n > spans[-1][1]:
                        break
        except OSError:
            continue
        texts.update({src: "".join(lines) for src, lines in collecting.items()})
    return texts


def _drop_rows(path: Path, rows: set[int]) -> None:
    """Rewrite the COPY script without the refused rows (streamed; replaced atomically)."""
    tmp = path.with_suffix(".tmp")
    with path.open(encoding="utf-8", newline="\n") as src, tmp.open("w", encoding="utf-8", newline="\n") as dst:
        dst.writelines(without_rows(src, rows))
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


# ---- checksums ------------------------------------------------------------------------------


def _normalizers(conn: psycopg.Connection, table: str, columns: list[str] | None) -> list:
    """One function per COPY column: its text → a canonical text for its type."""
    cols = ", ".join(columns) if columns else "*"
    cur = conn.execute(f"SELECT {cols} FROM {table} LIMIT 0".encode())
    types = [d.type_code for d in cur.description or ()]
    names: dict[int, str] = {}
    for oid in set(types):
        row = conn.execute("SELECT format_type(%s, NULL)", (oid,)).fetchone()
        names[oid] = row[0] if row else ""
    return [_normalizer(names[t]) for t in types]


def _normalizer(type_name: str):
    if type_name in ("numeric", "integer", "bigint", "smallint"):
        return _number
    if type_name in ("double precision", "real"):
        return lambda v: repr(float(v))
    if type_name == "boolean":
        return lambda v: "t" if v.lower() in ("t", "true", "1", "y", "yes", "on") else "f"
    if type_name == "timestamp with time zone":
        return _instant
    if type_name.startswith("timestamp"):
        return _timestamp
    if type_name == "date":
        return lambda v: v[:10]
    if type_name == "bytea":
        return str.lower
    if type_name == "character":
        return str.rstrip
    return lambda v: v


def _number(v: str) -> str:
    try:
        return str(Decimal(v).normalize())
    except InvalidOperation:
        return v


def _timestamp(v: str) -> str:
    when = dt.datetime.fromisoformat(v[:26]) if "." in v else dt.datetime.fromisoformat(v[:19])
    if "." in v:  # PostgreSQL keeps microseconds, rounded
        frac = v.split(".", 1)[1].split(" ")[0].split("+")[0].split("-")[0]
        micros = round(int(frac.ljust(9, "0")[:9]) / 1000)
        when = when.replace(microsecond=0) + dt.timedelta(microseconds=micros)
    return when.isoformat(" ")


def _instant(v: str) -> str:
    m = re.match(r"(.+?)\s*(?:([+-]\d{2}(?::?\d{2})?)|\s([A-Za-z][\w/+-]*))?$", v)
    stamp, offset, region = (m.group(1), m.group(2), m.group(3)) if m else (v, None, None)
    when = dt.datetime.fromisoformat(_timestamp(stamp))
    if region:
        when = when.replace(tzinfo=ZoneInfo(region))
    elif offset:
        sign = -1 if offset[0] == "-" else 1
        digits = offset[1:].replace(":", "")
        delta = dt.timedelta(hours=int(digits[:2]), minutes=int(digits[2:4] or 0))
        when = when.replace(tzinfo=dt.timezone(sign * delta))
    else:
        when = when.replace(tzinfo=dt.UTC)
    return when.astimezone(dt.UTC).isoformat(" ")


_UNESCAPE = re.compile(r"\\(.)")
_UNESCAPED = {"n": "\n", "r": "\r", "t": "\t"}


def _row_hash(line: str, normal: list) -> int:
    fields = line.rstrip("\n").split("\t")
    canon = []
    for text, norm in zip(fields, normal):
        if text == copy_text.NULL:
            canon.append("\x00")
            continue
        if "\\" in text:
            text = _UNESCAPE.sub(lambda m: _UNESCAPED.get(m.group(1), m.group(1)), text)
        canon.append(norm(text))
    digest = hashlib.blake2b("\x1f".join(canon).encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "little")


def _table_checksum(conn: psycopg.Connection, table: str, columns: list[str] | None) -> str:
    """The same sum over the rows as stored, read back with COPY TO (text format, UTC)."""
    conn.execute("SET LOCAL TimeZone = 'UTC'")
    conn.execute("SET LOCAL DateStyle = 'ISO, YMD'")
    conn.execute("SET LOCAL extra_float_digits = 3")
    normal = _normalizers(conn, table, columns)
    cols = ", ".join(columns) if columns else "*"
    total = 0
    with conn.cursor().copy(f"COPY (SELECT {cols} FROM {table}) TO STDOUT".encode()) as copy:
        pending = b""
        for chunk in copy:
            pending += bytes(chunk)
            *lines, pending = pending.split(b"\n")
            for raw in lines:
                total = (total + _row_hash(raw.decode("utf-8"), normal)) & _MASK64
    return f"{total:016x}"
