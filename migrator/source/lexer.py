"""The one Oracle lexer: SQL, PL/SQL and SQL*Plus text as Oracle reads it, offsets kept.

Every reader of Oracle text uses this one token type: the statement splitter
(`migrator.source.sqlplus`), the head reader (`statement_kind`), the dependency scan, the DDL rules
(`migrator.convert.ddl.tokens` adds helpers over it) and the PL/SQL parser. A token keeps its exact
text and offsets, so any piece of the input can be sliced back out; nothing here rewrites text.

Two ways to read:

* `iter_tokens(text)`: every token, whitespace and comments included, in order and without gaps
  (their texts concatenate to the input). An opening delimiter that never closes gives one
  UNTERMINATED token running to the end, and any other character is at worst a one-character OP:
  the splitter must account for every character of a script, good or bad.
* `tokenize(text)`: the code tokens of one statement or unit, where bad input is a LexError: an
  unterminated string, quoted identifier or comment, or a character that is no part of Oracle's
  syntax outside strings (`$`, `#`, a lone `:`, `~`, `\\`, a backtick...).

Oracle's rules followed: q-quotes `q'[...]'` (and `nq'...'`; `[ ( { <` close with their mirror,
any other delimiter with itself); strings with `''` escapes; quoted identifiers in which `""` is
read as part of the name (PostgreSQL's escape; Oracle forbids `"` in names,
`migrator.source.identifiers`); unquoted identifiers start with a letter of any script and go on
with letters, digits, `_`, `$` and `#`; `1..5` is a number, the range operator and a number;
binds `:name` / `:1` are one token; `--` and `/* */` comments; a `/` alone on its line ends a
statement or block in SQL*Plus (`is_slash_line`).

Each step is one anchored regular-expression match at the current position plus, for strings
and comments, a `str.find` for the closing delimiter: one pass, no backtracking across the text.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from contextlib import contextmanager
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
BIND = "bind"
OP = "op"
# An opening delimiter with no closing one before the end of the text; the token runs to the end.
UNTERMINATED = "unterminated"
EOF = "eof"  # appended by tokenize(eof=True), for parsers that look one token ahead

COMMENT_KINDS = frozenset({LINE_COMMENT, BLOCK_COMMENT})
TRIVIA_KINDS = frozenset({WS, LINE_COMMENT, BLOCK_COMMENT})
NAME_KINDS = frozenset({WORD, QIDENT})

# q-quote delimiters that close with their mirror image; any other character closes with itself.
_Q_CLOSE = {"[": "]", "(": ")", "{": "}", "<": ">"}
_MULTI_OPS = r"<<|>>|<>|!=|\^=|~=|<=|>=|\|\||:=|=>|\.\.|\*\*"
# The one-character operators of SQL and PL/SQL; tokenize refuses any other character.
ORACLE_OPS = frozenset("-+*/%=<>(),;.@[]{}|&!^?")

_TOKEN = re.compile(
    rf"""
    (?P<ws>\s+)
  | (?P<line_comment>--[^\n]*)
  | (?P<block_comment>/\*)
  | (?P<qstring>[nN]?[qQ]')
  | (?P<string>[nN]?')
  | (?P<qident>")
  | (?P<bind>:(?:[^\W\d][\w$#]*|\d+))
  | (?P<word>[^\W\d][\w$#]*)
  | (?P<number>(?:\d+(?:\.(?!\.)\d*)?|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?)
  | (?P<op>{_MULTI_OPS}|.)
    """,
    re.VERBOSE | re.DOTALL,
)
_SIMPLE = frozenset({WS, LINE_COMMENT, BIND, WORD, NUMBER, OP})


# Not frozen: a frozen dataclass is five times slower to build, and every character of every
# script goes through here. Nothing changes a token once made.
@dataclass(slots=True)
class Token:
    kind: str
    text: str
    start: int
    end: int
    # For UNTERMINATED tokens: what was left open ("string", "comment", "identifier").
    detail: str = ""

    @property
    def upper(self) -> str:
        """A word in upper case (keywords compare this way); any other token as written."""
        return self.text.upper() if self.kind == WORD else self.text

    def is_word(self, *words: str) -> bool:
        """A bare word (keyword or unquoted name) that is one of `words` (given in upper case)."""
        return self.kind == WORD and self.text.upper() in words

    def is_op(self, *ops: str) -> bool:
        return self.kind == OP and self.text in ops


class LexError(ValueError):
    """Text that is not Oracle SQL or PL/SQL: the message says what and at which offset."""


def iter_tokens(text: str, start: int = 0, end: int | None = None) -> Iterator[Token]:
    """Yield every token of text[start:end], trivia included, in order and without gaps."""
    stop = len(text) if end is None else end
    pos = start
    match = _TOKEN.match
    while pos < stop:
        m = match(text, pos, stop)
        # the last alternative ('.' in OP) matches any character, so a match always has its group
        assert m is not None and m.lastgroup is not None
        kind = m.lastgroup
        if kind in _SIMPLE:
            yield Token(kind, m.group(), pos, m.end())
            pos = m.end()
        else:
            token = _delimited(text, pos, m.end(), stop, kind)
            yield token
            pos = token.end


def _delimited(text: str, start: int, body: int, stop: int, kind: str) -> Token:
    """A string, q-string, quoted identifier or block comment opened at `start`."""
    if kind == "block_comment":
        close = text.find("*/", body, stop)
        return _closed(BLOCK_COMMENT, text, start, close + 2 if close >= 0 else -1, stop, "comment")
    if kind == "qident":
        return _closed(QIDENT, text, start, _doubled_close(text, body, stop, '"'), stop, "identifier")
    if kind == "qstring":
        close = -1
        if body < stop:
            closer = _Q_CLOSE.get(text[body], text[body]) + "'"
            found = text.find(closer, body + 1, stop)
            close = found + 2 if found >= 0 else -1
        return _closed(STRING, text, start, close, stop, "string")
    return _closed(STRING, text, start, _doubled_close(text, body, stop, "'"), stop, "string")


def _doubled_close(text: str, pos: int, stop: int, quote: str) -> int:
    """End (exclusive) of a quoted run from `pos` in which a doubled quote is an escaped one; -1 if
    it never closes."""
    while True:
        close = text.find(quote, pos, stop)
        if close < 0:
            return -1
        if close + 1 < stop and text[close + 1] == quote:
            pos = close + 2
            continue
        return close + 1


def _closed(kind: str, text: str, start: int, end: int, stop: int, what: str) -> Token:
    if end < 0:
        return Token(UNTERMINATED, text[start:stop], start, stop, what)
    return Token(kind, text[start:end], start, end)


# The same tokens as _TOKEN, for the readers that skip the trivia (`code_tokens`, `code_texts`,
# `tokenize`: no Token is made for whitespace or a comment, about half of all tokens). Strings,
# q-strings, quoted identifiers and block comments match whole when they close; the `open_*`
# alternatives catch only an opening delimiter that never closes. Possessive repeats (`*+`, `++`)
# keep an escaped quote (`''`, `""`) from being read back as a closing one; a q-quote opened by
# `[ ( { <` closes only with its mirror (the generic `qd` branch excludes those four). Tests
# compare every reader with `iter_tokens`.
#
# The regex tries the alternatives in order at each position, so the commonest tokens are tried
# early: a word not followed by `'` (`bare_word`: then no string prefix n/q/nq can start there,
# and the `word` branch below would match the same letters), and the one-character operators that
# begin no longer token (`plain_op`). Words and operators were tried after eleven alternatives
# before; the match loop takes 30 % less time, and every token is the same.
_WHOLE_TOKEN = re.compile(
    rf"""
    (?P<ws>\s+)
  | (?P<bare_word>[^\W\d][\w$#]*+)(?!')
  | (?P<plain_op>[(),;])
  | (?P<line_comment>--[^\n]*)
  | (?P<block_comment>/\*.*?\*/)
  | (?P<open_block_comment>/\*)
  | (?P<qstring>[nN]?[qQ]'(?:\[.*?\]|\(.*?\)|\{{.*?\}}|<.*?>|(?P<qd>[^\[({{<]).*?(?P=qd))')
  | (?P<open_qstring>[nN]?[qQ]')
  | (?P<string>[nN]?'(?:[^']++|'')*+')
  | (?P<open_string>[nN]?')
  | (?P<qident>"(?:[^"]++|"")*+")
  | (?P<open_qident>")
  | (?P<bind>:(?:[^\W\d][\w$#]*|\d+))
  | (?P<word>[^\W\d][\w$#]*)
  | (?P<number>(?:\d+(?:\.(?!\.)\d*)?|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?)
  | (?P<op>{_MULTI_OPS}|.)
    """,
    re.VERBOSE | re.DOTALL,
)
_CODE_KIND = {
    "bare_word": WORD,
    "plain_op": OP,
    "qstring": STRING,
    "string": STRING,
    "qident": QIDENT,
    "bind": BIND,
    "word": WORD,
    "number": NUMBER,
    "op": OP,
}
_UNCLOSED = {
    "open_block_comment": "comment",
    "open_qstring": "string",
    "open_string": "string",
    "open_qident": "identifier",
}


def code_tokens(text: str, start: int = 0, end: int | None = None) -> Iterator[Token]:
    """Tokens that are not whitespace or comments: those of `iter_tokens`, read with
    `_WHOLE_TOKEN` so that no Token is made for the trivia (a test compares the two)."""
    for kind, s, e, detail in code_spans(text, start, end):
        yield Token(kind, text[s:e], s, e, detail)


def code_spans(text: str, start: int = 0, end: int | None = None) -> Iterator[tuple[str, int, int, str]]:
    """(kind, start, end, detail) of each of `code_tokens(text, start, end)`, without building the
    Token: for the statement splitter, which looks at most tokens' kind only (every script goes
    through it; making a Token per code token was half its time)."""
    stop = len(text) if end is None else end
    code = _CODE_KIND
    for m in _WHOLE_TOKEN.finditer(text, start, stop):
        group = m.lastgroup
        kind = code.get(group)  # type: ignore[arg-type]
        if kind is not None:
            s, e = m.span()
            yield kind, s, e, ""
        elif group in _UNCLOSED:  # never closes: one UNTERMINATED token to the end
            yield UNTERMINATED, m.start(), stop, _UNCLOSED[group]
            return


def code_texts(text: str) -> tuple[list[str], list[str]]:
    """(kinds, texts) of `code_tokens(text)`, without building a Token for each: for scans
    that read only those two (the dependency scan reads every unit of a schema)."""
    kinds: list[str] = []
    texts: list[str] = []
    code = _CODE_KIND
    for m in _WHOLE_TOKEN.finditer(text):
        group = m.lastgroup
        kind = code.get(group)  # type: ignore[arg-type]
        if kind is not None:
            kinds.append(kind)
            texts.append(m.group())
        elif group in _UNCLOSED:  # never closes: runs to the end
            kinds.append(UNTERMINATED)
            texts.append(text[m.start() :])
            break
    return kinds, texts


# The last texts tokenized, and their tokens: the readers of one unit each tokenize it on their
# own (a table's text is read by the catalog's column pass and three times by its conversion, a
# quarter of all tokenizing). Callers get their own list; the Tokens are shared, as nothing
# changes a token once made.
_RECENT: dict[tuple[str, bool], list[Token]] = {}
_RECENT_SIZE = 8
_KEEP_ALL = False  # set by keeping_tokens()


@contextmanager
def keeping_tokens() -> Iterator[None]:
    """Within: every text tokenized stays cached, not only the last few. For a whole-schema pass
    whose readers each go over every unit in turn (the catalog: the DDL family's pass and then the
    PL/SQL family's both read each table, so the last-few cache never held a table for the second).
    Afterwards the cache is the last few again."""
    global _KEEP_ALL
    outer, _KEEP_ALL = _KEEP_ALL, True
    try:
        yield
    finally:
        _KEEP_ALL = outer
        if not outer:
            for key in list(_RECENT)[:-_RECENT_SIZE]:
                del _RECENT[key]


def tokenize(text: str, *, eof: bool = False) -> list[Token]:
    """The code tokens of `text` (one statement or unit); LexError for what Oracle would not read.
    With `eof`, a final EOF token at len(text) lets a parser look ahead past the last token.

    The tokens of `iter_tokens` less the trivia, read with `_WHOLE_TOKEN` so that no Token is made
    for whitespace or a comment (a test compares the two)."""
    key = (text, eof)
    tokens = _RECENT.get(key)
    if tokens is None:
        tokens = _tokenize(text, eof)
        if len(_RECENT) >= _RECENT_SIZE and not _KEEP_ALL:
            del _RECENT[next(iter(_RECENT))]
        _RECENT[key] = tokens
    return list(tokens)


def _tokenize(text: str, eof: bool) -> list[Token]:
    tokens: list[Token] = []
    code = _CODE_KIND
    for m in _WHOLE_TOKEN.finditer(text):
        group = m.lastgroup
        kind = code.get(group)  # type: ignore[arg-type]
        if kind is None:
            if group in _UNCLOSED:
                raise LexError(f"unterminated {_UNCLOSED[group]} at offset {m.start()}")
            continue  # whitespace or a comment
        word = m.group()
        if kind == OP and len(word) == 1 and word not in ORACLE_OPS:
            raise LexError(f"unexpected character {word!r} at offset {m.start()}")
        start, end = m.span()
        tokens.append(Token(kind, word, start, end))
    if eof:
        tokens.append(Token(EOF, "", len(text), len(text)))
    return tokens


def normalize_identifier(raw: str) -> str:
    """The plain name of an identifier token (Oracle's folding rules: `migrator.source.identifiers.fold`)."""
    return fold(raw)


def string_value(tok: Token) -> str | None:
    """The character value of a string token (any quoting style), or None for any other token."""
    if tok.kind != STRING:
        return None
    t = tok.text
    quote = t.index("'")
    if t[:quote].lower().endswith("q"):
        return t[quote + 2 : -2]
    return t[quote + 1 : -1].replace("''", "'")


def is_slash_line(text: str, tok: Token) -> bool:
    """A `/` alone on its line: SQL*Plus's terminator of a statement or PL/SQL block."""
    if tok.kind != OP or tok.text != "/":
        return False
    line_start = text.rfind("\n", 0, tok.start) + 1
    line_end = text.find("\n", tok.end)
    return text[line_start : len(text) if line_end < 0 else line_end].strip() == "/"


# -- helpers over token lists ---------------------------------------------------------------------
# (They look at every token of a statement, often of a whole unit: a token's kind is compared
# once, where is_op compared it once per operator looked for.)
def matching_paren(tokens: list[Token], i: int) -> int:
    """Index of the ')' closing the '(' at tokens[i]; LexError when it is never closed."""
    depth = 0
    for j in range(i, len(tokens)):
        t = tokens[j]
        if t.kind == OP:
            if t.text == "(":
                depth += 1
            elif t.text == ")":
                depth -= 1
                if depth == 0:
                    return j
    raise LexError("unbalanced parentheses")


def split_top_level(tokens: list[Token], sep: str = ",") -> list[list[Token]]:
    """Split at `sep` operators outside parentheses: `a, f(b, c)` → [a], [f(b, c)]. Empty input
    gives no parts; empty parts between separators are kept (`a,,b` has three)."""
    if not tokens:
        return []
    parts: list[list[Token]] = [[]]
    depth = 0
    for tok in tokens:
        if tok.kind == OP:
            text = tok.text
            if text == "(":
                depth += 1
            elif text == ")":
                depth -= 1
            if depth == 0 and text == sep:
                parts.append([])
                continue
        parts[-1].append(tok)
    return parts


def find_top_level(tokens: list[Token], *words: str, start: int = 0) -> int | None:
    """Index of the first of `words` (keywords, upper case) outside parentheses, from `start`."""
    depth = 0
    for k in range(start, len(tokens)):
        t = tokens[k]
        if t.kind == OP:
            if t.text == "(":
                depth += 1
            elif t.text == ")":
                depth -= 1
        elif depth == 0 and t.is_word(*words):
            return k
    return None


class LineIndex:
    """Offset → 1-based line number."""

    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]

    def line(self, offset: int) -> int:
        return bisect.bisect_right(self.starts, offset)
