"""One Oracle tokenizer and parser for the texts that are parsed outside the SQL converter proper
(an argument's type, read from its text): `sqlglot.parse_one(text, read="oracle")` looks the
dialect up and builds a tokenizer and a parser anew for every call, about half of a short
expression's parse. Both reset their state at the start of every call, so reuse gives the same
trees (as `migrator.convert.sql.convert`'s own pair)."""

from __future__ import annotations

from sqlglot import exp
from sqlglot.dialects.dialect import Dialect
from sqlglot.errors import ParseError

_ORACLE = Dialect.get_or_raise("oracle")
_TOKENIZER = _ORACLE.tokenizer()
_PARSER = _ORACLE.parser()


def parse_one(text: str) -> exp.Expr:
    """`sqlglot.parse_one(text, read="oracle")`, with the same result and the same errors."""
    result = _PARSER.parse(_TOKENIZER.tokenize(text), text)
    if not result or result[0] is None:
        raise ParseError(f"No expression was parsed from '{text}'")
    return exp.Block(expressions=result) if len(result) > 1 else result[0]
