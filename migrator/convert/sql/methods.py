"""Object type methods called in SQL (views, queries, DML, SQL inside PL/SQL): rule expr.object_method.

Oracle Database Object-Relational Developer's Guide, "Using Object Types in SQL" → "Invoking
Member Methods": a MEMBER method is invoked on an instance with dot notation — a column through
its table alias (``w.balance.in_cents()``), a constructor (``money_t(2.5, 'EUR').in_cents()``) or
``TREAT(x AS t).m()`` — in a select list, WHERE, ORDER BY; a STATIC method on the type
(``money_t.zero()``). The TYPE BODY becomes functions ``<type>__<method>(self <type>, ...)``
(`plsql/emit_unit.py`; in a hierarchy the dispatcher of that name, `type_hierarchy`), so the call is
``schema.<type>__<method>(receiver, args)`` (NULL for an atomically NULL receiver): PostgreSQL would read ``w.balance.in_cents`` as a
cross-database reference and ``(ROW(...)::t).in_cents()`` is no syntax at all.
"""

from __future__ import annotations

from sqlglot import exp

from migrator.convert import type_hierarchy as hier
from migrator.convert.context import CatalogEntry, ConversionContext
from migrator.convert.schema_model import ObjectType
from migrator.convert.sql import implicit
from migrator.source.identifiers import fold

_INSTANCE = ("MEMBER", "MAP", "ORDER")


def method_call(node: exp.Dot, ctx: ConversionContext, env) -> exp.Expression | None:
    """``receiver.method(args)`` for a method of a schema-level object type → its function."""
    call = node.expression
    if not isinstance(call, exp.Anonymous) or not isinstance(call.this, str):
        return None
    receiver = node.this
    entry, static = _receiver_type(receiver, ctx, env)
    if entry is None:
        return None
    key = (entry.schema, entry.name)
    routines = (hier.methods(ctx.catalog, key) if hier.in_hierarchy(ctx.catalog, key) else entry.methods).get(
        fold(call.this), []
    )
    wanted = ("STATIC",) if static else _INSTANCE
    if not any(r.flavour in wanted for r in routines):
        return None
    if not ctx.enabled("expr.object_method"):
        return None
    ctx.applied("expr.object_method")
    args = list(call.expressions) if static else [receiver.copy(), *call.expressions]
    out = exp.Anonymous(this=f"{entry.name}__{fold(call.this)}", expressions=args)
    out.meta["ora_done"] = True  # the function is final; its arguments are still converted
    done = exp.Dot(this=exp.to_identifier(entry.schema), expression=out)
    if static or _constructed(receiver):
        return done
    # In SQL a method of an atomically NULL instance is not invoked: the call is NULL (PL/SQL
    # raises SELF_IS_NULL instead). IS NOT DISTINCT FROM NULL is true for that instance only, not
    # for one whose attributes are all NULL (which IS NULL would also take).
    is_null = exp.NullSafeEQ(this=receiver.copy(), expression=exp.Null())
    return exp.Case(ifs=[exp.If(this=is_null, true=exp.Null())], default=done)


def map_compare(node: exp.Expression, ctx: ConversionContext, env) -> exp.Expression | None:
    """``a < b`` of two instances of an object type with a MAP or ORDER method: Oracle compares
    their MAP values (``t__m(a) < t__m(b)``), or the ORDER method's sign (``t__m(a, b) < 0``);
    PostgreSQL would compare the composites attribute by attribute (Object-Relational Developer's
    Guide, "Comparing Objects": MAP and ORDER methods)."""
    left, right = (_ordering(x, ctx, env) for x in (node.this, node.expression))
    if left is None or right is None or (left[0].schema, left[0].name) != (right[0].schema, right[0].name):
        return None
    entry, method = left
    if not ctx.enabled("expr.object_method"):
        return None
    ctx.applied("expr.object_method")
    a, b = node.this, node.expression
    if method.flavour == "ORDER":
        sides = [_unless_null([a, b], _call(entry, method.name, [a.copy(), b.copy()])), exp.Literal.number(0)]
    else:
        sides = [_unless_null([x], _call(entry, method.name, [x.copy()])) for x in (a, b)]
    node.set("this", sides[0])
    node.set("expression", sides[1])
    return node


def map_order_by(node: exp.Ordered, ctx: ConversionContext, env) -> exp.Expression | None:
    """``ORDER BY obj`` of an object type with a MAP method: by its MAP value."""
    found = _ordering(node.this, ctx, env)
    if found is None or found[1].flavour != "MAP" or not ctx.enabled("expr.object_method"):
        return None
    ctx.applied("expr.object_method")
    node.set("this", _unless_null([node.this], _call(found[0], found[1].name, [node.this.copy()])))
    return node


def _ordering(node: exp.Expression, ctx: ConversionContext, env):
    """(type entry, its MAP or ORDER method) of an object instance, else None."""
    entry, static = _receiver_type(node, ctx, env)
    if entry is None or static:
        return None
    key = (entry.schema, entry.name)
    methods = hier.methods(ctx.catalog, key) if hier.in_hierarchy(ctx.catalog, key) else entry.methods
    found = [r for rs in methods.values() for r in rs if r.flavour in ("MAP", "ORDER") and r.block is not None]
    return (entry, found[0]) if len(found) == 1 else None


def _unless_null(receivers: list[exp.Expression], call: exp.Expression) -> exp.Expression:
    """NULL where a receiver is an atomically NULL instance (SQL does not invoke its method)."""
    tests = [exp.NullSafeEQ(this=r.copy(), expression=exp.Null()) for r in receivers if not _constructed(r)]
    if not tests:
        return call
    cond = tests[0] if len(tests) == 1 else exp.Or(this=tests[0], expression=tests[1])
    return exp.Case(ifs=[exp.If(this=cond, true=exp.Null())], default=call)


def _call(entry: CatalogEntry, method: str, args: list[exp.Expression]) -> exp.Expression:
    out = exp.Anonymous(this=f"{entry.name}__{fold(method)}", expressions=args)
    out.meta["ora_done"] = True
    return exp.Dot(this=exp.to_identifier(entry.schema), expression=out)


def _constructed(node: exp.Expression) -> bool:
    while isinstance(node, exp.Paren):
        node = node.this
    return isinstance(node, exp.Anonymous) and isinstance(node.this, str) and node.this.upper() != "TREAT"


def _receiver_type(node: exp.Expression, ctx: ConversionContext, env) -> tuple[CatalogEntry | None, bool]:
    """The object type of a method call's receiver and whether the receiver is the type itself
    (a STATIC call), from the original (unconverted) receiver."""
    while isinstance(node, exp.Paren):
        node = node.this
    if isinstance(node, exp.Dot) and isinstance(node.expression, exp.Anonymous):
        return _returned(node, ctx, env), False  # a call: a static method or a routine of the export
    if isinstance(node, exp.Anonymous) and isinstance(node.this, str):
        if (found := _returned(node, ctx, env)) is not None:
            return found, False
        if node.this.upper() == "TREAT" and node.expressions and isinstance(node.expressions[0], exp.Alias):
            return _object(ctx, [node.expressions[0].alias]), False
        return _object(ctx, [node.this]), False  # a constructor
    if isinstance(node, exp.Cast):
        return _object(ctx, [node.to.sql(dialect="oracle")]), False
    if (
        isinstance(node, exp.Dot)
        and isinstance(node.this, exp.Identifier)
        and isinstance(node.expression, exp.Identifier)
    ):
        col = exp.Column(this=node.expression.copy(), table=node.this.copy())
    elif isinstance(node, exp.Identifier):
        col = exp.Column(this=node.copy())
    elif isinstance(node, exp.Column):
        col = node
    else:
        return None, False
    spelling = env.oracle_type(col)
    if spelling:
        return _object(ctx, spelling.split(".")), False
    if not col.table:  # no column of that name: the type itself (a STATIC method)
        return _object(ctx, [col.name]), True
    return None, False


def _returned(node: exp.Expression, ctx: ConversionContext, env) -> CatalogEntry | None:
    """The object type a call returns: a STATIC method of a type (``t.m(...)``), or a routine of
    the export whose signatures all return one type."""
    if isinstance(node, exp.Dot) and isinstance(node.this, exp.Identifier):
        owner, _ = _receiver_type(node.this, ctx, env)
        if owner is not None:
            key = (owner.schema, owner.name)
            methods = hier.methods(ctx.catalog, key) if hier.in_hierarchy(ctx.catalog, key) else owner.methods
            returns = {r.returns.text for r in methods.get(fold(str(node.expression.this)), []) if r.returns}
            return _object(ctx, returns.pop().split(".")) if len(returns) == 1 else None
    found = implicit.called(node, ctx)
    returns = {s.returns_ora for s in found or [] if s.returns_ora}
    return _object(ctx, returns.pop().split(".")) if len(returns) == 1 else None


def _object(ctx: ConversionContext, parts: list[str]) -> CatalogEntry | None:
    names = [fold(p.strip()) for p in parts if p.strip()]
    if not names or len(names) > 2:
        return None
    entry = ctx.catalog.lookup(*names)
    return entry if entry is not None and isinstance(entry.plsql_type, ObjectType) else None
