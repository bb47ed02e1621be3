"""One INSERT statement read as a literal row: `INSERT INTO t (a, b) VALUES (1, 'x')` →
target, columns and the values as PostgreSQL COPY would take them.

Values are Oracle literal expressions: strings (`'it''s'`, `N'…'`, `q'[…]'`, `''` is NULL),
numbers (`-1.5E3`), `NULL`, `DATE '…'` / `TIMESTAMP '…'`, `TO_DATE` / `TO_TIMESTAMP` /
`TO_TIMESTAMP_TZ` with or without a mask, `TO_CHAR`, `TO_NUMBER`, `HEXTORAW`, `TO_CLOB` /
`TO_NCLOB` / `TO_BLOB`, `EMPTY_CLOB()` / `EMPTY_BLOB()`, `CHR(n)` / `NCHR(n)` and `||` between them
(NULL concatenates as ''). Anything else (a sequence's NEXTVAL, SYSDATE, a user function, a
subquery, INSERT … SELECT) makes the statement `NotLiteral`: the caller sends it through the normal
conversion path instead. A literal that is no value (a bad date) raises `BadValue`: the row is rejected.

A value is `None` (NULL), `str` (text as COPY reads it for the column's type) or `bytes` (RAW/BLOB).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from harness.quoting import quote_ident
from migrator.data.masks import (
    DEFAULT_DATE_MASK,
    DEFAULT_TIMESTAMP_MASK,
    DEFAULT_TIMESTAMP_TZ_MASK,
    BadValue,
    read_datetime,
)
from migrator.source.identifiers import fold

# COPY's text format (kept here, beside the values: copy_text imports Value from this module)
NULL_FIELD = "\\N"
COPY_ESCAPES = str.maketrans(
    {"\\": "\\\\", "\n": "\\n", "\r": "\\r", "\t": "\\t", "\b": "\\b", "\f": "\\f", "\v": "\\v"}
)

Value = str | bytes | None


class NotLiteral(Exception):
    """The statement is not an INSERT of literal values (it is converted as SQL instead)."""


@dataclass(frozen=True)
class Row:
    table: tuple[str | None, str]  # (schema or None, name), as written (quoted names keep their quotes)
    columns: tuple[str, ...] | None  # as written; None: all columns in table order
    values: tuple[Value, ...]


def pg_name(name: str) -> str:
    """An Oracle name as written → the PostgreSQL name the converted DDL created, as SQL text:
    folded as the converter folds it, quoted where PostgreSQL needs it (`line#`, a keyword)."""
    return quote_ident(fold(name))


def target_text(table: tuple[str | None, str]) -> str:
    schema, name = table
    return f"{pg_name(schema)}.{pg_name(name)}" if schema else pg_name(name)


_TOKEN = re.compile(
    r"""(?P<ws>\s+|--[^\n]*|/\*.*?\*/)
      | (?P<q>[nN]?[qQ]'(?:\[.*?\]|\{.*?\}|<.*?>|\(.*?\)|([^\s(\[{<]).*?\3)')
      | (?P<str>[nN]?'(?:[^']|'')*')
      | (?P<num>(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?(?![\w$#]))
      | (?P<qid>"[^"]+")
      | (?P<word>[A-Za-z][\w$#]*)
      | (?P<op>\|\||[(),.+\-])""",
    re.S | re.X,
)


def _tokens(text: str, start: int = 0) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = start
    for m in _TOKEN.finditer(text, start):
        if m.start() != pos:  # a character no token starts with
            break
        pos = m.end()
        kind = m.lastgroup
        if kind != "ws":  # None: the q-quote's delimiter group matched last, the token is the q-quote
            out.append((kind or "q", m.group()))
    if pos != len(text):
        raise NotLiteral(f"cannot read {text[pos : pos + 20]!r}")
    return out


# `INSERT INTO t (a, b) VALUES (` with no string or nested parenthesis: rows of one table repeat
# it, so it is read once (cached) and only the values are tokenized per row
_HEAD = re.compile(r"\s*INSERT\s+INTO\s+[^'()]+?(?:\([^'()]*\))?\s*VALUES\s*\(", re.I)


@lru_cache(maxsize=1024)
def _head(text: str) -> tuple[tuple[str | None, str], tuple[str, ...] | None]:
    p = _Parser(_tokens(text))
    table, columns = _target(p)
    p.word("VALUES")
    p.expect("(")
    if p.i != len(p.toks):
        raise NotLiteral("not an INSERT ... VALUES head")
    return table, columns


# The common row, read by one expression per value: numbers, NULL, plain strings and
# TO_DATE / TO_TIMESTAMP[_TZ] of plain strings, each followed by ',' or the closing ')'.
# Anything else falls back to the tokenizer and parser below (same values, slower).
_FAST_VALUE = re.compile(
    r"""\s*(?:(?P<num>[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)(?![\w$#.])
          |(?P<null>NULL)\b
          |[nN]?'(?P<str>[^']*(?:''[^']*)*)'
          |(?P<fn>TO_DATE|TO_TIMESTAMP|TO_TIMESTAMP_TZ)\s*\(\s*'(?P<a1>[^']*)'\s*(?:,\s*'(?P<a2>[^']*)'\s*)?\))
       \s*(?P<sep>[,)])""",
    re.I | re.X,
)
# The same value forms, as one expression: a whole statement of them is matched by the scanner
# (`FAST_ROW`) in one call, and its values are then cut by `_FAST_FIELDS` in one `findall`.
_V = (r"""(?:[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?(?![\w$#.])|NULL\b|[nN]?'[^']*(?:''[^']*)*'"""
      r"""|(?:TO_DATE|TO_TIMESTAMP|TO_TIMESTAMP_TZ)\s*\(\s*'[^']*'\s*(?:,\s*'[^']*'\s*)?\))""")  # fmt: skip
FAST_ROW = re.compile(
    rf"(?P<head>INSERT\s+INTO\s+[^'();]+?(?:\([^'();]*\))?\s*VALUES\s*\()\s*(?P<vals>{_V}(?:\s*,\s*{_V})*)\s*\)[ \t]*;",
    re.I,
)
_FAST_FIELDS = re.compile(
    r"""\s*(?:([+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?)|(NULL)|[nN]?'([^']*(?:''[^']*)*)'
          |(TO_DATE|TO_TIMESTAMP|TO_TIMESTAMP_TZ)\s*\(\s*'([^']*)'\s*(?:,\s*'([^']*)'\s*)?\))\s*(?:,|$)""",
    re.I | re.X,
)


def _fast_values(text: str, pos: int) -> list[Value] | None:
    values: list[Value] = []
    match = _FAST_VALUE.match
    while True:
        m = match(text, pos)
        if m is None or m.group("sep") is None:
            return None
        if m.group("num") is not None:
            values.append(m.group("num").lstrip("+"))
        elif m.group("str") is not None:
            values.append(m.group("str").replace("''", "'") or None)
        elif m.group("fn") is not None:
            default, zone = _FUNCS_DATETIME[m.group("fn").upper()]
            values.append(read_datetime(m.group("a1"), m.group("a2") or default, zone) if m.group("a1") else None)
        else:
            values.append(None)
        pos = m.end()
        if m.group("sep") == ")":
            return values if pos == len(text) or text[pos:].isspace() else None


def head(text: str) -> tuple[tuple[str | None, str], tuple[str, ...] | None]:
    """Target and columns of `INSERT INTO t (a, b) VALUES (` (NotLiteral if it is not that)."""
    return _head(text)


def fast_copy_line(vals: str, expected: int | None) -> str:
    """The COPY line of the values of a `FAST_ROW` match (its `vals` group): the same text
    `copy_text.line(parse_insert(...).values)` gives, without building the values one by one."""
    fields: list[str] = []
    add = fields.append
    # one `in` per character (memchr) is quicker than a class scanned by the regex engine
    escape = ("\\" in vals or "\n" in vals or "\r" in vals or "\t" in vals
              or "\b" in vals or "\f" in vals or "\v" in vals)  # fmt: skip
    for num, _, text, fn, a1, a2 in _FAST_FIELDS.findall(vals):
        if num:
            add(num[1:] if num[0] == "+" else num)
        elif fn:
            if a1:
                default, zone = _FUNCS_DATETIME[fn.upper()]
                add(read_datetime(a1, a2 or default, zone))
            else:
                add(NULL_FIELD)
        elif text:  # '' is NULL in Oracle, as NULL is
            if "''" in text:
                text = text.replace("''", "'")
            add(text.translate(COPY_ESCAPES) if escape else text)
        else:
            add(NULL_FIELD)
    if expected is not None and expected != len(fields):
        raise BadValue(f"{expected} columns but {len(fields)} values")
    return "\t".join(fields) + "\n"


def parse_insert(text: str) -> Row:
    """The literal row of one INSERT statement (its text without the ';')."""
    m = _HEAD.match(text)
    if m is not None:
        table, columns = _head(m.group())
        fast = _fast_values(text, m.end())
        if fast is not None:
            if columns is not None and len(columns) != len(fast):
                raise BadValue(f"{len(columns)} columns but {len(fast)} values")
            return Row(table, columns, tuple(fast))
        p = _Parser(_tokens(text, m.end()))
    else:
        p = _Parser(_tokens(text))
        table, columns = _target(p)
        p.word("VALUES")
        p.expect("(")
    values = [p.value()]
    while p.peek() == ",":
        p.i += 1
        values.append(p.value())
    p.expect(")")
    if p.i != len(p.toks):
        raise NotLiteral("text after the VALUES list")
    if columns is not None and len(columns) != len(values):
        raise BadValue(f"{len(columns)} columns but {len(values)} values")
    return Row(table, columns, tuple(values))


def _target(p: _Parser) -> tuple[tuple[str | None, str], tuple[str, ...] | None]:
    p.word("INSERT")
    if p.peek_word() in ("ALL", "FIRST"):
        raise NotLiteral("multi-table INSERT")
    p.word("INTO")
    table = p.name()
    if p.peek_kind() in ("word", "qid") and p.peek_word() != "VALUES":
        p.i += 1  # a table alias
    columns = None
    if p.peek() == "(":
        p.i += 1
        cols = [p.ident()]
        while p.peek() == ",":
            p.i += 1
            cols.append(p.ident())
        p.expect(")")
        columns = tuple(cols)
    return table, columns


_FUNCS_DATETIME = {
    "TO_DATE": (DEFAULT_DATE_MASK, False),
    "TO_TIMESTAMP": (DEFAULT_TIMESTAMP_MASK, False),
    "TO_TIMESTAMP_TZ": (DEFAULT_TIMESTAMP_TZ_MASK, True),
}
_PASS_THROUGH = frozenset({"TO_CLOB", "TO_NCLOB", "TO_CHAR", "TO_NCHAR", "TO_NUMBER"})


class _Parser:
    def __init__(self, toks: list[tuple[str, str]]):
        self.toks, self.i = toks, 0

    def peek(self) -> str:
        return self.toks[self.i][1] if self.i < len(self.toks) else ""

    def peek_kind(self) -> str:
        return self.toks[self.i][0] if self.i < len(self.toks) else ""

    def peek_word(self) -> str:
        return self.peek().upper() if self.peek_kind() == "word" else ""

    def next(self) -> tuple[str, str]:
        if self.i >= len(self.toks):
            raise NotLiteral("statement ends early")
        self.i += 1
        return self.toks[self.i - 1]

    def word(self, w: str) -> None:
        if self.peek_word() != w:
            raise NotLiteral(f"expected {w}")
        self.i += 1

    def expect(self, text: str) -> None:
        if self.peek() != text:
            raise NotLiteral(f"expected {text!r}")
        self.i += 1

    def ident(self) -> str:
        kind, text = self.next()
        if kind not in ("word", "qid"):
            raise NotLiteral(f"expected a name, got {text!r}")
        return text

    def name(self) -> tuple[str | None, str]:
        first = self.ident()
        if self.peek() == ".":
            self.i += 1
            return first, self.ident()
        if self.peek() == "@":
            raise NotLiteral("database link")
        return None, first

    def value(self) -> Value:
        parts = [self.term()]
        while self.peek() == "||":
            self.i += 1
            parts.append(self.term())
        if len(parts) == 1:
            return parts[0]
        if any(isinstance(v, bytes) for v in parts):
            raise NotLiteral("|| over RAW values")
        joined = "".join(v for v in parts if isinstance(v, str))
        return joined or None  # Oracle: '' is NULL

    def term(self) -> Value:
        kind, text = self.next()
        if kind == "str":
            body = text[text.index("'") + 1 : -1].replace("''", "'")
            return body or None
        if kind == "q":
            body = text[text.index("'") + 2 : -2]
            return body or None
        if kind == "num":
            return text.rstrip("fFdD")
        if text in ("-", "+"):
            k2, num = self.next()
            if k2 != "num":
                raise NotLiteral("sign before something other than a number")
            return (text + num).lstrip("+").rstrip("fFdD")
        if text == "(":
            v = self.value()
            self.expect(")")
            return v
        if kind != "word":
            raise NotLiteral(f"unexpected {text!r}")
        up = text.upper()
        if up == "NULL":
            return None
        if up in ("DATE", "TIMESTAMP") and self.peek_kind() == "str":
            _, lit = self.next()
            return lit[1:-1]
        if self.peek() != "(":
            raise NotLiteral(f"{text} is not a literal")
        self.i += 1
        args: list[Value] = []
        if self.peek() != ")":
            args.append(self.value())
            while self.peek() == ",":
                self.i += 1
                args.append(self.value())
        self.expect(")")
        return _call(up, args)


def _call(name: str, args: list[Value]) -> Value:
    if name in _FUNCS_DATETIME:
        default, zone = _FUNCS_DATETIME[name]
        if not args or not 1 <= len(args) <= 3 or any(isinstance(a, bytes) for a in args):
            raise NotLiteral(f"{name} with {len(args)} arguments")
        if args[0] is None:
            return None
        mask = args[1] if len(args) > 1 else default
        if not isinstance(mask, str):
            raise NotLiteral(f"{name} with a NULL mask")
        return read_datetime(str(args[0]), mask, zone)
    if name in _PASS_THROUGH and len(args) == 1:
        return args[0]
    if name in ("TO_BLOB", "HEXTORAW") and len(args) == 1:
        if args[0] is None:
            return None
        raw = args[0]
        if isinstance(raw, bytes):
            return raw
        try:
            return bytes.fromhex(raw if len(raw) % 2 == 0 else "0" + raw)
        except ValueError:
            raise BadValue(f"{raw[:40]!r} is not hexadecimal") from None
    if name in ("EMPTY_CLOB", "EMPTY_BLOB") and not args:
        return "" if name == "EMPTY_CLOB" else b""
    if name in ("CHR", "NCHR") and len(args) == 1 and isinstance(args[0], str):
        try:
            code = int(args[0])
        except ValueError:
            raise BadValue(f"CHR({args[0]!r})") from None
        if code <= 0 or code > 0x10FFFF:  # PostgreSQL text cannot hold a NUL character
            raise BadValue(f"CHR({code}) is not a character PostgreSQL text can hold")
        return chr(code)
    raise NotLiteral(f"{name}(...) is not a literal")
