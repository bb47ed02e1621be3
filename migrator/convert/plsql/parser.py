"""Recursive-descent parser for PL/SQL units: routines, packages, triggers, anonymous blocks.

Tokens come from the one Oracle lexer (`migrator.source.lexer.tokenize`, with an EOF token to
look ahead past the end). The parser reads the procedural layer only. SQL statements and expressions are delimited by
structure (parentheses and CASE...END nesting, terminating keywords) and kept as token lists.
Every construct is either represented in the tree or returned as `Unsupported` with its tokens,
so the emitter can mark it — nothing is skipped.
"""

from __future__ import annotations

from collections.abc import Set as AbstractSet

from migrator.source.identifiers import fold
from migrator.source.lexer import LineIndex, Token, tokenize

_SQL_START = {"SELECT", "INSERT", "UPDATE", "DELETE", "MERGE", "WITH", "COMMIT", "ROLLBACK", "SAVEPOINT", "LOCK", "SET"}
_BLOCK_END = {"END", "ELSE", "ELSIF", "WHEN", "EXCEPTION"}


class ParseError(ValueError):
    pass


def norm_name(tok: Token) -> str:
    """The plain name of an identifier token (Oracle's folding: `migrator.source.identifiers.fold`);
    quoted with `harness.quoting.quote_ident` when written into PostgreSQL text."""
    return fold(tok.text)


class Parser:
    def __init__(self, text: str):
        self.text = text
        self.toks = tokenize(text, eof=True)
        self.i = 0
        self.lines = LineIndex(text)

    # ---- token helpers -------------------------------------------------------------------
    @property
    def tok(self) -> Token:
        return self.toks[self.i]

    def peek(self, k: int = 1) -> Token:
        return self.toks[min(self.i + k, len(self.toks) - 1)]

    def line(self, tok: Token | None = None) -> int:
        return self.lines.line((tok or self.tok).start)

    def advance(self) -> Token:
        t = self.toks[self.i]
        if t.kind != "eof":
            self.i += 1
        return t

    def accept(self, *words: str) -> bool:
        if self.tok.is_word(*words):
            self.i += 1
            return True
        return False

    def accept_op(self, op: str) -> bool:
        if self.tok.is_op(op):
            self.i += 1
            return True
        return False

    def expect(self, *words: str) -> Token:
        if not self.tok.is_word(*words):
            self.error(f"expected {'/'.join(words)}")
        return self.advance()

    def expect_op(self, op: str) -> Token:
        if not self.tok.is_op(op):
            self.error(f"expected {op!r}")
        return self.advance()

    def error(self, msg: str):
        t = self.tok
        raise ParseError(f"line {self.line(t)}: {msg}, found {t.text or 'end of text'!r}")

    def ident(self) -> str:
        t = self.tok
        if t.kind not in ("word", "qident"):
            self.error("expected an identifier")
        self.advance()
        return norm_name(t)

    def dotted(self) -> tuple[str, ...]:
        """A possibly qualified name as its plain parts (a name may hold '.', so no joined string)."""
        parts = [self.ident()]
        while self.tok.is_op(".") and self.peek().kind in ("word", "qident"):
            self.advance()
            parts.append(self.ident())
        return tuple(parts)

    def scan(
        self, stop_words: AbstractSet[str] = frozenset(), stop_ops: AbstractSet[str] = frozenset({";"})
    ) -> list[Token]:
        """Tokens up to (not including) a stop token at nesting depth 0 (parentheses, CASE..END)."""
        start, depth, case = self.i, 0, 0
        toks = self.toks
        while True:
            t = toks[self.i]
            if t.kind == "eof":
                break
            if depth == 0 and case == 0:
                if t.kind == "op" and t.text in stop_ops:
                    break
                if t.kind == "word" and t.text.upper() in stop_words:
                    break
            if t.kind == "op":
                if t.text == "(":
                    depth += 1
                elif t.text == ")":
                    if depth == 0:
                        break
                    depth -= 1
            elif t.kind == "word":
                u = t.text.upper()
                if u == "CASE":
                    case += 1
                elif u == "END" and case:
                    case -= 1
            self.i += 1
        return toks[start : self.i]

    def paren_contents(self) -> list[Token]:
        self.expect_op("(")
        inner = self.scan(stop_ops=set())
        self.expect_op(")")
        return inner

    def end_name(self) -> None:
        """END [name] ;"""
        self.expect("END")
        if self.tok.kind in ("word", "qident") and not self.tok.is_op(";"):
            self.advance()
        self.accept_op(";")
