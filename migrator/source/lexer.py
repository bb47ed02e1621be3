"""A linear, offset-keeping tokenizer for Oracle SQL and PL/SQL text as SQL*Plus reads it.

The reader (`migrator.source.sqlplus`) and the dependency analysis (`migrator.source.dependencies`) both need to
know what is code and what is a string, a quoted identifier or a comment. Every token keeps its
offsets, so the exact input can always be sliced back out; nothing here rewrites text.

Each step is one anchored regular-expression match at the current position plus, for strings
and comments, a `str.find` for the closing delimiter, so a file is read in one pass with no
backtracking across it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from migrator.source.identifiers import fold

# Token kinds.
WS = "ws"
LINE_COMMENT = "line_comment"
BLOCK_COMMENT = "block_comment"
STRING = "string"
QIDENT = "qident"
WORD = "word"
NUMBER = "number"
SYMBOL = "symbol"
# An opening delimiter with no closing one before the end of the text; the token runs to the end.
UNTERMINATED = "unterminated"

COMMENT_KINDS = frozenset({LINE_COMMENT, BLOCK_COMMENT})
TRIVIA_KINDS = frozenset({WS, LINE_COMMENT, BLOCK_COMMENT})

# q-quote delimiters that close with their mirror image; any other character closes with itself.
_Q_CLOSE = {"[": "]", "(": ")", "{": "}", "<": ">"}

_TOKEN = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<line_comment>--[^\n]*)
  | (?P<block_comment>/\*)
  | (?P<qstring>[nN]?[qQ]')
  | (?P<string>[nN]?')
  | (?P<qident>")
  | (?P<word>[^\W\d][\w$#]*)
  | (?P<number>(?:\d+(?:\.(?!\.)\d*)?|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?)
  | (?P<symbol>:=|=>|\|\||<>|!=|\^=|~=|<=|>=|\.\.|\*\*|<<|>>|.)
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class Token:
    kind: str
    start: int
    end: int
    # For UNTERMINATED tokens: what was left open ("string", "comment", "identifier").
    detail: str = ""

    def text(self, source: str) -> str:
        return source[self.start : self.end]


def iter_tokens(text: str, start: int = 0, end: int | None = None) -> Iterator[Token]:
    """Yield every token of text[start:end], trivia included, in order and without gaps."""
    stop = len(text) if end is None else end
    pos = start
    match = _TOKEN.match
    while pos < stop:
        m = match(text, pos, stop)
        kind = m.lastgroup
        if kind in (WS, LINE_COMMENT, WORD, NUMBER, SYMBOL):
            yield Token(kind, pos, m.end())
            pos = m.end()
        else:
            token = _delimited(text, pos, m.end(), stop, kind)
            yield token
            pos = token.end


def _delimited(text: str, start: int, body: int, stop: int, kind: str) -> Token:
    """A string, q-string, quoted identifier or block comment opened at `start`."""
    if kind == "block_comment":
        close = text.find("*/", body, stop)
        if close < 0:
            return Token(UNTERMINATED, start, stop, "comment")
        return Token(BLOCK_COMMENT, start, close + 2)
    if kind == "qident":
        return _quoted_identifier(text, start, body, stop)
    if kind == "qstring":
        return _q_string(text, start, body, stop)
    return _plain_string(text, start, body, stop)


def _quoted_identifier(text: str, start: int, pos: int, stop: int) -> Token:
    # `""` inside is an escaped quote (PostgreSQL's rule; Oracle forbids `"` in names): the name
    # is read whole, never cut short at the inner quote (migrator.source.identifiers).
    while True:
        close = text.find('"', pos, stop)
        if close < 0:
            return Token(UNTERMINATED, start, stop, "identifier")
        if close + 1 < stop and text[close + 1] == '"':
            pos = close + 2
            continue
        return Token(QIDENT, start, close + 1)


def _plain_string(text: str, start: int, pos: int, stop: int) -> Token:
    while True:
        close = text.find("'", pos, stop)
        if close < 0:
            return Token(UNTERMINATED, start, stop, "string")
        if close + 1 < stop and text[close + 1] == "'":  # '' is an escaped quote
            pos = close + 2
            continue
        return Token(STRING, start, close + 1)


def _q_string(text: str, start: int, pos: int, stop: int) -> Token:
    if pos >= stop:
        return Token(UNTERMINATED, start, stop, "string")
    opener = text[pos]
    closer = _Q_CLOSE.get(opener, opener) + "'"
    close = text.find(closer, pos + 1, stop)
    if close < 0:
        return Token(UNTERMINATED, start, stop, "string")
    return Token(STRING, start, close + 2)


def code_tokens(text: str, start: int = 0, end: int | None = None) -> Iterator[Token]:
    """Tokens that are not whitespace or comments."""
    for token in iter_tokens(text, start, end):
        if token.kind not in TRIVIA_KINDS:
            yield token


def normalize_identifier(raw: str) -> str:
    """The plain name of an identifier token (Oracle's folding rules: `migrator.source.identifiers.fold`)."""
    return fold(raw)
