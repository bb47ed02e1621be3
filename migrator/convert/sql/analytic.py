"""Oracle aggregates PostgreSQL spells differently: KEEP (DENSE_RANK FIRST|LAST ORDER BY ...)
(rule expr.keep_dense_rank) and RATIO_TO_REPORT (rule expr.ratio_to_report).

``agg(x) KEEP (DENSE_RANK FIRST ORDER BY k)`` is the aggregate over the rows that rank first by
``k`` (ties included): the group's values and keys are collected in that order (``array_agg(x
ORDER BY k)``, or over the window ordered by ``k`` for the analytic form) and
``oracompat.keep_<agg>`` aggregates the values whose key equals the first key. LAST is FIRST with
the order reversed, NULLS placement included. ``RATIO_TO_REPORT(x) OVER (PARTITION BY p)`` is
``x / SUM(x) OVER (PARTITION BY p)`` in exact decimal.
"""

from __future__ import annotations

from sqlglot import exp

from migrator.convert.context import ConversionContext
from migrator.convert.sql.expression_types import NUMBER
from migrator.convert.sql.nodes import compat, fn, marker, tag

_KEEP_AGGS: dict[type, str] = {
    exp.Min: "keep_min",
    exp.Max: "keep_max",
    exp.Sum: "keep_sum",
    exp.Avg: "keep_avg",
    exp.Count: "keep_count",
}


def _is_keep(node: exp.Expression) -> bool:
    return isinstance(node, exp.Window) and node.args.get("over") == "KEEP"


def keep(node: exp.Window, ctx: ConversionContext, env) -> exp.Expression | None:
    """The grouped form (a KEEP window) and the analytic form (an OVER window around one)."""
    analytic = isinstance(node.this, exp.Window) and _is_keep(node.this)
    if not (analytic or (_is_keep(node) and not isinstance(node.parent, exp.Window))):
        return None
    inner = node.this if analytic else node
    assert isinstance(inner, exp.Window)
    agg = inner.this
    name = _KEEP_AGGS.get(type(agg))
    order = inner.args.get("order")
    if name is None or order is None or not order.expressions:
        return marker(ctx, "KEEP (DENSE_RANK ...)", node, f"KEEP with {type(agg).__name__.upper()} is not supported")
    if not ctx.enabled("expr.keep_dense_rank"):
        return marker(ctx, "KEEP (DENSE_RANK ...)", node, "rule expr.keep_dense_rank is disabled")
    ctx.applied("expr.keep_dense_rank")
    ordered = [o.copy() for o in order.expressions]
    if not inner.args.get("first"):  # LAST: the first rows of the reversed order
        for o in ordered:
            desc = bool(o.args.get("desc"))
            o.set("desc", not desc)
            o.set("nulls_first", not bool(o.args.get("nulls_first")))
    value = exp.Literal.number(1) if isinstance(agg.this, exp.Star) or agg.this is None else agg.this.copy()
    keys = [o.this.copy() for o in ordered]
    key = keys[0] if len(keys) == 1 else fn("ROW", *keys)
    if analytic:
        vals, ks = (_window_agg(node, v, ordered) for v in (value, key))
    else:
        vals = exp.ArrayAgg(this=exp.Order(this=value, expressions=[o.copy() for o in ordered]))
        ks = exp.ArrayAgg(this=exp.Order(this=key, expressions=[o.copy() for o in ordered]))
    out = compat(name, vals, ks)
    return tag(out, NUMBER) if name in ("keep_sum", "keep_avg", "keep_count") else out


def _window_agg(outer: exp.Window, value: exp.Expression, ordered: list[exp.Ordered]) -> exp.Expression:
    """array_agg(value) over the outer window's partition, in the KEEP order, whole partition."""
    return exp.Window(
        this=exp.ArrayAgg(this=value),
        partition_by=[p.copy() for p in outer.args.get("partition_by") or []],
        order=exp.Order(expressions=[o.copy() for o in ordered]),
        spec=exp.WindowSpec(
            kind="ROWS", start="UNBOUNDED", start_side="PRECEDING", end="UNBOUNDED", end_side="FOLLOWING"
        ),
        over="OVER",
    )


def ratio_to_report(node: exp.Window, ctx: ConversionContext, env) -> exp.Expression | None:
    call = node.this
    if not (isinstance(call, exp.Anonymous) and call.name.upper() == "RATIO_TO_REPORT" and len(call.expressions) == 1):
        return None
    if not ctx.enabled("expr.ratio_to_report"):
        return marker(ctx, "RATIO_TO_REPORT", node, "rule expr.ratio_to_report is disabled")
    ctx.applied("expr.ratio_to_report")
    arg = call.expressions[0]
    total = exp.Window(
        this=exp.Sum(this=arg.copy()),
        partition_by=[p.copy() for p in node.args.get("partition_by") or []],
        over="OVER",
    )
    ratio = exp.Div(this=exp.cast(arg.copy(), "NUMERIC"), expression=total, typed=True)
    return tag(exp.Paren(this=ratio), NUMBER)


def grouping_id(node: exp.GroupingId, ctx: ConversionContext, env) -> exp.Expression | None:
    """GROUPING_ID(a, b, ...): the bit vector of GROUPING(a), GROUPING(b), ... (the first argument
    the most significant bit) — exactly what PostgreSQL's GROUPING(a, b, ...) returns."""
    if not ctx.enabled("expr.grouping_id"):
        return marker(ctx, "GROUPING_ID", node, "rule expr.grouping_id is disabled")
    ctx.applied("expr.grouping_id")
    return tag(exp.Anonymous(this="GROUPING", expressions=[e.copy() for e in node.expressions]), NUMBER)
