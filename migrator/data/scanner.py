"""Statements of a data export, streamed: `statements(stream)` yields each statement's text and
lines while holding only the statement being read (plus one read chunk) in memory.

It is a dedicated splitter, not the project's lexer: a regular expression finds the next `;`
outside strings (`'…'`, `q'[…]'`), quoted names and comments, in C, and a statement is cut
there. SQL*Plus lines as SQL Developer writes them (`REM INSERTING into EMP`, `SET DEFINE OFF;`,
`PROMPT …`) and a `/` line are directives, not statements. This is what lets a table of 200,000
INSERTs (or 200 million) be read without the file, or a unit per row, in memory.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple, TextIO, overload

CHUNK = 1 << 20  # characters read at a time

# What can hide a ';' (a string, a quoted name, a comment), or the ';' itself. The last
# alternative is a construct opened but not closed within the text read so far.
_SPLIT = re.compile(
    r"""(?<![\w$#])[nN]?[qQ]'(?:\[.*?\]|\{.*?\}|<.*?>|\(.*?\)|([^\s(\[{<]).*?\1)'
      | '(?:[^']|'')*'
      | "[^"\n]*"
      | --[^\n]*\n
      | /\*.*?\*/
      | (?P<end>;)
      | (?P<open>(?<![\w$#])[nN]?[qQ]'|'|"|--|/\*)""",
    re.S | re.X,
)
# SQL*Plus commands that hold a line of their own (SET is SQL*Plus unless it is SET TRANSACTION/ROLE/CONSTRAINTS).
_DIRECTIVE = re.compile(
    r"(?:REM(?:ARK)?|PRO(?:MPT)?|SPO(?:OL)?|WHENEVER|SHO(?:W)?|TTITLE|BTITLE|COL(?:UMN)?|@@?|"
    r"SET(?!\s+(?:TRANSACTION|ROLE|CONSTRAINTS?)\b))(?:\b|(?<=@))[^\n]*",
    re.I,
)
_BLANK = re.compile(r"(?:\s+|--[^\n]*(?:\n|$)|/\*.*?\*/)+", re.S)
_SLASH_LINE = re.compile(r"/[ \t]*(?:\n|$)")
_DIRECTIVE_FIRST = frozenset("RrPpSsWwTtBbCc@")
_LOOKAHEAD = 1 << 16  # a directive or comment between statements is read whole before it is matched


@dataclass(frozen=True)
class Statement:
    text: str  # without the ';'
    line: int  # 1-based line of its first character
    end_line: int
    directive: bool = False  # a SQL*Plus line (REM, SET, PROMPT, '/'), not SQL
    terminated: bool = True  # False: the text ended before its ';' (the last statement of a script)


class RowMatch(NamedTuple):
    """A statement matched whole by the caller's `fast` expression (its text: `match.group()`, with the ';')."""

    match: re.Match[str]
    line: int
    end_line: int


class ScanError(Exception):
    """The text ends inside a string, quoted name or comment (the statement is reported at `line`)."""

    def __init__(self, message: str, line: int, text: str):
        super().__init__(message)
        self.line, self.text = line, text


@overload
def statements(stream: TextIO | str, fast: None = None, first_line: int = 1) -> Iterator[Statement]: ...
@overload
def statements(stream: TextIO | str, fast: re.Pattern[str], first_line: int = 1) -> Iterator[Statement | RowMatch]: ...


def statements(
    stream: TextIO | str, fast: re.Pattern[str] | None = None, first_line: int = 1
) -> Iterator[Statement | RowMatch]:
    """The statements of a script, in order; a trailing statement without ';' is yielded too.

    `fast`: an expression for the common statement, ending at its ';' (rows.FAST_ROW); a statement
    it matches whole is yielded as its `RowMatch`, with no second look at its text. Statements
    are read ahead of `_LOOKAHEAD` characters, so a statement shorter than that is never cut by
    the end of a read chunk when it is tried."""
    if isinstance(stream, str):
        buf, read = stream, None
    else:
        buf, read = stream.read(CHUNK), stream.read
    pos, line = 0, first_line

    def refill(keep_from: int) -> bool:
        """Drop buf before keep_from and append a chunk; False at the end of the input."""
        nonlocal buf, read
        chunk = read(CHUNK) if read is not None else ""
        if not chunk:
            read = None
            return False
        buf = buf[keep_from:] + chunk
        return True

    while True:
        # between statements: blanks, comments, SQL*Plus lines
        if read is not None and len(buf) - pos < _LOOKAHEAD and refill(pos):
            pos = 0
            continue
        m = _BLANK.match(buf, pos)
        if m is not None:
            line += buf.count("\n", pos, m.end())
            pos = m.end()
            continue
        if pos >= len(buf):
            return
        if buf[pos] == "/" and (s := _SLASH_LINE.match(buf, pos)):
            yield Statement("/", line, line, directive=True)
            line += buf.count("\n", pos, s.end())
            pos = s.end()
            continue
        if buf[pos] in _DIRECTIVE_FIRST and (d := _DIRECTIVE.match(buf, pos)):
            yield Statement(d.group().rstrip().rstrip(";"), line, line, directive=True)
            pos = d.end()
            continue
        if fast is not None and (f := fast.match(buf, pos)) is not None:
            end_line = line + buf.count("\n", pos, f.end())
            yield RowMatch(f, line, end_line)
            line, pos = end_line, f.end()
            continue
        start, search = pos, pos
        while True:
            m = _SPLIT.search(buf, search)
            if m is not None and m.group("end"):
                text = buf[start : m.start()]
                stripped = text.rstrip()
                yield Statement(stripped, line, line + stripped.count("\n"))
                line += text.count("\n")
                pos = m.end()
                break
            if m is not None and not m.group("open"):
                search = m.end()
                continue
            # no ';' yet, or a string/comment not closed in what was read: read on, keeping the statement
            again = m.start() if m is not None else max(start, len(buf) - 3)
            if refill(start):
                search, start = again - start, 0
                continue
            text = buf[start:]
            if m is not None:
                raise ScanError("the text ends inside a string, quoted name or comment", line, text)
            stripped = text.rstrip()
            yield Statement(stripped, line, line + stripped.count("\n"), terminated=False)
            return
