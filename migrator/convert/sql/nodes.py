"""Small tree builders shared by the SQL rewrite modules (sqlglot expression nodes)."""

from __future__ import annotations

from sqlglot import exp

from migrator.convert.context import ConversionContext, unconverted_marker

COMPAT_SCHEMA = "oracompat"


def as_expression(node: exp.Expr) -> exp.Expression:
    """A node sqlglot's API hands back typed as its base class `Expr`: every parsed or rewritten
    node is an `Expression`; anything else is a sqlglot change we must hear about."""
    if not isinstance(node, exp.Expression):
        raise TypeError(f"sqlglot returned a {type(node).__name__}, not an Expression")
    return node


def fn(name: str, *args: exp.Expression) -> exp.Expression:
    """A plain function call printed as written (lower-case name)."""
    return exp.Anonymous(this=name, expressions=[a for a in args if a is not None])


def compat(name: str, *args: exp.Expression) -> exp.Expression:
    """A call into the support library (migrator/convert/oracompat/support.sql). The call node is
    final (a rule for an Oracle function of the same name must not convert it again); the
    arguments are still converted."""
    call = fn(name, *args)
    call.meta["ora_done"] = True
    return exp.Dot(this=exp.to_identifier(COMPAT_SCHEMA), expression=call)


def interval(text: str) -> exp.Interval:
    amount, unit = text.split()
    return exp.Interval(this=exp.Literal.string(amount), unit=exp.var(unit.upper()))


def ts0(node: exp.Expression) -> exp.Expression:
    """Oracle DATE is timestamp(0) in this product."""
    return exp.cast(node, exp.DataType.build("TIMESTAMP(0)", dialect="postgres"))


def paren(node: exp.Expression) -> exp.Expression:
    """Parenthesise compound operands so re-nesting them keeps their meaning."""
    if isinstance(node, (exp.Binary, exp.Unary, exp.Connector)) and not isinstance(node, exp.Dot):
        return exp.Paren(this=node)
    return node


def call_field(node: exp.Dot, ctx: ConversionContext, env) -> exp.Expression | None:
    """``f(args).field`` / ``pkg.f(args).field``: Oracle selects a field of the record or object a
    function returns; PostgreSQL reads ``pkg.f(args).field`` as a name path and refuses it, and
    selects the field of a call's result only in parentheses: ``(pkg.f(args)).field``."""
    if not isinstance(node.expression, exp.Identifier):
        return None
    call = node.this
    if isinstance(call, exp.Func) or (isinstance(call, exp.Dot) and isinstance(call.expression, exp.Func)):
        return exp.Dot(this=exp.Paren(this=call), expression=node.expression)
    return None


def literal_int(node: exp.Expression | None) -> int | None:
    """Integer value of a (possibly negated) numeric literal, else None."""
    if isinstance(node, exp.Neg):
        inner = literal_int(node.this)
        return -inner if inner is not None else None
    if isinstance(node, exp.Literal) and not node.is_string:
        try:
            return int(node.this)
        except ValueError:
            return None
    return None


def literal_str(node: exp.Expression | None) -> str | None:
    return node.this if isinstance(node, exp.Literal) and node.is_string else None


def marker(ctx: ConversionContext, construct: str, node: exp.Expression, message: str) -> exp.Expression:
    """Record an unconverted construct and return a node printing the loud marker."""
    ctx.unconverted(construct, message)
    return exp.var(unconverted_marker(construct, node.sql(dialect="oracle")))


def tag(node: exp.Expression, kind: str | None) -> exp.Expression:
    """Remember the Oracle type of a rewritten node (its new shape may no longer reveal it)."""
    if kind:
        node.meta["ora_kind"] = kind
    return node


def empty_text() -> exp.Expression:
    """A real '' for PostgreSQL (exempt from the ''-is-NULL rewrite)."""
    lit = exp.Literal.string("")
    lit.meta["ora_done"] = True
    return lit
