"""Phase one of a load: INSERT exports streamed into one COPY script per table in the output folder.

`spool(files, out, ...)` reads each file with `migrator.data.scanner` (one statement in memory at a
time), turns each literal row into a COPY line (`migrator.data.rows`) and appends it to its table's
file `OUT/data/<table>.sql`: `COPY t (cols) FROM STDIN;`, the rows, `\\.`, and, in their place,
the statements that are not literal rows, converted as SQL. Beside it, `OUT/.migrator/data/<table>.where`
holds each COPY row's `file:line`, so that a row PostgreSQL refuses later is reported where it was
written. A row whose literal is no value (a date that does not exist) is rejected here.
"""

from __future__ import annotations

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
    files: Iterable[Path], out: Path, schema: str | None = None, convert: Callable[[str], str] | None = None
) -> Spooled:
    """Stream every file into the per-table COPY scripts: INSERT scripts, and SQL*Loader control
    files (`.ctl`) with their data files. `convert(sql)`: the conversion of a statement that is
    not a literal row (without one it is reported, not loaded)."""
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
            _spool_script(path, schema, convert, result, table_spool)
    finally:
        for sp in result.tables.values():
            sp.close()
    return result


def _spool_script(path: Path, schema, convert, result: Spooled, table_spool) -> None:
    encoding = _encoding(path)
    # the common row (rows.FAST_ROW) is read in one match, its head once per distinct head text
    heads: dict[str, tuple[TableSpool, tuple[str, ...] | None, int | None] | None] = {}
    name, full = path.name, str(path)
    with path.open(encoding=encoding, errors="replace", newline="") as stream:
        try:
            for stmt in statements(stream, FAST_ROW):
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
