"""Spider's difficulty levels (easy, medium, hard, extra), computed from the gold SQL when the split
file carries none (Spider's own files do not; its evaluator computes them).

The rules are the evaluator's `eval_hardness` (component1: WHERE, GROUP BY, ORDER BY, LIMIT, each
join, OR, LIKE; component2: a set operation or a subquery in a condition; others: more than one
aggregate, select column, WHERE condition or GROUP BY column), applied to sqlglot's parse tree
instead of the evaluator's own parser: a rare construct may land in a neighbouring level.
"""

from __future__ import annotations

import sqlglot
from sqlglot import exp

AGGREGATES = (exp.Count, exp.Sum, exp.Avg, exp.Max, exp.Min)
UNKNOWN = "unlabelled"


def _conditions(node) -> list:
    if isinstance(node, exp.And | exp.Or):
        return _conditions(node.left) + _conditions(node.right)
    if isinstance(node, exp.Paren) and isinstance(node.this, exp.And | exp.Or):
        return _conditions(node.this)
    return [node] if node is not None else []


def _ors(node) -> int:
    if isinstance(node, exp.Or):
        return 1 + _ors(node.left) + _ors(node.right)
    if isinstance(node, exp.And):
        return _ors(node.left) + _ors(node.right)
    if isinstance(node, exp.Paren):
        return _ors(node.this)
    return 0


def _nested(cond, select: exp.Select) -> int:
    """Subqueries directly inside a condition of `select` (not inside another subquery)."""
    count = 0
    for inner in cond.find_all(exp.Select):
        up = inner.parent
        while up is not None and not isinstance(up, exp.Select):
            up = up.parent
        count += up is select or up is None
    return count


def _has_agg(node) -> bool:
    return any(True for _ in node.find_all(*AGGREGATES)) if node is not None else False


def _clause(tree: exp.Select, name: str) -> exp.Expression:
    return tree.args[name]


def _counts(tree) -> tuple[int, int, int]:
    comp2 = 0
    while isinstance(tree, exp.Union | exp.Intersect | exp.Except):
        comp2, tree = 1, tree.left  # the evaluator counts the top-level set operation once
    if not isinstance(tree, exp.Select):
        raise ValueError("not a SELECT")
    joins = tree.args.get("joins") or []
    where = _clause(tree, "where").this if tree.args.get("where") else None
    having = _clause(tree, "having").this if tree.args.get("having") else None
    group = _clause(tree, "group").expressions if tree.args.get("group") else []
    order = _clause(tree, "order").expressions if tree.args.get("order") else []
    ons = [j.args["on"] for j in joins if j.args.get("on") is not None]
    conds = [c for node in ons + [where, having] for c in _conditions(node)]
    comp1 = sum(map(bool, (where, group, order, tree.args.get("limit")))) + len(joins)
    comp1 += sum(_ors(node) for node in ons + [where, having]) + sum(isinstance(c, exp.Like) for c in conds)
    comp2 += sum(_nested(c, tree) for c in conds)
    aggs = sum(map(_has_agg, tree.expressions)) + sum(_has_agg(c) for c in _conditions(where))
    aggs += sum(map(_has_agg, group)) + sum(map(_has_agg, order)) + sum(_has_agg(c) for c in _conditions(having))
    others = (aggs > 1) + (len(tree.expressions) > 1) + (len(_conditions(where)) > 1) + (len(group) > 1)
    return comp1, comp2, others


def spider_hardness(sql: str, dialect: str = "sqlite") -> str:
    try:
        c1, c2, o = _counts(sqlglot.parse_one(sql, read=dialect))
    except (sqlglot.errors.SqlglotError, ValueError):
        return UNKNOWN
    if c1 <= 1 and o == 0 and c2 == 0:
        return "easy"
    if (o <= 2 and c1 <= 1 and c2 == 0) or (c1 <= 2 and o < 2 and c2 == 0):
        return "medium"
    if (o > 2 and c1 <= 2 and c2 == 0) or (2 < c1 <= 3 and o <= 2 and c2 == 0) or (c1 <= 1 and o == 0 and c2 <= 1):
        return "hard"
    return "extra"
