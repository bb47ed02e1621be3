"""Phase one of a load: INSERT exports streamed into one COPY script per table in the output folder.

`spool(files, out, ...)` reads each file with `migrator.data.scanner` (one statement in memory at a
time), turns each literal row into a COPY line (`migrator.data.rows`) and appends it to its table's
file `OUT/data/<table>.sql`: `COPY t (cols) FROM STDIN;`, the rows, `\\.`, and, in their place,
the statements that are not literal rows, converted as SQL. Beside it, `OUT/.migrator/data/<table>.where`
holds each COPY row's `file:line`, so that a row PostgreSQL refuses later is reported where it was
written. A row whose literal is no value (a date that does not exist) is rejected here.
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from migrator.data import copy_text
from migrator.data.masks import BadValue
from migrator.data.rows import FAST_ROW, NotLiteral, fast_copy_line, head, parse_insert, pg_name, target_text
from migrator.data.scanner import RowMatch, ScanError, Statement, statements
from migrator.source.encoding import decode_bytes

EMPTY_FIRST = "-- emptied first (SQL*Loader REPLACE/TRUNCATE)"
_SAFE_FILE = re.compile(r"[^A-Za-z0-9_.-]")
_DISABLE = re.compile(r"ALTER\s+TABLE\s+(\S+)\s+DISABLE\s+(?:NOVALIDATE\s+)?CONSTRAINT\s+(\S+)", re.I)
# the table a data statement writes (INSERT ALL / FIRST: its first INTO)
_DML_TARGET = re.compile(
    r"(?:INSERT\s+(?:/\*.*?\*/\s*)?(?:(?:ALL|FIRST)\s+)?(?:WHEN\b.*?\bTHEN\s+)?INTO|UPDATE(?:\s+/\*.*?\*/)?"
    r"|DELETE(?:\s+/\*.*?\*/)?(?:\s+FROM)?|MERGE(?:\s+/\*.*?\*/)?\s+INTO)"
    r"\s+((?:\"[^\"]+\"|[\w$#]+)(?:\.(?:\"[^\"]+\"|[\w$#]+))?)",
    re.I | re.S,
)
_IGNORED = re.compile(r"(?:COMMIT|ROLLBACK|SAVEPOINT|ALTER\s+SESSION)\b", re.I)


@dataclass
class Reject:
    where: str  # file:line
    reason: str
    text: str  # the original statement (or record)
    source: str = ""  # 'path<TAB>first<TAB>last line' when `text` is still to be read from the file


@dataclass
class TableSpool:
    table: str  # PostgreSQL name as COPY takes it (schema.table, quoted parts kept)
    path: Path  # the COPY script
    where_path: Path
    rows: int = 0
    statements: int = 0  # statements converted as SQL (not literal rows)
    rejects: list[Reject] = field(default_factory=list)
    _file: TextIO | None = None
    _where: TextIO | None = None
    _block: tuple | None = None  # (columns) of the open COPY block

    def open(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.where_path.parent.mkdir(parents=True, exist_ok=True)
        self._file = self.path.open("w", encoding="utf-8", newline="\n")
        self._where = self.where_path.open("w", encoding="utf-8", newline="\n")

    def row(self, columns: tuple[str, ...] | None, line: str, where: str, source: str = "") -> None:
        """`where`: file:line shown; `source`: 'path<TAB>first line<TAB>last line' of the original text."""
        assert self._file is not None and self._where is not None, "opened by the spool"
        if self._block != (columns,):
            self.end_block()
            self._file.write(copy_text.copy_command(self.table, columns))
            self._block = (columns,)
        self._file.write(line)
        self._where.write(f"{where}\t{source}\n")
        self.rows += 1

    def copy_row(self, columns: tuple[str, ...] | None, line: str, where_line: str) -> None:
        """`row` for the spool's own fast path: `where_line` is the where file's line, made by the caller."""
        if self._block != (columns,):
            self.end_block()
            self._file.write(copy_text.copy_command(self.table, columns))  # type: ignore[union-attr]
            self._block = (columns,)
        self._file.write(line)  # type: ignore[union-attr]
        self._where.write(where_line)  # type: ignore[union-attr]
        self.rows += 1

    def statement(self, sql: str) -> None:
        assert self._file is not None, "opened by the spool"
        self.end_block()
        self._file.write(sql.rstrip() + "\n")
        self.statements += 1

    def empty_first(self, sql: str) -> None:
        """TRUNCATE / DELETE the load runs first (SQL*Loader's TRUNCATE / REPLACE): adds no row."""
        assert self._file is not None, "opened by the spool"
        self.end_block()
        self._file.write(f"{sql}  {EMPTY_FIRST}\n")

    def end_block(self) -> None:
        if self._block is not None and self._file is not None:
            self._file.write(copy_text.END_OF_DATA + "\n")
        self._block = None

    def close(self) -> None:
        self.end_block()
        for f in (self._file, self._where):
            if f is not None:
                f.close()
        self._file = self._where = None


@dataclass
class Spooled:
    tables: dict[str, TableSpool]  # in the order their first row was read
    disabled: list[tuple[str, str]]  # (table, constraint) the export disables before its rows
    issues: list[str]  # statements neither rows nor converted (with file:line)


def file_name(table: str) -> str:
    safe = _SAFE_FILE.sub("_", table.replace('"', "")).strip(".") or "_"
    return safe


def spool(
    files: Iterable[Path],
    out: Path,
    schema: str | None = None,
    convert: Callable[[str], str] | None = None,
    workers: int = 1,
) -> Spooled:
    """Stream every file into the per-table COPY scripts: INSERT scripts, and SQL*Loader control
    files (`.ctl`) with their data files. `convert(sql)`: the conversion of a statement that is
    not a literal row (without one it is reported, not loaded). `workers` > 1: a large script in
    an encoding whose newline is one byte is read by that many processes (`_spool_parallel`)."""
    result = Spooled({}, [], [])

    def table_spool(table: str) -> TableSpool:
        sp = result.tables.get(table)
        if sp is None:
            name = file_name(table)
            sp = TableSpool(table, out / "data" / f"{name}.sql", out / ".migrator" / "data" / f"{name}.where")
            sp.open()
            result.tables[table] = sp
        return sp

    try:
        for path in files:
            if path.suffix.lower() == ".ctl":
                _spool_control(path, schema, table_spool)
                continue
            if (
                workers > 1
                and path.stat().st_size >= PARALLEL_BYTES
                and _encoding(path).lower().replace("_", "-") in _ONE_BYTE_NEWLINE
                and "fork" in _start_methods()
                and _spool_parallel(path, schema, convert, result, table_spool, workers, out)
            ):
                continue
            _spool_script(path, schema, convert, result, table_spool)
    finally:
        for sp in result.tables.values():
            sp.close()
    return result


def _spool_script(
    path: Path, schema, convert, result: Spooled, table_spool, span: tuple[int, int, int] | None = None
) -> bool:
    """Spool one INSERT script (or the bytes [start, end) of it, whose first line is `first_line`,
    with `span`); False when the text ended inside a statement (a span cut where it should not)."""
    encoding = _encoding(path)
    # the common row (rows.FAST_ROW) is read in one match, its head once per distinct head text
    heads: dict[str, tuple[TableSpool, tuple[str, ...] | None, int | None] | None] = {}
    name, full = path.name, str(path)
    first_line = 1
    if span is None:
        stream: TextIO = path.open(encoding=encoding, errors="replace", newline="")
    else:
        start, end, first_line = span
        raw = io.BufferedReader(_ByteRange(path, start, end), CHUNK_BYTES)
        stream = io.TextIOWrapper(raw, encoding=encoding, errors="replace", newline="")
    clean = True
    with stream:
        try:
            for stmt in statements(stream, FAST_ROW, first_line):
                if type(stmt) is RowMatch:
                    head_text, vals = stmt.match.group("head", "vals")
                    if head_text in heads:
                        target = heads[head_text]
                    else:
                        target = heads[head_text] = _fast_target(head_text, schema, table_spool)
                    if target is not None:
                        sp, columns, count = target
                        line, end = stmt.line, stmt.end_line
                        try:
                            copy_line = fast_copy_line(vals, count)
                        except BadValue as exc:
                            sp.rejects.append(
                                Reject(f"{name}:{line}", f"type: {exc}", stmt.match.group()[:-1].rstrip())
                            )
                            continue
                        sp.copy_row(columns, copy_line, f"{name}:{line}\t{full}\t{line}\t{end}\n")
                        continue
                    stmt = Statement(stmt.match.group()[:-1].rstrip(), stmt.line, stmt.end_line)
                assert isinstance(stmt, Statement)
                if stmt.directive:
                    continue
                clean = stmt.terminated
                where = f"{path.name}:{stmt.line}"
                try:
                    row = parse_insert(stmt.text)
                except NotLiteral:
                    _other(stmt.text, where, schema, convert, result, table_spool)
                    continue
                except BadValue as exc:
                    table = _table_of(stmt.text, schema)
                    table_spool(table).rejects.append(Reject(where, f"type: {exc}", stmt.text))
                    continue
                table = target_text((row.table[0] or schema, row.table[1]) if schema else row.table)
                columns = tuple(pg_name(c) for c in row.columns) if row.columns is not None else None
                source = f"{path}\t{stmt.line}\t{stmt.end_line}"
                table_spool(table).row(columns, copy_text.line(row.values), where, source)
        except ScanError as exc:
            result.issues.append(f"{path.name}:{exc.line}: {exc}")
            clean = False
    return clean


# ---- one large script on several processes ---------------------------------------------------

PARALLEL_BYTES = 32 << 20  # a script at least this large is read by `workers` processes
CHUNK_BYTES = 1 << 20
_ONE_BYTE_NEWLINE = ("utf-8", "utf_8", "ascii", "latin-1", "iso8859-1", "iso8859-15", "cp1250", "cp1251", "cp1252")
_INSERT_LINE = re.compile(rb"\n(?=[ \t]*insert[ \t]+into[ \t])", re.I)


class _ByteRange(io.RawIOBase):
    """The bytes [start, end) of a file, read as a file."""

    def __init__(self, path: Path, start: int, end: int):
        self._f = path.open("rb")
        self._f.seek(start)
        self._left = end - start

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), self._left)
        if n <= 0:
            return 0
        got = self._f.readinto(memoryview(buffer)[:n]) or 0
        self._left -= got
        return got

    def close(self) -> None:
        self._f.close()
        super().close()


def _spans(path: Path, parts: int) -> list[tuple[int, int, int]]:
    """(start, end, first line) of `parts` byte ranges of a script, each cut just before a line
    that starts with INSERT INTO (where a statement most likely starts: checked after, see
    `_spool_parallel`)."""
    size = path.stat().st_size
    cuts = [0]
    with path.open("rb") as f:
        for k in range(1, parts):
            f.seek(max(size * k // parts, cuts[-1]))
            window = f.read(CHUNK_BYTES)
            m = _INSERT_LINE.search(window)
            if m is not None:
                cuts.append(f.tell() - len(window) + m.start() + 1)
        cuts.append(size)
        lines, first, pos = [], 1, 0
        f.seek(0)
        for cut in cuts[:-1]:  # the line each range starts at: the newlines before it, counted in C
            while pos < cut:
                block = f.read(min(CHUNK_BYTES * 16, cut - pos))
                first += block.count(b"\n")
                pos += len(block)
            lines.append(first)
    return [(cuts[k], cuts[k + 1], lines[k]) for k in range(len(cuts) - 1) if cuts[k] < cuts[k + 1]]


_FORKED: dict = {}  # what a forked spool process inherits: the statement converter (not picklable)


def _spool_span(path: Path, span: tuple[int, int, int], part_out: Path, schema: str | None):
    """A process's share of a script: spooled into its own folder; (tables, disabled, issues, clean)."""
    part = Spooled({}, [], [])

    def table_spool(table: str) -> TableSpool:
        sp = part.tables.get(table)
        if sp is None:
            name = file_name(table)
            sp = TableSpool(table, part_out / f"{name}.sql", part_out / f"{name}.where")
            sp.open()
            part.tables[table] = sp
        return sp

    try:
        clean = _spool_script(path, schema, _FORKED.get("convert"), part, table_spool, span)
    finally:
        for sp in part.tables.values():
            sp.close()
    return list(part.tables.values()), part.disabled, part.issues, clean


def _spool_parallel(path: Path, schema, convert, result: Spooled, table_spool, workers: int, out: Path) -> bool:
    """Spool a large script on `workers` processes, each a byte range of it, and append their
    output to the tables' scripts in order: the same rows, wheres and rejects as one process
    writes (a COPY block ends where a range ends). False, with nothing written, when a range was
    not cut between statements (an INSERT INTO line inside a string): the caller reads it whole."""
    import multiprocessing
    import shutil
    from concurrent.futures import ProcessPoolExecutor

    spans = _spans(path, workers)
    if len(spans) < 2:
        return False
    parts_dir = out / ".migrator" / "data" / "parts"
    _FORKED["convert"] = convert
    try:
        with ProcessPoolExecutor(len(spans), mp_context=multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_spool_span, path, span, parts_dir / str(k), schema) for k, span in enumerate(spans)]
            parts = [f.result() for f in futures]
        if not all(clean for *_, clean in parts[:-1]):
            return False
        for tables, disabled, issues, _ in parts:
            for sp_part in tables:
                sp = table_spool(sp_part.table)
                sp.end_block()
                assert sp._file is not None and sp._where is not None, "opened by the spool"
                for src, dst in ((sp_part.path, sp._file), (sp_part.where_path, sp._where)):
                    dst.flush()  # the part's bytes (UTF-8, as the spool writes) go after what is written
                    with src.open("rb") as f:
                        shutil.copyfileobj(f, dst.buffer, CHUNK_BYTES)
                sp.rows += sp_part.rows
                sp.statements += sp_part.statements
                sp.rejects += sp_part.rejects
            result.disabled += disabled
            result.issues += issues
        return True
    finally:
        _FORKED.clear()
        shutil.rmtree(parts_dir, ignore_errors=True)


def _start_methods() -> list[str]:
    import multiprocessing

    return multiprocessing.get_all_start_methods()


def _fast_target(head_text: str, schema: str | None, table_spool):
    """(table spool, PostgreSQL column names, their count) of an INSERT head; None: not a plain head."""
    try:
        table, columns = head(head_text)
    except NotLiteral:
        return None
    target = target_text((table[0] or schema, table[1]) if schema else table)
    pg_columns = tuple(pg_name(c) for c in columns) if columns is not None else None
    return table_spool(target), pg_columns, len(columns) if columns is not None else None


def _spool_control(path: Path, schema: str | None, table_spool) -> None:
    from migrator.data import sqlldr

    empty = sqlldr.empty_first(path, schema)  # REPLACE / TRUNCATE: before the rows, in the same transaction
    if empty is not None:
        table_spool(sqlldr.read_control(path, schema).table).empty_first(empty)
    for rec in sqlldr.records(path, schema):
        sp = table_spool(rec.table)
        if rec.line is None:
            sp.rejects.append(Reject(rec.where, rec.reason, rec.text))
        else:
            sp.row(rec.columns, rec.line, rec.where, rec.source)


def _other(text: str, where: str, schema, convert, result: Spooled, table_spool) -> None:
    if _IGNORED.match(text):
        return
    if (m := _DISABLE.match(text)) is not None:
        table = target_text(_split(m.group(1), schema))
        result.disabled.append((table, pg_name(m.group(2))))
        return
    target = _DML_TARGET.match(text)
    if target is not None and convert is not None:
        # INSERT … SELECT, UPDATE, DELETE, MERGE, INSERT ALL: converted as SQL and run with the
        # rows of the table it writes (its first target), in their order among them
        table_spool(target_text(_split(target.group(1), schema))).statement(convert(text))
        return
    result.issues.append(f"{where}: not a literal row, not loaded: {' '.join(text.split())[:120]}")


def _table_of(text: str, schema: str | None) -> str:
    m = _DML_TARGET.match(text)
    return target_text(_split(m.group(1), schema)) if m else "unknown"


def _split(name: str, schema: str | None) -> tuple[str | None, str]:
    parts = re.findall(r'"[^"]+"|[^.]+', name)
    if len(parts) == 2:
        return parts[0], parts[1]
    return schema, parts[0]


def _encoding(path: Path) -> str:
    with path.open("rb") as f:
        head = f.read(1 << 16)
    cut = head.rfind(b"\n")  # not inside a multi-byte character
    return decode_bytes(head[: cut + 1] if cut > 0 else head).encoding
