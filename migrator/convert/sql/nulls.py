"""NULL semantics: NVL, NVL2, DECODE, Oracle's '' (which *is* NULL) and NULL-tolerant ``||``.

Oracle treats the empty string as NULL, DECODE matches NULL with NULL, and ``||`` treats NULL as
the empty string; PostgreSQL does none of these, so each needs an explicit rewrite.
"""

from __future__ import annotations

from sqlglot import exp

from migrator.convert.context import ConversionContext
from migrator.convert.sql.nodes import empty_text, paren
from migrator.convert.sql.text import as_text


def nvl(node: exp.Coalesce, ctx: ConversionContext, env) -> exp.Expression | None:
    """NVL(a, b) → COALESCE(a, b). sqlglot prints that itself, so switched off the rule keeps
    Oracle's spelling, which PostgreSQL refuses (as a disabled type rule does)."""
    if not node.args.get("is_nvl"):
        return None
    if not ctx.enabled("expr.nvl"):
        return _as_written("NVL", [node.this, *node.expressions])
    ctx.applied("expr.nvl")
    return None


def nvl2(node: exp.Nvl2, ctx: ConversionContext, env) -> exp.Expression | None:
    if not ctx.enabled("expr.nvl2"):  # sqlglot would print the same CASE: keep Oracle's spelling
        return _as_written("NVL2", [node.this, node.args["true"], node.args.get("false")])
    ctx.applied("expr.nvl2")
    cond = exp.Not(this=exp.Is(this=paren(node.this), expression=exp.Null()))
    return exp.Case(ifs=[exp.If(this=cond, true=node.args["true"])], default=node.args.get("false"))


def _as_written(name: str, args: list) -> exp.Expression:
    return exp.Anonymous(this=name, expressions=[a for a in args if a is not None])


def decode(node: exp.DecodeCase, ctx: ConversionContext, env) -> exp.Expression | None:
    """DECODE(e, s1, r1, ..., default): NULL search values match a NULL ``e``."""
    if not ctx.enabled("expr.decode"):
        return None
    ctx.applied("expr.decode")
    subject, *rest = node.expressions
    ifs = []
    for i in range(0, len(rest) - 1, 2):
        ifs.append(exp.If(this=_decode_match(subject, rest[i]), true=rest[i + 1]))
    default = rest[-1] if len(rest) % 2 else None
    return exp.Case(ifs=ifs, default=default)


def _decode_match(subject: exp.Expression, search: exp.Expression) -> exp.Expression:
    if isinstance(search, exp.Null) or (isinstance(search, exp.Literal) and search.is_string and search.this == ""):
        return exp.Is(this=paren(subject.copy()), expression=exp.Null())
    if isinstance(search, exp.Literal):
        # A literal is never NULL: plain equality keeps index use and matches Oracle.
        return exp.EQ(this=paren(subject.copy()), expression=search)
    return exp.NullSafeEQ(this=paren(subject.copy()), expression=paren(search))


def empty_string(node: exp.Literal, ctx: ConversionContext, env) -> exp.Expression | None:
    """Oracle's '' is NULL (a zero-length VARCHAR2 does not exist)."""
    if node.is_string and node.this == "" and ctx.enabled("expr.empty_string_null"):
        ctx.applied("expr.empty_string_null")
        return exp.Null()
    return None


def concat(node: exp.Expression, ctx: ConversionContext, env) -> exp.Expression | None:
    """``a || b`` (and CONCAT) where NULL counts as ''; the result is NULL only when it is ''.

    PostgreSQL's concat() skips NULL arguments; Oracle's result is NULL exactly when every part
    is NULL or empty, which NULLIF(..., '') restores. When a non-empty literal is among the
    parts the result cannot be empty and the NULLIF is left out. Non-text parts are converted
    the way Oracle converts them implicitly (see expr_text.as_text).
    """
    if not ctx.enabled("expr.concat_null"):
        return None
    parts = _flatten(node)
    parts = [p for p in parts if not (isinstance(p, exp.Literal) and p.is_string and p.this == "")]
    if not parts:
        return exp.Null()
    ctx.applied("expr.concat_null")
    parts = [as_text(p, ctx, env) for p in parts]
    call = exp.Anonymous(this="CONCAT", expressions=parts)
    if any(isinstance(p, exp.Literal) and p.is_string and p.this for p in parts):
        return call
    return exp.Nullif(this=call, expression=empty_text())


def _flatten(node: exp.Expression) -> list[exp.Expression]:
    if isinstance(node, exp.DPipe):
        return _flatten(node.this) + _flatten(node.expression)
    if isinstance(node, exp.Concat):
        return [p for e in node.expressions for p in _flatten(e)]
    return [node]
