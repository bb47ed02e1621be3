"""Helpers the DDL converters share over the one Oracle lexer (`migrator.source.lexer`).

sqlglot's Oracle DDL support is partial (it rejects STORAGE clauses, loses physical attributes
silently, and cannot read many TYPE/SYNONYM/GRANT forms), so DDL structure is read from the
lexer's tokens; SQL expressions inside DDL (defaults, checks, view queries) still go through
`migrator.convert.sql.convert`. Tokens keep their offsets, so any piece of the original text can be
sliced back out exactly (expressions are re-read from the source, never re-assembled from tokens).
"""

from __future__ import annotations

from harness.quoting import qualified
from migrator.source.identifiers import fold, oracle_text
from migrator.source.lexer import Token


def dollar_tag(body: str, base: str = "fn") -> str:
    """A dollar-quote tag ($fn$, $fn1$, ...) that does not occur in `body`, so no text inside the
    body (a name holding '$fn$', say) can end the quoted string early."""
    tag, n = f"${base}$", 0
    while tag in body:
        n += 1
        tag = f"${base}{n}$"
    return tag


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
