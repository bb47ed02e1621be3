"""Read an Oracle schema directory into units: `read_schema_dir(path) -> SourceSet`.

Every file is decoded (`migrator.source.encoding`), split as SQL*Plus would run it
(`migrator.source.sqlplus`), and each statement becomes a `Unit` with its exact text and span. What is
not a unit is an issue that carries the text it covers, so for every file:

    every character is in exactly one unit's text, or exactly one issue's text, or is whitespace,
    a comment between statements, or a terminator (';' after a SQL statement, a '/' line).

Unit text: a SQL statement's text ends before its `;`; a PL/SQL unit's text runs through its
`END name;` (the `/` line is not included). Issues that only annotate a unit (duplicate name,
substitution variable, missing terminator) have empty `text`.

Issue codes: encoding, not-sql, nul-byte, skipped-file, unreadable-file, symlink-loop,
broken-symlink, sqlplus-directive, stray-terminator, wrapped-source, unterminated-block,
unterminated-statement, unterminated-string, unterminated-comment, unterminated-identifier,
unrecognized-statement, other-statement, missing-terminator, substitution-variable,
duplicate-name. (`migrator.source.dependencies` adds dependency-cycle and missing-reference.)
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from migrator.errors import MigratorError
from migrator.forked import StartedMap
from migrator.source import directives, sqlplus, statement_kind
from migrator.source.encoding import UTF8, Decoded, decode_bytes, looks_binary
from migrator.source.lexer import LineIndex
from migrator.source.tree import list_files
from migrator.source.units import Severity, SourceFile, SourceIssue, SourceSet, SourceSpan, Unit, UnitKind

SQL_EXTENSIONS = frozenset(
    ".sql .pls .plb .pks .pkb .pck .prc .fnc .trg .vw .tab .seq .typ .tps .tpb .ddl .idx .con "
    ".syn .grt .dml .ins .mv .pkg .proc .func .bdy .spc".split()
)
# Kinds of which a statement per target is normal; they always get a running '#n' suffix.
RUNNING_KINDS = frozenset(
    {UnitKind.DATA, UnitKind.GRANT, UnitKind.COMMENT, UnitKind.ALTER, UnitKind.ANONYMOUS_BLOCK, UnitKind.OTHER}
)


_MULTI_TABLE = re.compile(r"INSERT\s*(?:/\*.*?\*/\s*)?(?:ALL|FIRST)\b", re.I | re.S)

MIN_FILES_FOR_WORKERS = 48  # below this, forking costs more than reading the files here


class SourceError(MigratorError):
    """The schema directory cannot be read at all (missing, not a directory, no SQL files)."""


def read_schema_dir(
    path: str | Path,
    schema: str | None = None,
    workers: int = 1,
    multi_schema: bool | None = None,
    schema_map: dict[str, str] | None = None,
) -> SourceSet:
    """`workers` > 1: files are read, decoded and split on forked processes (migrator.forked);
    units, ids and issues come out exactly as from one process. `multi_schema`: see `owner_folders`."""
    return Reading(path, schema, workers, multi_schema, schema_map).result()


def owner_folders(root: Path, sql_files: list[str], multi_schema: bool | None) -> list[str]:
    """The top-level folders that are schema exports of their own, in name order ([] for a
    one-schema export). Detected (`multi_schema` None) when no SQL file lies directly in `root`
    and at least two of its folders hold SQL files; True forces it (every folder with SQL files
    is a schema; SQL files directly in `root` then belong to the run's default schema), False
    reads the whole tree as one schema."""
    if multi_schema is False:
        return []
    folders = sorted({f.split("/", 1)[0] for f in sql_files if "/" in f})
    at_root = any("/" not in f for f in sql_files)
    if multi_schema is None and (at_root or len(folders) < 2):
        return []
    return folders


class Reading:
    """`read_schema_dir` begun: the workers are forked and start reading now, while the caller
    goes on (`migrate` imports the converters meanwhile); `result()` gives the SourceSet, and
    raises what reading raised (a SourceError for a missing or empty folder too, so a caller
    that starts early still reports its own earlier checks first). `close()` abandons it."""

    def __init__(
        self,
        path: str | Path,
        schema: str | None = None,
        workers: int = 1,
        multi_schema: bool | None = None,
        schema_map: dict[str, str] | None = None,
    ):
        self._error: Exception | None = None
        self._loading: StartedMap[_Loaded] | None = None
        self._multi, self._map = multi_schema, {k.lower(): v.lower() for k, v in (schema_map or {}).items()}
        try:
            self._start(Path(path), schema, workers)
        except Exception as exc:  # raised by result()
            self._error = exc

    def _start(self, root: Path, schema: str | None, workers: int) -> None:
        if not root.exists():
            raise SourceError(f"schema directory does not exist: {root}")
        if not root.is_dir():
            raise SourceError(f"not a directory: {root}")
        files, unread = list_files(root)
        sql_files = [f for f in files if Path(f).suffix.lower() in SQL_EXTENSIONS]
        if not sql_files:
            not_read = "".join(f"; {u.rel}: {u.message}" for u in unread)
            raise SourceError(f"no SQL files ({', '.join(sorted(SQL_EXTENSIONS))}) under {root}{not_read}")
        self._files, self._sql_files = files, sql_files
        self._reader = _Reader(root, (schema or root.resolve().name).lower(), set(sql_files))
        folders = owner_folders(root, sql_files, self._multi)
        self._reader.owners = {f: self._map.get(f.lower(), f.lower()) for f in folders}
        self._reader.result.owners = list(dict.fromkeys(self._reader.owners.values()))
        for u in unread:
            self._reader.issue(u.code, u.severity, u.rel, 1, u.message)
        workers = workers if len(sql_files) >= MIN_FILES_FOR_WORKERS else 1
        self._loading = StartedMap(partial(_load, root), sql_files, workers, chunk=8)

    def result(self) -> SourceSet:
        if self._error is not None:
            raise self._error
        assert self._loading is not None, "result() is called once"
        loading, self._loading = self._loading, None
        loaded = dict(zip(self._sql_files, loading.result()))
        reader = self._reader
        for rel in self._files:
            if rel in reader.sql_files:
                reader.read_file(loaded[rel])
            else:
                reader.issue("skipped-file", Severity.WARNING, rel, 1,
                             "not an Oracle source file extension; not read")  # fmt: skip
        reader.join_table_data()
        return reader.result

    def close(self) -> None:
        if self._loading is not None:
            self._loading.close()
            self._loading = None


@dataclass
class _Loaded:
    """A file read, decoded and split (the part of reading that needs no other file)."""

    rel: str
    error: str = ""  # could not be read
    size: int = 0
    decoded: Decoded | None = None
    pieces: list[sqlplus.Piece] | None = None  # None: binary content


def _load(root: Path, rel: str) -> _Loaded:
    try:
        data = (root / rel).read_bytes()
    except OSError as exc:
        return _Loaded(rel, error=f"cannot read: {exc}")
    decoded = decode_bytes(data)
    pieces = None if looks_binary(decoded.text) else sqlplus.split_script(decoded.text)
    return _Loaded(rel, size=len(data), decoded=decoded, pieces=pieces)


@dataclass
class _File:
    rel: str
    text: str
    encoding: str
    lines: LineIndex
    state: directives.ScriptState

    def line(self, offset: int) -> int:
        return self.lines.line(offset)

    def span(self, start: int, end: int) -> SourceSpan:
        return SourceSpan(self.rel, self.line(start), self.line(max(start, end - 1)), start, end)


class _Reader:
    def __init__(self, root: Path, schema: str, sql_files: set[str]):
        self.root, self.sql_files = root, sql_files
        self.result = SourceSet(root=str(root), schema=schema)
        self.first: dict[str, SourceSpan] = {}  # base id → where it was first defined
        self.counts: Counter[str] = Counter()
        # a table's data unit → its statements' texts, joined once every file is read
        self.table_data: dict[str, tuple[Unit, list[str]]] = {}
        # a multi-schema export: top-level folder → the schema owning its files' objects
        self.owners: dict[str, str] = {}

    def issue(self, code, severity, file, line, message, text="", span=None, unit_id=None) -> None:
        self.result.issues.append(SourceIssue(code, message, severity, file, line, unit_id, text, span))

    def covering(self, f: _File, code: str, severity: Severity, start: int, end: int, message: str) -> None:
        """An issue that accounts for text[start:end] (no unit holds it)."""
        self.issue(code, severity, f.rel, f.line(start), message, f.text[start:end], f.span(start, end))

    def read_file(self, loaded: _Loaded) -> None:
        rel, decoded, pieces = loaded.rel, loaded.decoded, loaded.pieces
        if decoded is None:
            self.issue("unreadable-file", Severity.ERROR, rel, 1, loaded.error)
            return
        text = decoded.text
        owner = self.owners.get(rel.split("/", 1)[0], self.result.schema) if "/" in rel else self.result.schema
        f = _File(rel, text, decoded.encoding, LineIndex(text), directives.ScriptState(owner))
        self.result.files.append(SourceFile(rel, decoded.encoding, len(text.splitlines()), loaded.size))
        if decoded.encoding != UTF8:
            self.issue("encoding", Severity.INFO, rel, 1, decoded.note)
        if pieces is None:
            end = len(text)
            self.covering(f, "not-sql", Severity.ERROR, 0, end, "binary content, not a SQL script")
            return
        if _is_prose(pieces):
            start, end = pieces[0].start, pieces[-1].end
            self.covering(f, "not-sql", Severity.ERROR, start, end, "no SQL statement or SQL*Plus command in this file")
            return
        for piece in pieces:
            self.piece(f, piece)

    def piece(self, f: _File, piece: sqlplus.Piece) -> None:
        text = f.text[piece.start : piece.end]
        if "\x00" in text:
            self.nul_byte(f, piece, text.index("\x00"))
        elif piece.kind == sqlplus.DIRECTIVE:
            note = directives.interpret(piece.command, text, f.state, f.rel, self.sql_files)
            self.covering(f, "sqlplus-directive", note.severity, piece.start, piece.end, note.message)
        elif piece.kind == sqlplus.SLASH:
            if piece.command == ";":
                self.covering(f, "stray-terminator", Severity.INFO, piece.start, piece.end,
                              "';' with no statement before it; not code")  # fmt: skip
            else:
                note = directives.interpret("/", text, f.state, f.rel, self.sql_files)
                self.covering(f, "sqlplus-directive", note.severity, piece.start, piece.end, note.message)
        elif piece.kind == sqlplus.WRAPPED:
            what = _describe(piece.head, f.state.schema)
            self.covering(f, "wrapped-source", Severity.ERROR, piece.start, piece.end,
                          f"cannot convert wrapped source: {what} (obfuscated PL/SQL; get the clear source)")  # fmt: skip
        elif piece.kind == sqlplus.ERROR:
            what = _describe(piece.head, f.state.schema)
            self.covering(f, piece.code, Severity.ERROR, piece.start, piece.end, f"{what}: {piece.message}")
        elif piece.head is None or piece.head.kind is None:
            self.covering(f, "unrecognized-statement", Severity.ERROR, piece.start, piece.end,
                          "not a SQL statement or SQL*Plus command; not converted")  # fmt: skip
        else:
            self.unit(f, piece)

    def nul_byte(self, f: _File, piece: sqlplus.Piece, at: int) -> None:
        """A NUL byte (a corrupted copy, a padded file) cannot reach PostgreSQL, whose text cannot
        hold one: this statement is rejected at the byte's line, the rest of the file is read.
        The statement still takes its unit id, so the ids of later units do not shift."""
        head, offset = piece.head, piece.start + at
        unit_id = None
        if head is not None and head.kind is UnitKind.DATA and _is_table_insert(head, f.text, piece):
            unit_id = f"{UnitKind.DATA.value}:{head.schema or f.state.schema}.{head.name}"  # the row's table
        elif head is not None and head.kind is not None and head.name is not None:
            unit_id = self.allocate(head.kind, head.schema or f.state.schema, head.name, f.span(piece.start, piece.end))
        line = f.line(offset)
        column = offset - f.lines.starts[line - 1] + 1
        self.issue(
            "nul-byte",
            Severity.ERROR,
            f.rel,
            line,
            f"{_describe(head, f.state.schema)}: contains a NUL byte (line {line}, column {column}); "
            "not converted — remove the byte and read the file again",
            f.text[piece.start : piece.end],
            f.span(piece.start, piece.end),
            unit_id,
        )

    def unit(self, f: _File, piece: sqlplus.Piece) -> None:
        head = piece.head
        # called for recognised heads only, and every recognised head is named ("unnamed" at worst)
        assert head is not None and head.kind is not None and head.name is not None
        kind, name = head.kind, head.name
        schema = head.schema or f.state.schema
        span = f.span(piece.start, piece.end)
        if kind is UnitKind.DATA and _is_table_insert(head, f.text, piece):
            unit = self.table_insert(f, piece, f"{schema}.{name}", span)
            for code, message in piece.notes:
                self.issue(code, Severity.WARNING, f.rel, span.start_line, message, span=span, unit_id=unit.id)
            if f.state.define_char:
                self.substitutions(f, piece, unit)
            return
        unit_id = self.allocate(kind, schema, name, span)
        unit = Unit(unit_id, kind, schema, name, f.text[piece.start : piece.end], span, f.encoding)
        if head.target:
            unit.target = f"{head.target[0] or f.state.schema}.{head.target[1]}"
        self.result.units.append(unit)
        for code, message in piece.notes:
            self.issue(code, Severity.WARNING, f.rel, span.start_line, message, span=span, unit_id=unit_id)
        if head.kind is UnitKind.OTHER:
            self.other(f, piece, unit)
        if f.state.define_char:
            self.substitutions(f, piece, unit)

    def table_insert(self, f: _File, piece: sqlplus.Piece, table: str, span: SourceSpan) -> Unit:
        """An INSERT into one table joins that table's data unit (made at its first INSERT)."""
        unit_id = f"{UnitKind.DATA.value}:{table}"
        text = f.text[piece.start : piece.end]
        if unit_id not in self.table_data:
            schema, name = table.split(".", 1)
            unit = Unit(unit_id, UnitKind.DATA, schema, name, "", span, f.encoding, target=table)
            self.result.units.append(unit)
            self.table_data[unit_id] = (unit, [])
        unit, texts = self.table_data[unit_id]
        unit.parts.append(span)
        texts.append(text)
        return unit

    def join_table_data(self) -> None:
        for unit, texts in self.table_data.values():
            unit.text = join_statements(texts)
        self.table_data.clear()

    def allocate(self, kind: UnitKind, schema: str, name: str, span: SourceSpan) -> str:
        base = f"{kind.value}:{schema}.{name}"
        self.counts[base] += 1
        if kind in RUNNING_KINDS:
            return f"{base}#{self.counts[base]}"
        if base not in self.first:
            self.first[base] = span
            return base
        unit_id = f"{base}#{self.counts[base]}"
        first = self.first[base]
        self.issue("duplicate-name", Severity.WARNING, span.file, span.start_line,
                   f"{kind.value} {schema}.{name} is defined again at {span} (first at {first}); "
                   f"kept as {unit_id}", span=span, unit_id=unit_id)  # fmt: skip
        return unit_id

    def other(self, f: _File, piece: sqlplus.Piece, unit: Unit) -> None:
        new_schema = statement_kind.session_schema(f.text, piece.start, piece.end)
        if new_schema:
            f.state.schema = new_schema
        verb = piece.head.verb if piece.head is not None else None
        quiet = verb in statement_kind.TRANSACTION_VERBS or new_schema
        why = f"; later objects in this file belong to {new_schema}" if new_schema else ""
        self.issue("other-statement", Severity.INFO if quiet else Severity.WARNING, f.rel, unit.span.start_line,
                   f"{verb or 'statement'} is SQL but not an object we migrate{why}",
                   span=unit.span, unit_id=unit.id)  # fmt: skip

    def substitutions(self, f: _File, piece: sqlplus.Piece, unit: Unit) -> None:
        found = sqlplus.substitution_variables(f.text, piece.start, piece.end, f.state.define_char or "&")
        if not found:
            return
        known = [f"{v} (DEFINE {f.state.defines[k]!r})" if (k := v.lstrip(f.state.define_char).lower())
                 in f.state.defines else v for v in found]  # fmt: skip
        self.issue("substitution-variable", Severity.WARNING, f.rel, unit.span.start_line,
                   f"SQL*Plus would substitute {', '.join(known)} before running this; text kept as is",
                   span=unit.span, unit_id=unit.id)  # fmt: skip


def join_statements(texts: list[str]) -> str:
    """A table data unit's text: its statements in order, each but the last ended by its ';' (as
    any unit's text ends before its ';'); the ';' goes on a line of its own after a statement whose
    last line holds a `--` comment, which would hide it."""
    ends = ["\n;\n" if "--" in t[t.rfind("\n") + 1 :] else ";\n" for t in texts[:-1]]
    return "".join(t + end for t, end in zip(texts, ends)) + (texts[-1] if texts else "")


def _is_table_insert(head: statement_kind.Head, text: str, piece: sqlplus.Piece) -> bool:
    """INSERT into one table (not INSERT ALL / FIRST, which has several targets)."""
    if head.verb != "INSERT":
        return False
    return _MULTI_TABLE.match(text, piece.start) is None


def _describe(head: statement_kind.Head | None, schema: str) -> str:
    if head is None or head.kind is None or head.name is None:
        return "statement"
    return f"{head.kind.value} {head.schema or schema}.{head.name}"


def _is_prose(pieces: list[sqlplus.Piece]) -> bool:
    """Nothing in the file reads as SQL or SQL*Plus: it is not a script at all."""
    if not any(p.head is not None for p in pieces):
        return False
    return all(p.kind in (sqlplus.STATEMENT, sqlplus.ERROR) and (p.head is None or p.head.kind is None) for p in pieces)
