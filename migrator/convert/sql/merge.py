"""MERGE → PostgreSQL 15+ MERGE.

sqlglot prints a valid PostgreSQL MERGE (unqualified SET and INSERT targets) but drops Oracle's
``UPDATE SET ... WHERE c`` and ``INSERT ... VALUES ... WHERE c`` filters with only a warning;
they become ``WHEN [NOT] MATCHED AND c``, which is the same filter. Oracle's ``DELETE WHERE``
branch does not parse and is reported by the entry point.
"""

from __future__ import annotations

from sqlglot import exp

from migrator.convert.context import ConversionContext


def merge(tree: exp.Merge, ctx: ConversionContext) -> None:
    if not ctx.enabled("sql.merge"):
        return
    ctx.applied("sql.merge")
    whens = tree.args.get("whens")
    for when in whens.expressions if whens else []:
        then = when.args.get("then")
        where = then.args.get("where") if isinstance(then, (exp.Update, exp.Insert)) else None
        if where is None:
            continue
        cond = when.args.get("condition")
        when.set("condition", exp.and_(cond, where.this) if cond is not None else where.this)
        then.set("where", None)
