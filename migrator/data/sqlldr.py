"""SQL*Loader control files and their data files, read into the same COPY spool as INSERT exports.

Understood: `OPTIONS (SKIP=n)`, `LOAD DATA`, `CHARACTERSET` (Oracle names), `INFILE 'file'` (several
allowed) or `INFILE *` with the records after `BEGINDATA`, `INSERT` / `APPEND` / `REPLACE` /
`TRUNCATE` (REPLACE and TRUNCATE empty the table first, in the load's transaction), `SKIP n`,
`INTO TABLE t`, `FIELDS TERMINATED BY 'c' | X'hh' | WHITESPACE [OPTIONALLY] ENCLOSED BY 'c'`,
`TRAILING NULLCOLS`, and per field `POSITION(a:b)` (fixed width), `CHAR`, `INTEGER|DECIMAL|FLOAT
EXTERNAL`, `DATE "mask"`, `TIMESTAMP [WITH TIME ZONE] "mask"`, `FILLER`, `CONSTANT 'v'`.
BADFILE, DISCARDFILE and ERRORS= are SQL*Loader's own options for what `migrator data load` does with
`--out` and `--max-rejects`; they are read and left to those. An empty field is NULL, as in SQL*Loader;
fields are trimmed of blanks around them (SQL*Loader's default for delimited fields).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from migrator.data import copy_text
from migrator.data.masks import BadValue, read_datetime
from migrator.data.rows import Value, pg_name
from migrator.errors import MigratorError
from migrator.oracle_types import SQLLDR_NUMBER_FIELDS

# Oracle character set names → Python codecs
CHARSETS = {"UTF8": "utf-8", "AL32UTF8": "utf-8", "WE8MSWIN1252": "cp1252", "WE8ISO8859P1": "latin-1",
            "WE8ISO8859P15": "iso8859-15", "US7ASCII": "ascii", "EE8MSWIN1250": "cp1250",
            "CL8MSWIN1251": "cp1251", "AL16UTF16": "utf-16"}  # fmt: skip
_MODES = ("INSERT", "APPEND", "REPLACE", "TRUNCATE")


class ControlFileError(MigratorError):
    """A control file that cannot be read (its file:line says where)."""


@dataclass
class Field:
    name: str
    kind: str = "CHAR"  # CHAR, NUMBER (…EXTERNAL), DATE, TIMESTAMP, TIMESTAMPTZ
    mask: str | None = None
    position: tuple[int, int] | None = None
    filler: bool = False
    constant: str | None = None


@dataclass
class Control:
    path: Path
    table: str
    fields: list[Field]
    infiles: list[Path | None] = field(default_factory=list)  # None: the records after BEGINDATA
    encoding: str = "utf-8"
    mode: str = "INSERT"
    skip: int = 0
    terminator: str | None = ","  # None: fixed width (POSITION) or WHITESPACE (below)
    whitespace: bool = False
    enclosure: str | None = None
    trailing_nullcols: bool = False
    begindata_line: int = 0  # the line after BEGINDATA


@dataclass
class Record:
    table: str
    columns: tuple[str, ...]
    line: str | None  # COPY line; None: rejected (reason)
    where: str
    text: str  # the original record
    reason: str = ""
    source: str = ""  # 'path<TAB>first<TAB>last line' of the record


def read_control(path: Path, schema: str | None = None) -> Control:
    raw = path.read_bytes()
    text = raw.decode("utf-8", errors="replace")
    begin = re.search(r"(?im)^\s*BEGINDATA\s*$", text)
    body = text[: begin.start()] if begin else text
    begindata_line = text.count("\n", 0, begin.end()) + 2 if begin else 0  # the line after BEGINDATA
    code = re.sub(r"--[^\n]*", "", body)
    up = code.upper()
    m = re.search(r"\bINTO\s+TABLE\s+((?:\"[^\"]+\"|[\w$#]+)(?:\.(?:\"[^\"]+\"|[\w$#]+))?)", code, re.I)
    if m is None:
        raise ControlFileError(f"{path.name}: no INTO TABLE")
    name = m.group(1)
    parts = re.findall(r'"[^"]+"|[^.]+', name)
    table = (
        ".".join(pg_name(p) for p in parts)
        if len(parts) == 2 or not schema
        else f"{pg_name(schema)}.{pg_name(parts[0])}"
    )
    open_paren = code.find("(", m.end())
    if open_paren < 0:
        raise ControlFileError(f"{path.name}: no field list after INTO TABLE")
    close = _matching(code, open_paren)
    ctl = Control(path, table, _fields(code[open_paren + 1 : close], path), begindata_line=begindata_line)
    head = code[:open_paren]
    for inf in re.finditer(r"\bINFILE\s+(\*|'[^']*'|\"[^\"]*\"|\S+)", head, re.I):
        val = inf.group(1).strip("'\"")
        ctl.infiles.append(None if val == "*" else (path.parent / val))
    if not ctl.infiles:
        raise ControlFileError(f"{path.name}: no INFILE")
    if cs := re.search(r"\bCHARACTERSET\s+['\"]?(\w+)", head, re.I):
        ctl.encoding = CHARSETS.get(cs.group(1).upper(), cs.group(1))
    if sk := re.search(r"\bSKIP\s*(?:=\s*)?\(?\s*(\d+)", up):
        ctl.skip = int(sk.group(1))
    modes = [w for w in re.findall(r"\b(INSERT|APPEND|REPLACE|TRUNCATE)\b", head, re.I)]
    if modes:
        ctl.mode = modes[-1].upper()
    if term := re.search(r"\bTERMINATED\s+BY\s+(WHITESPACE|'[^']*'|\"[^\"]*\"|X'[0-9A-Fa-f]+')", head, re.I):
        ctl.terminator, ctl.whitespace = _char(term.group(1)), term.group(1).upper() == "WHITESPACE"
    elif any(f.position for f in ctl.fields):
        ctl.terminator = None
    if enc := re.search(r"\bENCLOSED\s+BY\s+('[^']*'|\"[^\"]*\"|X'[0-9A-Fa-f]+')", head, re.I):
        ctl.enclosure = _char(enc.group(1))
    ctl.trailing_nullcols = re.search(r"\bTRAILING\s+NULLCOLS\b", head, re.I) is not None
    return ctl


def _char(spec: str) -> str | None:
    if spec.upper() == "WHITESPACE":
        return None
    if spec.upper().startswith("X'"):
        return bytes.fromhex(spec[2:-1]).decode("latin-1")
    return spec[1:-1]


def _outside_quotes(text: str, start: int = 0) -> Iterator[tuple[int, str, int]]:
    """(position, character, parenthesis depth after it) of each character of a control file's
    text from `start` that stands outside a quoted string or name: the one walk the field list's
    readers share."""
    depth, quote = 0, ""
    for k in range(start, len(text)):
        c = text[k]
        if quote:
            quote = "" if c == quote else quote
            continue
        if c in "'\"":
            quote = c
            continue
        depth += 1 if c == "(" else -1 if c == ")" else 0
        yield k, c, depth


def _matching(text: str, i: int) -> int:
    """The position of the parenthesis that closes the one at `i`."""
    for k, c, depth in _outside_quotes(text, i):
        if c == ")" and depth == 0:
            return k
    raise ControlFileError("unbalanced parentheses in the field list")


def _fields(spec: str, path: Path) -> list[Field]:
    out = []
    for item in _split_top(spec):
        m = re.match(r'\s*("[^"]+"|[\w$#]+)(.*)$', item, re.S)
        if m is None:
            raise ControlFileError(f"{path.name}: cannot read field {item.strip()!r}")
        f = Field(pg_name(m.group(1)))
        rest = m.group(2)
        up = rest.upper()
        if pos := re.search(r"POSITION\s*\(\s*(\d+)\s*[:-]\s*(\d+)\s*\)", rest, re.I):
            f.position = (int(pos.group(1)), int(pos.group(2)))
        f.filler = re.search(r"\bFILLER\b", up) is not None
        if const := re.search(r"\bCONSTANT\s+('[^']*'|\"[^\"]*\")", rest, re.I):
            f.constant = const.group(1)[1:-1]
        if re.search(r"\bTIMESTAMP\b.*\bTIME\s+ZONE\b", up):
            f.kind = "TIMESTAMPTZ"
        elif re.search(r"\bTIMESTAMP\b", up):
            f.kind = "TIMESTAMP"
        elif re.search(r"\bDATE\b", up):
            f.kind = "DATE"
        elif SQLLDR_NUMBER_FIELDS.intersection(re.findall(r"\b[A-Z_]+\b", up)):
            f.kind = "NUMBER"
        kind_word = re.search(r"\b(DATE|TIMESTAMP)\b", up)
        if kind_word is not None:  # its mask is the quoted text after it
            mm = re.search(r"\"([^\"]*)\"|'([^']*)'", rest[kind_word.start() :])
            f.mask = (mm.group(1) or mm.group(2)) if mm else None
        out.append(f)
    return out


def _split_top(spec: str) -> list[str]:
    """The field list's items: `spec` split at its top-level commas."""
    items, start = [], 0
    for k, c, depth in _outside_quotes(spec):
        if c == "," and depth == 0:
            items.append(spec[start:k])
            start = k + 1
    if spec[start:].strip():
        items.append(spec[start:])
    return [i for i in items if i.strip()]


def records(path: Path, schema: str | None = None) -> Iterator[Record]:
    """The control file's records as COPY lines (or rejects), streamed from its data files."""
    ctl = read_control(path, schema)
    columns = tuple(f.name for f in ctl.fields if not f.filler)
    for infile in ctl.infiles:
        src = infile or path
        first = ctl.begindata_line if infile is None else 1
        with open(src, encoding=ctl.encoding if infile else "utf-8", errors="replace", newline="") as stream:
            lines = _numbered(stream, first)
            for n, raw in _skip(lines, ctl.skip):
                yield _record(ctl, columns, src, n, raw)


def _numbered(stream, first: int) -> Iterator[tuple[int, str]]:
    for n, line in enumerate(stream, 1):
        if n >= first:
            yield n, line.rstrip("\r\n")


def _skip(lines: Iterator[tuple[int, str]], skip: int) -> Iterator[tuple[int, str]]:
    for k, item in enumerate(lines):
        if k >= skip and item[1].strip():
            yield item


def _record(ctl: Control, columns: tuple[str, ...], src: Path, n: int, raw: str) -> Record:
    where = f"{src.name}:{n}"
    source = f"{src}\t{n}\t{n}"
    try:
        texts = _split(ctl, raw)
        values: list[Value] = []
        k = 0
        for f in ctl.fields:
            if f.constant is not None:
                values.append(f.constant)
                continue
            if f.position is not None:
                text: str | None = raw[f.position[0] - 1 : f.position[1]]
            elif k < len(texts):
                text = texts[k]
                k += 1
            elif ctl.trailing_nullcols:
                text = None
            else:
                raise BadValue(f"column {f.name} not found before the end of the record (no TRAILING NULLCOLS)")
            if f.filler:
                continue
            values.append(_value(f, text))
        return Record(ctl.table, columns, copy_text.line(values), where, raw, source=source)
    except BadValue as exc:
        return Record(ctl.table, columns, None, where, raw, f"type: {exc}", source)


def _split(ctl: Control, raw: str) -> list[str]:
    if ctl.terminator is None and not ctl.whitespace:
        return []
    if ctl.whitespace:
        return raw.split()
    reader = csv.reader([raw], delimiter=ctl.terminator or ",", quotechar=ctl.enclosure or "\x00",
                        quoting=csv.QUOTE_MINIMAL if ctl.enclosure else csv.QUOTE_NONE)  # fmt: skip
    return next(reader, [])


def _value(f: Field, text: str | None) -> Value:
    if text is None:
        return None
    text = text.strip()
    if not text:
        return None  # SQL*Loader: an empty field is NULL
    if f.kind == "NUMBER":
        if not re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", text):
            raise BadValue(f"{f.name}: {text!r} is not a number")
        return text
    if f.kind in ("DATE", "TIMESTAMP", "TIMESTAMPTZ") and f.mask:
        return read_datetime(text, f.mask, f.kind == "TIMESTAMPTZ")
    return text


def empty_first(ctl_path: Path, schema: str | None = None) -> str | None:
    """The statement REPLACE / TRUNCATE mean before the rows (None for INSERT / APPEND)."""
    ctl = read_control(ctl_path, schema)
    if ctl.mode == "TRUNCATE":
        return f"TRUNCATE TABLE {ctl.table};"
    if ctl.mode == "REPLACE":
        return f"DELETE FROM {ctl.table};"
    return None
