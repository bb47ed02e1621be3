"""``alias.column.attribute[.attribute ...]``: reading attributes of an object-typed column in SQL
(rule expr.object_attribute).

Oracle reads an object column's attributes through the table alias, which it requires for this
(SQL Language Reference, "Using Object Types in SQL": "you must qualify the reference with a table
alias"): ``c.address.city``, ``s.location.sdo_point.x``. sqlglot reads such a name as a column with
schema and catalog parts; PostgreSQL reads ``c.address.city`` as column ``city`` of table
``address`` in schema ``c``. A composite's field is selected on a parenthesised value:
``(c.address).city``, ``(s.location).sdo_point.x``.
"""

from __future__ import annotations

from sqlglot import exp

from migrator.convert.context import ConversionContext
from migrator.convert.sql.nodes import marker


def _aliases(node: exp.Expression) -> set[str]:
    """The aliases given to tables and derived tables in the statement: a name Oracle may read
    an object column's attributes through."""
    names: set[str] = set()
    for t in node.root().find_all(exp.Table, exp.Subquery):
        if t.alias:
            names.add(t.alias.lower())
    return names


def object_attribute(node: exp.Column, ctx: ConversionContext, env) -> exp.Expression | None:
    """``a.col.attr`` / ``a.col.attr.attr`` where ``a`` is a table alias → ``(a.col).attr...``."""
    catalog, db = node.args.get("catalog"), node.args.get("db")
    if db is None or not node.table:
        return None
    parts = [p for p in (catalog, db, node.args.get("table"), node.this) if p is not None]
    if not all(isinstance(p, exp.Identifier) for p in parts) or parts[0].name.lower() not in _aliases(node):
        return None
    if not ctx.enabled("expr.object_attribute"):
        return marker(ctx, "object attribute", node, "rule expr.object_attribute is disabled")
    ctx.applied("expr.object_attribute")
    out: exp.Expression = exp.Paren(this=exp.Column(this=parts[1].copy(), table=parts[0].copy()))
    for p in parts[2:]:
        out = exp.Dot(this=out, expression=p.copy())
    return out
