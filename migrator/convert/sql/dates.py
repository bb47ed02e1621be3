"""Dates: SYSDATE, date arithmetic in days, TRUNC/ROUND on dates, ADD_MONTHS & co, TO_DATE/TO_CHAR.

Oracle DATE is timestamp(0) here. ``date ± n`` adds n days (n may be fractional) and
``date - date`` is a number of days; PostgreSQL needs intervals and EXTRACT(EPOCH ...) for that.
Whether an operand is a date comes from :mod:`migrator.convert.sql.expression_types`; when unknown the numeric
meaning is kept (a wrong guess then fails loudly in PostgreSQL: no timestamp + numeric operator).
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal

from sqlglot import exp
from sqlglot.dialects.oracle import Oracle
from sqlglot.time import format_time

from migrator.convert.context import ConversionContext
from migrator.convert.sql import format_models
from migrator.convert.sql.expression_types import DATE, INTERVAL, NUMBER, STRING, TIMESTAMP, TypeEnv
from migrator.convert.sql.nodes import compat, fn, interval, literal_int, literal_str, marker, paren, tag, ts0

_DATEISH = (DATE, TIMESTAMP)

# Oracle TRUNC/ROUND format model → date_trunc unit. 'WW', 'W', 'D', 'DAY' depend on NLS or on
# the weekday of January 1st and have no date_trunc unit: they are reported, not guessed.
_TRUNC_UNITS = {
    **dict.fromkeys(["DD", "DDD", "J"], "day"),
    **dict.fromkeys(["MM", "MON", "MONTH", "RM"], "month"),
    **dict.fromkeys(["YYYY", "SYYYY", "YEAR", "SYEAR", "YYY", "YY", "Y"], "year"),
    **dict.fromkeys(["IYYY", "IYY", "IY", "I"], "isoyear"),
    **dict.fromkeys(["HH", "HH12", "HH24"], "hour"),
    "MI": "minute",
    "Q": "quarter",
    "IW": "week",
    "CC": "century",
    "SCC": "century",
}
# ROUND(date, fmt) = TRUNC(date + half a unit); month rounds up from the 16th, year from July 1st.
_ROUND_SHIFT = {"day": "12 hour", "hour": "30 minute", "minute": "30 second", "year": "6 month"}


def sysdate(node: exp.CurrentTimestamp, ctx: ConversionContext, env) -> exp.Expression | None:
    if not node.args.get("sysdate") or not ctx.enabled("expr.sysdate"):
        return None
    ctx.applied("expr.sysdate")
    # oracompat.sysdate(): LOCALTIMESTAMP(0) — the session's wall clock at whole seconds, like
    # SYSDATE (PostgreSQL fixes it at transaction start and rounds rather than truncates the
    # fraction) — unless the setting oracompat.fixed_date freezes it, as Oracle's FIXED_DATE does:
    # that is what lets a scenario pin date-dependent behaviour on both systems.
    return tag(compat("sysdate"), DATE)


def systimestamp(node: exp.Systimestamp, ctx: ConversionContext, env) -> exp.Expression | None:
    if not ctx.enabled("expr.sysdate"):
        return None
    ctx.applied("expr.sysdate")
    return tag(exp.CurrentTimestamp(), TIMESTAMP)


def date_arith(node: exp.Expression, ctx: ConversionContext, env: TypeEnv) -> exp.Expression | None:
    """``d ± n`` → ``d ± n * interval '1 day'``; ``d1 - d2`` → days as numeric."""
    if not ctx.enabled("expr.date_arith"):
        return None
    left, right = env.kind(node.this), env.kind(node.expression)
    if isinstance(node, exp.Add) and right in _DATEISH and left not in _DATEISH + (INTERVAL,):
        node = exp.Add(this=node.expression, expression=node.this)
        left, right = right, left
    if left not in _DATEISH or right == INTERVAL:
        return None
    if right in _DATEISH:
        if isinstance(node, exp.Add) or not (left == right == DATE):
            return None  # timestamp - timestamp is an interval in both databases
        ctx.applied("expr.date_arith")
        inner = exp.Sub(this=paren(node.this), expression=paren(node.expression))
        inner.meta["ora_done"] = True  # timestamp - timestamp now: not date arithmetic again
        diff = exp.Paren(this=inner)
        epoch = exp.Extract(this=exp.var("EPOCH"), expression=diff)
        return tag(exp.Div(this=epoch, expression=exp.Literal.number(86400), typed=True), NUMBER)
    if right is None:
        ctx.note(f"assumed a number of days in date arithmetic: {node.sql(dialect='oracle')}")
    ctx.applied("expr.date_arith")
    days = _days(node.expression)
    return tag(node.__class__(this=node.this, expression=days), DATE)


def _days(n: exp.Expression) -> exp.Expression:
    value = literal_int(n)
    if value is not None and value >= 0:
        return interval(f"{value} day")
    return exp.Mul(this=paren(n), expression=interval("1 day"))


def trunc_date(node: exp.Expression, ctx: ConversionContext, env: TypeEnv) -> exp.Expression | None:
    """TRUNC(date[, fmt]) → date_trunc(unit, date)::timestamp(0); TRUNC(number) is left alone."""
    if isinstance(node, exp.DateTrunc):
        subject, fmt = node.this, node.args.get("unit")
    elif node.name.upper() == "TRUNC" and len(node.expressions) == 1 and env.kind(node.expressions[0]) in _DATEISH:
        subject, fmt = node.expressions[0], None
    else:
        return None
    if not ctx.enabled("expr.trunc_date"):
        return None
    unit = _unit(fmt)
    if unit is None:
        shown = fmt.sql() if fmt is not None else "its format"
        return marker(ctx, "TRUNC(date, format)", node, f"no PostgreSQL date_trunc unit for {shown}")
    ctx.applied("expr.trunc_date")
    return tag(ts0(fn("DATE_TRUNC", exp.Literal.string(unit), subject)), DATE)


def round_date(node: exp.Round, ctx: ConversionContext, env: TypeEnv) -> exp.Expression | None:
    fmt = node.args.get("decimals")
    if not (literal_str(fmt) is not None or (fmt is None and env.kind(node.this) in _DATEISH)):
        return None
    if not ctx.enabled("expr.round_date"):
        return None
    unit = _unit(fmt)
    if unit not in _ROUND_SHIFT and unit != "month":
        return marker(ctx, "ROUND(date, format)", node, f"unsupported ROUND date format {fmt.sql() if fmt else ''}")
    ctx.applied("expr.round_date")
    if unit == "month":  # up from the 16th: shift back 15 days, then forward one month
        shifted = exp.Add(
            this=exp.Sub(this=paren(node.this), expression=interval("15 day")), expression=interval("1 month")
        )
    else:
        shifted = exp.Add(this=paren(node.this), expression=interval(_ROUND_SHIFT[unit]))
    shifted.meta["ora_done"] = True  # a shift before truncating: PostgreSQL's month arithmetic is meant
    return tag(ts0(fn("DATE_TRUNC", exp.Literal.string(unit), shifted)), DATE)


def _unit(fmt: exp.Expression | None) -> str | None:
    if fmt is None:
        return "day"
    text = literal_str(fmt) if isinstance(fmt, exp.Literal) else fmt.name
    return _TRUNC_UNITS.get((text or "").strip().upper())


def add_months(node: exp.AddMonths, ctx: ConversionContext, env) -> exp.Expression | None:
    return _compat_call(node, ctx, "expr.add_months", "add_months", [node.this, node.expression])


def months_between(node: exp.MonthsBetween, ctx: ConversionContext, env) -> exp.Expression | None:
    return _compat_call(node, ctx, "expr.months_between", "months_between", [node.this, node.expression], NUMBER)


def last_day(node: exp.LastDay, ctx: ConversionContext, env) -> exp.Expression | None:
    return _compat_call(node, ctx, "expr.last_day", "last_day", [node.this])


def _compat_call(node, ctx, rule, name, args, kind=DATE):
    if not ctx.enabled(rule):
        return None
    ctx.applied(rule)
    return tag(compat(name, *args), kind)


def to_date(node: exp.Expression, ctx: ConversionContext, env) -> exp.Expression | None:
    """TO_DATE keeps the time of day in Oracle (PostgreSQL's to_date drops it): to_timestamp."""
    if not ctx.enabled("expr.to_date"):
        return None
    is_date = isinstance(node, exp.StrToDate)
    fmt = node.args.get("format")
    if not is_date and literal_str(fmt) == _TS_LITERAL_FMT and isinstance(node.this, exp.Literal):
        ctx.applied("expr.to_date")  # an ANSI TIMESTAMP '...' literal: a plain cast reads it
        return tag(exp.cast(node.this, "TIMESTAMP"), TIMESTAMP)
    if fmt is None and is_date:
        # the session's NLS_DATE_FORMAT: AMERICAN's DD-MON-RR, as every other rule assumes
        ctx.applied("expr.to_date")
        return tag(ts0(compat("to_date", node.this, exp.Literal.string("DD-MON-RR"))), DATE)
    if fmt is None:
        ctx.note("TO_TIMESTAMP without a format uses NLS settings; converted to a cast")
        ctx.applied("expr.to_date")
        return tag(exp.cast(node.this, "TIMESTAMP"), TIMESTAMP)
    text = literal_str(fmt)
    if text is None:  # a format known at run time: translated there (oracompat.datetime_format)
        ctx.applied("expr.to_date")
        if is_date:
            return tag(ts0(compat("to_date", node.this, compat("datetime_format", fmt, exp.true()))), DATE)
        call = fn("TO_TIMESTAMP", node.this, compat("datetime_format", fmt, exp.false()))
        return tag(exp.cast(call, "TIMESTAMP"), TIMESTAMP)
    oracle_fmt = format_time(text, Oracle.INVERSE_TIME_MAPPING, Oracle.INVERSE_TIME_TRIE) or text
    pg, problem = pg_datetime_format(oracle_fmt, keep_rr=True)
    if problem:
        return marker(ctx, "TO_DATE format", node, problem)
    ctx.applied("expr.to_date")
    value = node.this
    if not is_date and isinstance(value, exp.Literal) and value.is_string and "US" in pg:
        value = exp.Literal.string(_microseconds(value.this, pg))
    if _RR.search(pg):  # Oracle's RR century rule: oracompat.to_date
        call = compat("to_date", value, exp.Literal.string(pg))
    else:
        call = fn("TO_TIMESTAMP", value, exp.Literal.string(pg))
    return tag(ts0(call) if is_date else exp.cast(call, "TIMESTAMP"), DATE if is_date else TIMESTAMP)


_TS_LITERAL_FMT = "%Y-%m-%d %H:%M:%S.%f"
_LONG_FRACTION = re.compile(r"(?<=\D)(\d{7,9})(?!\d)")


def _microseconds(text: str, pg_format: str) -> str:
    """A literal read by FF with more than six fractional digits ('13.20.22.245676861'): Oracle's
    TO_TIMESTAMP keeps nine, PostgreSQL's timestamp holds six and its US field refuses more, so the
    fraction is rounded to microseconds here, as Oracle rounds it when storing into TIMESTAMP(6) (the
    default precision). Only in a format without J, the one other field of seven digits; a fraction
    that rounds up to a whole second is left as written (PostgreSQL refuses it, visibly)."""
    if "J" in pg_format.upper().replace("US", ""):
        return text

    def rounded(m: re.Match[str]) -> str:
        q = (Decimal("0." + m.group(1))).quantize(Decimal("0.000001"), rounding=ROUND_HALF_UP)
        return m.group(1) if q >= 1 else str(q)[2:]

    return _LONG_FRACTION.sub(rounded, text)


def date_literal(node: exp.DateStrToDate, ctx: ConversionContext, env) -> exp.Expression | None:
    """DATE '2024-01-31' is an Oracle DATE, i.e. timestamp(0) here."""
    if not ctx.enabled("expr.date_type"):
        return None
    ctx.applied("expr.date_type")
    return tag(ts0(node.this), DATE)


def to_char(node: exp.Expression, ctx: ConversionContext, env: TypeEnv) -> exp.Expression | None:
    fmt = node.args.get("format")
    if fmt is None or not ctx.enabled("expr.to_char"):
        return None
    text = literal_str(fmt)
    if text is None and env.kind(node.this) in _DATEISH:  # a date's format known at run time
        ctx.applied("expr.to_char")
        if ctx.enabled("expr.format_model"):  # read there as format_models.py reads a literal one
            ctx.applied("expr.format_model")
            return tag(compat("datetime_to_char", node.this, fmt), STRING)
        return exp.ToChar(this=node.this, format=compat("datetime_format", fmt, exp.false()))
    number = env.kind(node.this) == NUMBER or (text is not None and _NUMBER_MODEL.fullmatch(text) is not None)
    if text is not None and number and _NUMBER_APART.search(text) and ctx.enabled("expr.number_format_model"):
        ctx.applied("expr.number_format_model")  # elements PostgreSQL reads otherwise
        return tag(compat("number_to_char", node.this, node.args["format"]), STRING)
    if text is not None and number and re.search(r"[09]", text) and ctx.enabled("expr.number_format_model"):
        # an overflow: Oracle prints '#' over the model's width and one more, PostgreSQL a '#' per digit
        ctx.applied("expr.number_format_model")
        part = exp.ToChar(this=node.this, format=node.args["format"])
        part.meta["ora_done"] = True
        width = len(re.sub(r"(?i)^\s*FM", "", text)) + 1
        return tag(compat("number_fit", part, exp.Literal.number(width)), STRING)
    if text is None or env.kind(node.this) == NUMBER or not re.search(r"[%A-WYZa-wyz]", text.replace("FM", "")):
        return None  # the other number format elements are the same in both databases
    if isinstance(node, exp.TimeToStr):  # sqlglot already turned the model into strftime codes
        text = format_time(text, Oracle.INVERSE_TIME_MAPPING, Oracle.INVERSE_TIME_TRIE) or text
    if ctx.enabled("expr.format_model") and not (env.kind(node.this) not in _DATEISH and _NUMBER_MODEL.fullmatch(text)):
        return _format_model(node, text, ctx)
    pg, problem = pg_datetime_format(text)
    if problem:
        return marker(ctx, "TO_CHAR format", node, problem)
    ctx.applied("expr.to_char")
    return exp.ToChar(this=node.this, format=exp.Literal.string(pg))


# A number format model (Oracle's "Number Format Elements"): a value of unknown type formatted with
# one is a number, whatever letters (G, D, MI, PR, ...) the model spells.
_NUMBER_MODEL = re.compile(r"(?i)\s*(FM)?(?=.*[09X]|RN|TM)[$LCU]?[SB]?[09,.GDVX$LCU]*(EEEE)?(MI|PR|S|RN|TM9?|TME)?\s*")


# Number format elements PostgreSQL prints otherwise: X, $, EEEE, TM, a model starting at the
# decimal point (oracompat.number_to_char).
_NUMBER_APART = re.compile(r"(?i)X|\$|EEEE|^\s*(FM)?\s*TM|^\s*(FM)?[SB]?[.D]")


def _format_model(node: exp.Expression, text: str, ctx: ConversionContext) -> exp.Expression:
    """TO_CHAR with Oracle's datetime model compiled element by element (format_models.py): one
    to_char when PostgreSQL's template can say it all, else the pieces concatenated."""
    pieces, problem = format_models.compile_model(text)
    if problem:
        return marker(ctx, "TO_CHAR format", node, problem)
    ctx.applied("expr.to_char")
    ctx.applied("expr.format_model")
    parts: list[exp.Expression] = []
    for piece in pieces:
        # each part final (its template must not be read as an Oracle model again); the value is
        # still converted
        part = exp.ToChar(
            this=node.this.copy(), format=exp.Literal.string(piece if isinstance(piece, str) else piece.template)
        )
        part.meta["ora_done"] = True
        if isinstance(piece, str):
            parts.append(part)
        else:
            number = exp.cast(part, "BIGINT")
            number.meta["ora_done"] = True
            how, case = exp.Literal.string(piece.how), exp.Literal.string(piece.case)
            parts.append(compat("format_element", number, how, case))
    if len(parts) == 1:
        out = parts[0]
    else:  # NULL in, NULL out: concat would give ''
        joined = exp.Anonymous(this="CONCAT", expressions=parts)
        joined.meta["ora_done"] = True
        empty = exp.Literal.string("")
        empty.meta["ora_done"] = True  # PostgreSQL's '', not Oracle's NULL
        out = exp.Nullif(this=joined, expression=empty)
    out.meta["ora_done"] = True
    return tag(out, STRING)


# SS is matched so that its S never starts an SP (HH:MI:SSPM is seconds, then PM)
_FMT_TOKEN = re.compile(r'"[^"]*"|RRRR|RR|SYYYY|SYEAR|YEAR|FF[1-9]?|SSSSS|SS|SPTH|THSP|SP', re.I)
_RR = re.compile(r"RR")


def pg_datetime_format(text: str, keep_rr: bool = False) -> tuple[str, str | None]:
    """Oracle datetime format model → PostgreSQL template (returns text, problem-or-None).

    For output RR is YY and RRRR YYYY. For input (`keep_rr`) they stay, for oracompat.to_date,
    which reads the year as Oracle does: a two-digit year goes to the century that puts it
    nearest the current year (PostgreSQL's YY would read 50-69 as 2050-2069).
    """
    problems = []

    def sub(m: re.Match) -> str:
        tok = m.group(0).upper()
        if tok.startswith('"'):
            return m.group(0)
        if tok in ("RRRR", "RR") and keep_rr:
            return tok
        if tok in ("RRRR", "SYYYY"):
            return "YYYY"
        if tok == "RR":
            return "YY"
        if tok in ("SP", "SPTH", "THSP"):
            problems.append("spelled-out numbers (SP) have no PostgreSQL template pattern")
            return tok
        if tok in ("YEAR", "SYEAR"):
            problems.append("spelled-out year (YEAR) has no PostgreSQL template pattern")
            return tok
        if tok == "SSSSS":
            return "SSSS"
        if tok == "SS":
            return m.group(0)
        if tok.startswith("FF"):
            digits = tok[2:]
            return f"FF{digits}" if digits and int(digits) <= 6 else "US"
        return tok

    return _FMT_TOKEN.sub(sub, text), (problems[0] if problems else None)


def date_cast(node: exp.Cast, ctx: ConversionContext, env) -> exp.Expression | None:
    """CAST(x AS DATE) keeps the time of day in Oracle: the product's DATE is timestamp(0)."""
    if node.to.this is not exp.DataType.Type.DATE or not ctx.enabled("expr.date_type"):
        return None
    ctx.applied("expr.date_type")
    return tag(ts0(node.this), DATE)


def unsupported_date_fn(node: exp.Expression, ctx: ConversionContext, env) -> exp.Expression | None:
    if node.name.upper() == "NEW_TIME":
        return marker(ctx, "NEW_TIME", node, "Oracle's time zone abbreviations have no PostgreSQL counterpart")
    return None


def next_day(node: exp.NextDay, ctx: ConversionContext, env) -> exp.Expression | None:
    """NEXT_DAY(d, day) → oracompat.next_day: English day names (NLS_DATE_LANGUAGE AMERICAN, as
    every other rule assumes), the time of day kept, ORA-01846 for another name."""
    if not ctx.enabled("expr.next_day"):
        return marker(ctx, "NEXT_DAY", node, "rule expr.next_day is disabled")
    ctx.applied("expr.next_day")
    return tag(compat("next_day", node.this, node.expression), DATE)


# NUMTODSINTERVAL's units with a PostgreSQL interval literal.
_DS_UNITS = frozenset({"DAY", "HOUR", "MINUTE", "SECOND"})


def interval_function(node: exp.Anonymous, ctx: ConversionContext, env) -> exp.Expression | None:
    """NUMTODSINTERVAL(n, 'HOUR') → n * INTERVAL '1 HOUR'; NUMTOYMINTERVAL and a unit known only at
    run time → oracompat.numto*interval; TO_DSINTERVAL / TO_YMINTERVAL → oracompat.to_interval (a
    leading sign applies to the whole value, as in Oracle)."""
    name = node.name.upper()
    args = node.expressions
    if name in ("NUMTODSINTERVAL", "NUMTOYMINTERVAL") and len(args) == 2:
        if not ctx.enabled("expr.interval_functions"):
            return marker(ctx, name, node, "rule expr.interval_functions is disabled")
        ctx.applied("expr.interval_functions")
        unit = (literal_str(args[1]) or "").strip().upper()
        if name == "NUMTODSINTERVAL" and unit in _DS_UNITS:
            return tag(exp.Mul(this=paren(args[0]), expression=interval(f"1 {unit.lower()}")), INTERVAL)
        return tag(compat(name.lower(), args[0], args[1]), INTERVAL)
    if name in ("TO_DSINTERVAL", "TO_YMINTERVAL") and len(args) == 1:
        if not ctx.enabled("expr.interval_functions"):
            return marker(ctx, name, node, "rule expr.interval_functions is disabled")
        ctx.applied("expr.interval_functions")
        return tag(compat("to_interval", args[0]), INTERVAL)
    return None
