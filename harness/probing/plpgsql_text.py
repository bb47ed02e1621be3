"""A scanner for PL/pgSQL body text: where tokens start, on which line, with literals kept whole.

The coverage probes are inserted into routine bodies as text, so positions must be exact and a
probe must never land inside a string ('...', E'...'), a dollar-quoted string, a quoted
identifier or a comment (-- and nested /* */). Statement *structure* comes from PostgreSQL's own
parser (pglast.parse_plpgsql); this module only finds where a statement the parser reported
begins, and where an IF ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# A PL/pgSQL statement starts right after one of these tokens (or at the start of the body).
STATEMENT_STARTERS = frozenset({";", "THEN", "ELSE", "LOOP", "BEGIN", ">>"})

_WORD = re.compile(r"[A-Za-z_\u0080-\uffff][A-Za-z0-9_$\u0080-\uffff]*")
_NUMBER = re.compile(r"\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+")
_DOLLAR = re.compile(r"\$([A-Za-z_\u0080-\uffff][A-Za-z0-9_\u0080-\uffff]*)?\$")
_OPS = ("<<", ">>", ":=", "..", "::", "<=", ">=", "<>", "!=", "||", "=>")


@dataclass(frozen=True)
class PlpgsqlToken:
    text: str
    start: int
    end: int
    line: int  # 1-based line of the token's first character


class ScanError(ValueError):
    """Unterminated string, quoted identifier, dollar quote or comment."""


def scan(text: str) -> list[PlpgsqlToken]:
    tokens: list[PlpgsqlToken] = []
    i, n, line = 0, len(text), 1
    while i < n:
        j = _skip(text, i)
        if j != i:
            line += text.count("\n", i, j)
            i = j
            continue
        j = _token_end(text, i)
        tokens.append(PlpgsqlToken(text[i:j], i, j, line))
        line += text.count("\n", i, j)
        i = j
    return tokens


def _skip(text: str, i: int) -> int:
    """End of whitespace or a comment starting at i (i itself when there is none)."""
    if text[i].isspace():
        while i < len(text) and text[i].isspace():
            i += 1
        return i
    if text.startswith("--", i):
        end = text.find("\n", i)
        return len(text) if end < 0 else end
    if text.startswith("/*", i):
        depth, j = 1, i + 2
        while depth:
            nxt_open, nxt_close = text.find("/*", j), text.find("*/", j)
            if nxt_close < 0:
                raise ScanError("unterminated /* comment")
            if 0 <= nxt_open < nxt_close:
                depth, j = depth + 1, nxt_open + 2
            else:
                depth, j = depth - 1, nxt_close + 2
        return j
    return i


def _token_end(text: str, i: int) -> int:
    c = text[i]
    if c in "eE" and text[i + 1 : i + 2] == "'":
        return _quoted(text, i + 1, "'", backslash=True)
    if c == "'":
        return _quoted(text, i, "'", backslash=False)
    if c == '"':
        return _quoted(text, i, '"', backslash=False)
    m = _DOLLAR.match(text, i)
    if m:
        end = text.find(m.group(0), m.end())
        if end < 0:
            raise ScanError(f"unterminated dollar quote {m.group(0)}")
        return end + len(m.group(0))
    for pattern in (_WORD, _NUMBER):
        m = pattern.match(text, i)
        if m:
            return m.end()
    for op in _OPS:
        if text.startswith(op, i):
            return i + len(op)
    return i + 1


def _quoted(text: str, i: int, quote: str, *, backslash: bool) -> int:
    j = i + 1
    while j < len(text):
        if backslash and text[j] == "\\":
            j += 2
            continue
        if text[j] == quote:
            if text[j + 1 : j + 2] == quote:  # doubled quote: an escaped one
                j += 2
                continue
            return j + 1
        j += 1
    raise ScanError(f"unterminated {quote}-quoted text")


def matching_end_if(tokens: list[PlpgsqlToken], if_index: int) -> int | None:
    """Index of the END of `END IF` closing the IF statement at `if_index`, or None."""
    depth = 0
    for k in range(if_index, len(tokens)):
        word = tokens[k].text.upper()
        if word == "IF" and (k == 0 or tokens[k - 1].text.upper() in STATEMENT_STARTERS):
            depth += 1
        elif word == "END" and k + 1 < len(tokens) and tokens[k + 1].text.upper() == "IF":
            depth -= 1
            if depth == 0:
                return k
    return None


_TYPE_END = {":=", "=", "DEFAULT", "NOT", "COLLATE", ";"}


def plain_declarations(body: str) -> str:
    """`body` with every declared type that names a schema or uses %TYPE/%ROWTYPE spelled `text`
    or `record` (same lines), for parsers that cannot look types up. Cursor and alias
    declarations are left alone."""
    tokens = scan(body)
    out, last, i = [], 0, 0
    while i < len(tokens):
        if tokens[i].text.upper() != "DECLARE":
            i += 1
            continue
        i += 1
        while i < len(tokens) and tokens[i].text.upper() != "BEGIN":
            end = _declaration_end(tokens, i)
            span = _declared_type(tokens, i, end)
            if span is not None:
                first, stop = span
                start, finish = tokens[first].start, tokens[stop - 1].end
                # a column's %TYPE is a scalar; a row type or a named type is most often composite
                plain = "text" if tokens[stop - 1].text.upper() == "TYPE" else "record"
                out.append(body[last:start] + plain + "\n" * body.count("\n", start, finish))
                last = finish
            i = end + 1
    return "".join(out) + body[last:]


def _declaration_end(tokens: list[PlpgsqlToken], i: int) -> int:
    depth = 0
    while i < len(tokens):
        text = tokens[i].text
        depth += (text == "(") - (text == ")")
        if text == ";" and depth == 0:
            return i
        i += 1
    return i


def _declared_type(tokens: list[PlpgsqlToken], start: int, end: int) -> tuple[int, int] | None:
    words = [t.text.upper() for t in tokens[start:end]]
    if len(words) < 2 or "CURSOR" in words[:3] or "ALIAS" in words[:3] or words[1] == "RECORD":
        return None
    first = start + (2 if words[1] == "CONSTANT" else 1)
    stop = first
    while stop < end and tokens[stop].text.upper() not in _TYPE_END:
        stop += 1
    texts = {t.text for t in tokens[first:stop]}
    return (first, stop) if stop > first and ("." in texts or "%" in texts) else None
