"""INTERVAL values where PostgreSQL's behave otherwise (rule expr.interval_arith).

Oracle SQL Language Reference, "Datetime/Interval Arithmetic", "INTERVAL" literals and "EXTRACT
(datetime)":

- A datetime plus a YEAR TO MONTH interval that lands on a day the month does not have (31 January
  + 1 month) is ORA-01839 "date not valid for month specified"; PostgreSQL moves it to the month's
  last day (only ADD_MONTHS does that in Oracle). `d ± i` → oracompat.add_interval(d, ±i).
- A DAY TO SECOND interval is normalised: 26 hours is 1 day 2 hours, so EXTRACT(HOUR) is 2 and
  EXTRACT(DAY) is 1; PostgreSQL keeps '26:00:00' as it was computed (a NUMTODSINTERVAL in hours, a
  product). EXTRACT(DAY | HOUR FROM i) reads justify_hours(i).
- An interval printed as text (`||`, an assignment to a VARCHAR2) has Oracle's form:
  '+01 02:00:00.000000' (DAY(2) TO SECOND(6), a variable's default) or '+01-06' (YEAR(2) TO
  MONTH), the leading precision and the fraction of its type — DAY(9) TO SECOND(9) for
  NUMTODSINTERVAL, DAY(9) TO SECOND(6) for TIMESTAMP − TIMESTAMP, YEAR(9) for NUMTOYMINTERVAL.
  PostgreSQL prints '26:00:00' or '1 year 6 mons'.
"""

from __future__ import annotations

import re

from sqlglot import exp

from migrator.convert.context import ConversionContext
from migrator.convert.sql.expression_types import DATE, INTERVAL, STRING, TIMESTAMP, TypeEnv
from migrator.convert.sql.nodes import compat, fn, paren, tag

_DATEISH = (DATE, TIMESTAMP)
_INTERVAL_TYPE = re.compile(
    r"INTERVAL\s+(?:(YEAR)(?:\s*\(\s*(\d)\s*\))?\s*TO\s+MONTH|DAY(?:\s*\(\s*(\d)\s*\))?\s*TO\s+SECOND(?:\s*\(\s*(\d)\s*\))?)",
    re.I,
)


def arith(node: exp.Expression, ctx: ConversionContext, env: TypeEnv) -> exp.Expression | None:
    """datetime ± interval (either order for +) → oracompat.add_interval(datetime, ±interval)."""
    if not isinstance(node, (exp.Add, exp.Sub)) or not ctx.enabled("expr.interval_arith"):
        return None
    left, right = env.kind(node.this), env.kind(node.expression)
    if left == INTERVAL and right in _DATEISH and isinstance(node, exp.Add):
        moment, span, kind = node.expression, node.this, right
    elif left in _DATEISH and right == INTERVAL:
        moment, span, kind = node.this, node.expression, left
    else:
        return None
    if _day_to_second(span, env):
        return None  # days and seconds: every datetime plus them exists, as PostgreSQL computes
    ctx.applied("expr.interval_arith")
    if isinstance(node, exp.Sub):
        span = exp.Neg(this=paren(span))
    return tag(compat("add_interval", moment, span), kind)


_DS_UNITS = frozenset({"DAY", "HOUR", "MINUTE", "SECOND"})


def _day_to_second(node: exp.Expression, env: TypeEnv) -> bool:
    """Whether an interval expression is known to hold no months (a DAY TO SECOND)."""
    while isinstance(node, (exp.Paren, exp.Neg)):
        node = node.this
    if isinstance(node, exp.Interval):
        unit = node.args.get("unit")
        return unit is not None and unit.name.upper().split()[0] in _DS_UNITS
    if isinstance(node, (exp.Mul, exp.Div)):
        return any(env.kind(side) == INTERVAL and _day_to_second(side, env) for side in (node.this, node.expression))
    if isinstance(node, exp.Anonymous):
        return node.name.upper() in ("NUMTODSINTERVAL", "TO_DSINTERVAL")
    return "DAY" in (env.oracle_type(node) or "").upper()


def extract(node: exp.Extract, ctx: ConversionContext, env: TypeEnv) -> exp.Expression | None:
    """EXTRACT(DAY | HOUR FROM interval): of the interval with 24 hours carried into a day."""
    unit = node.this.name.upper() if isinstance(node.this, (exp.Var, exp.Identifier)) else ""
    if unit not in ("DAY", "HOUR") or env.kind(node.expression) != INTERVAL:
        return None
    if not ctx.enabled("expr.interval_arith") or node.meta.get("ora_interval"):
        return None
    ctx.applied("expr.interval_arith")
    out = exp.Extract(this=node.this, expression=fn("justify_hours", node.expression))
    out.meta["ora_interval"] = True
    return out


def as_text(part: exp.Expression, ctx: ConversionContext, env: TypeEnv) -> exp.Expression:
    """An interval printed as Oracle prints it (the precisions of its type, where known)."""
    if not ctx.enabled("expr.interval_arith"):
        return part
    ctx.applied("expr.interval_arith")
    lead, frac, ym = _precision(part, env)
    args = [
        part,
        exp.Literal.number(lead),
        exp.Literal.number(frac),
        exp.true() if ym else exp.false() if ym is False else exp.null(),
    ]
    return tag(compat("interval_text", *args), STRING)


def _precision(node: exp.Expression, env: TypeEnv) -> tuple[int, int, bool | None]:
    """(leading precision, fractional precision, year-to-month?) of an interval expression;
    None for year-to-month when only the value can say."""
    while isinstance(node, exp.Paren):
        node = node.this
    declared = env.oracle_type(node) or ""
    m = _INTERVAL_TYPE.search(declared)
    if m:
        if m.group(1):
            return int(m.group(2) or 2), 0, True
        return int(m.group(3) or 2), int(m.group(4) or 6), False
    if isinstance(node, exp.Anonymous) and node.name.upper() == "NUMTODSINTERVAL":
        return 9, 9, False
    if isinstance(node, exp.Anonymous) and node.name.upper() == "NUMTOYMINTERVAL":
        return 9, 0, True
    if isinstance(node, exp.Sub) and env.kind(node.this) in _DATEISH:
        return 9, 6, False  # TIMESTAMP - TIMESTAMP
    if isinstance(node, (exp.Mul, exp.Div)):  # the interval operand's type
        side = node.this if env.kind(node.this) == INTERVAL else node.expression
        return _precision(side, env)
    return 2, 6, None
