"""Tokenizer for PL/SQL source: one master regular expression applied left to right (linear time).

Comments and whitespace are skipped. Every token keeps its offsets so that error messages and
unconverted markers can quote the exact original text. Bind variables (``:new``, ``:1``) are one
token so that ``:NEW.col`` in triggers and ``:1`` in dynamic SQL are recognised structurally.
In a quoted identifier ``""`` is an escaped ``"`` (PostgreSQL's rule; Oracle forbids ``"`` in
names): it is read as part of the one name, never as its end (`migrator.source.identifiers`).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

_MASTER = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<comment>--[^\n]*|/\*.*?\*/)
  | (?P<badcomment>/\*)
  | (?P<qstring>[nN]?[qQ]'(?P<qd>.))
  | (?P<string>[nN]?'(?:[^']|'')*')
  | (?P<qident>"(?:[^"]|"")*")
  | (?P<bind>:[A-Za-z_][A-Za-z0-9_$#]*|:\d+)
  | (?P<number>(?:\d+(?:\.(?!\.)\d*)?|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?)
  | (?P<word>[^\W\d][\w$#]*)
  | (?P<op><<|>>|<>|!=|\^=|~=|<=|>=|\|\||:=|=>|\.\.|\*\*|[-+*/%=<>(),;.@\[\]{}|&!^?])
    """,
    re.S | re.X,
)
_Q_CLOSE = {"[": "]", "(": ")", "{": "}", "<": ">"}


@dataclass(slots=True)
class Token:
    kind: str  # word | qident | string | number | bind | op | eof
    text: str
    start: int
    end: int

    @property
    def upper(self) -> str:
        return self.text.upper()

    def is_(self, *words: str) -> bool:
        """True for a bare word (keyword/identifier) matching one of `words` (upper case)."""
        return self.kind == "word" and self.text.upper() in words

    def is_op(self, *ops: str) -> bool:
        return self.kind == "op" and self.text in ops


class LexError(ValueError):
    pass


def tokenize(text: str) -> list[Token]:
    tokens: list[Token] = []
    pos, n = 0, len(text)
    match = _MASTER.match
    while pos < n:
        m = match(text, pos)
        if m is None:
            raise LexError(f"unexpected character {text[pos]!r} at offset {pos}")
        kind = m.lastgroup
        if kind == "qd":  # lastgroup is the inner delimiter group of a q-quoted string
            kind = "qstring"
        if kind == "badcomment":
            raise LexError(f"unterminated /* comment at offset {pos}")
        if kind in ("ws", "comment"):
            pos = m.end()
            continue
        if kind == "qstring":
            end = _q_string_end(text, m.end(), m.group("qd"))
            tokens.append(Token("string", text[pos:end], pos, end))
            pos = end
            continue
        tokens.append(Token(kind, m.group(), pos, m.end()))
        pos = m.end()
    tokens.append(Token("eof", "", n, n))
    return tokens


def _q_string_end(text: str, start: int, delim: str) -> int:
    close = _Q_CLOSE.get(delim, delim)
    end = text.find(close + "'", start)
    if end < 0:
        raise LexError("unterminated q-quoted string")
    return end + 2


def q_string_value(tok_text: str) -> str | None:
    """The content of a string token ('...' or q'[...]'), or None when it is not a string."""
    t = tok_text[1:] if tok_text[:1] in "nN" and len(tok_text) > 1 and tok_text[1] in "'qQ" else tok_text
    if t[:1] in "qQ":
        return t[3:-2]
    if t.startswith("'"):
        return t[1:-1].replace("''", "'")
    return None


class LineIndex:
    """Offset → 1-based line number, for unconverted-construct reports."""

    def __init__(self, text: str):
        self._starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self._starts, offset)
