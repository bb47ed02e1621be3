"""A small tokenizer for Oracle DDL text, with the helpers the DDL converters share.

sqlglot's Oracle DDL support is partial (it rejects STORAGE clauses, loses physical attributes
silently, and cannot read many TYPE/SYNONYM/GRANT forms), so DDL structure is read from tokens
here; SQL expressions inside DDL (defaults, checks, view queries) still go through
`migrator.convert.sql.convert`. Tokens keep their offsets, so any piece of the original text can be sliced
back out exactly (expressions are re-read from the source, never re-assembled from tokens).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.quoting import qualified
from migrator.source.identifiers import fold, oracle_text

_Q_CLOSE = {"[": "]", "(": ")", "{": "}", "<": ">"}
# Letters in any script, as Oracle allows in unquoted names (CAFÉ); folded like ASCII ones.
_WORD = re.compile(r"(?:[^\W\d]|[$#])[\w$#]*")
_NUMBER = re.compile(r"(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?[fFdD]?")
_OPS = ("<>", "!=", "^=", "<=", ">=", "||", ":=", "=>", "..", "**")


@dataclass(frozen=True)
class Token:
    kind: str  # word | qident | string | number | op
    text: str
    start: int
    end: int

    @property
    def upper(self) -> str:
        return self.text.upper() if self.kind == "word" else self.text

    def is_word(self, *words: str) -> bool:
        return self.kind == "word" and self.text.upper() in words


class LexError(ValueError):
    pass


def tokenize(text: str) -> list[Token]:
    """Split Oracle SQL into tokens; comments and whitespace are skipped."""
    tokens: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif text.startswith("--", i):
            nl = text.find("\n", i)
            i = n if nl < 0 else nl + 1
        elif text.startswith("/*", i):
            end = text.find("*/", i + 2)
            if end < 0:
                raise LexError("unterminated /* comment")
            i = end + 2
        else:
            tok = _read_token(text, i)
            tokens.append(tok)
            i = tok.end
    return tokens


def _read_token(text: str, i: int) -> Token:
    c = text[i]
    if c in "qQnN" and text[i + 1 : i + 2] == "'" or c in "nN" and text[i + 1 : i + 3].lower() == "q'":
        return _read_string(text, i)
    if c == "'":
        return _read_string(text, i)
    if c == '"':
        return _read_quoted_identifier(text, i)
    m = _NUMBER.match(text, i)
    if m and (c.isdigit() or c == "."):
        return Token("number", m.group(), i, m.end())
    m = _WORD.match(text, i)
    if m:
        return Token("word", m.group(), i, m.end())
    for op in _OPS:
        if text.startswith(op, i):
            return Token("op", op, i, i + len(op))
    return Token("op", c, i, i + 1)


def _read_quoted_identifier(text: str, i: int) -> Token:
    # `""` inside is an escaped quote (PostgreSQL's rule; Oracle forbids `"` in names): read as
    # part of the one name, never as its end (migrator.source.identifiers).
    end = i + 1
    while True:
        end = text.find('"', end)
        if end < 0:
            raise LexError("unterminated quoted identifier")
        if text[end + 1 : end + 2] != '"':
            return Token("qident", text[i : end + 1], i, end + 1)
        end += 2


def _read_string(text: str, i: int) -> Token:
    """'...' with '' escapes, N'...', and q'X...X' / nq'X...X' alternative quoting."""
    j = i
    while text[j] != "'":
        j += 1
    if text[i:j].lower().endswith("q"):
        delim = text[j + 1 : j + 2]
        close = _Q_CLOSE.get(delim, delim)
        end = text.find(close + "'", j + 2)
        if not delim or end < 0:
            raise LexError("unterminated q-quoted string")
        return Token("string", text[i : end + 2], i, end + 2)
    k = j + 1
    while True:
        k = text.find("'", k)
        if k < 0:
            raise LexError("unterminated string literal")
        if text[k + 1 : k + 2] == "'":
            k += 2
            continue
        return Token("string", text[i : k + 1], i, k + 1)


def string_value(tok: Token) -> str:
    """The character value of a string token (any quoting style)."""
    t = tok.text
    j = t.index("'")
    if t[:j].lower().endswith("q"):
        return t[j + 2 : -2]
    return t[j + 1 : -1].replace("''", "'")


def pg_string(value: str) -> str:
    """A standard-conforming PostgreSQL string literal."""
    return "'" + value.replace("'", "''") + "'"


def dollar_tag(body: str, base: str = "fn") -> str:
    """A dollar-quote tag ($fn$, $fn1$, ...) that does not occur in `body`, so no text inside the
    body (a name holding '$fn$', say) can end the quoted string early."""
    tag, n = f"${base}$", 0
    while tag in body:
        n += 1
        tag = f"${base}{n}$"
    return tag


def matching_paren(tokens: list[Token], i: int) -> int:
    """Index of the ')' closing the '(' at tokens[i]."""
    depth = 0
    for j in range(i, len(tokens)):
        if tokens[j].text == "(" and tokens[j].kind == "op":
            depth += 1
        elif tokens[j].text == ")" and tokens[j].kind == "op":
            depth -= 1
            if depth == 0:
                return j
    raise LexError("unbalanced parentheses")


def split_top(tokens: list[Token], sep: str = ",") -> list[list[Token]]:
    """Split a token list at `sep` tokens that are not inside parentheses."""
    parts: list[list[Token]] = [[]]
    depth = 0
    for tok in tokens:
        if tok.kind == "op" and tok.text == "(":
            depth += 1
        elif tok.kind == "op" and tok.text == ")":
            depth -= 1
        if depth == 0 and tok.kind == "op" and tok.text == sep:
            parts.append([])
        else:
            parts[-1].append(tok)
    return [p for p in parts if p]


def source(text: str, tokens: list[Token]) -> str:
    """The exact original text spanned by tokens (comments inside are kept)."""
    if not tokens:
        return ""
    return text[tokens[0].start : tokens[-1].end]


def ident(tok: Token) -> str:
    """The plain name of an identifier token (Oracle's folding: `migrator.source.identifiers.fold`);
    quote it with `harness.quoting.quote_ident` when writing it into SQL."""
    return fold(tok.text)


class Name(tuple):
    """A possibly qualified name as its plain parts (schema, object[, column]).

    `.sql` is the text to write into SQL, each part quoted on its own; str() gives the same, so
    a Name pasted into text by mistake is still a safe identifier."""

    @property
    def sql(self) -> str:
        return qualified(*self)

    @property
    def oracle(self) -> str:
        """Oracle text that reads back as this name (for Oracle SQL built to be parsed again)."""
        return ".".join(oracle_text(p) for p in self)

    @property
    def last(self) -> str:
        return self[-1]

    def __str__(self) -> str:
        return self.sql

    def __format__(self, spec: str) -> str:
        return format(self.sql, spec)


def read_name(tokens: list[Token], i: int) -> tuple[Name, int]:
    """A possibly qualified name (a.b.c) starting at tokens[i]; returns (name, next)."""
    parts = [ident(tokens[i])]
    i += 1
    while i + 1 < len(tokens) and tokens[i].text == "." and tokens[i + 1].kind in ("word", "qident"):
        parts.append(ident(tokens[i + 1]))
        i += 2
    return Name(parts), i
