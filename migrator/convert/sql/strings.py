"""Strings and numbers: INSTR, SUBSTR, LPAD/RPAD, GREATEST/LEAST, LISTAGG, TO_NUMBER, division.

INSTR with a start position or occurrence and SUBSTR with 0/negative or computed positions go to
the support library (``oracompat``), whose functions implement Oracle's documented results
including "empty result is NULL"; inline SQL for those is long and easy to get wrong.
"""

from __future__ import annotations

from sqlglot import exp

from migrator import oracle_types
from migrator.convert.context import ConversionContext
from migrator.convert.sql import prepass
from migrator.convert.sql.expression_types import INTERVAL, NUMBER
from migrator.convert.sql.nodes import compat, empty_text, fn, literal_int, marker, paren, tag
from migrator.convert.sql.text import text_operand


def instr(node: exp.StrPosition, ctx: ConversionContext, env) -> exp.Expression | None:
    if not ctx.enabled("expr.instr"):
        return None
    ctx.applied("expr.instr")
    pos, occ = node.args.get("position"), node.args.get("occurrence")
    if pos is None and occ is None:
        # STRPOS has Oracle's result for the two-argument form (0 when absent, NULL on NULL).
        return tag(
            exp.Anonymous(this="STRPOS", expressions=[text_operand(node.this, ctx, env), node.args["substr"]]), NUMBER
        )
    args = [text_operand(node.this, ctx, env), node.args["substr"], pos or exp.Literal.number(1)]
    if occ is not None:
        args.append(occ)
    return tag(compat("instr", *args), NUMBER)


def substr(node: exp.Substring, ctx: ConversionContext, env) -> exp.Expression | None:
    """SUBSTR: position 0 means 1, negative positions count from the end, '' is NULL."""
    if not ctx.enabled("expr.substr"):
        return None
    ctx.applied("expr.substr")
    args = [text_operand(node.this, ctx, env), node.args.get("start") or exp.Literal.number(1)]
    if node.args.get("length") is not None:
        args.append(node.args["length"])
    return compat("substr", *args)


def pad(node: exp.Pad, ctx: ConversionContext, env) -> exp.Expression | None:
    """LPAD/RPAD to a length below 1 give '' in PostgreSQL and NULL in Oracle."""
    if not ctx.enabled("expr.lpad"):
        return None
    node.set("this", text_operand(node.this, ctx, env))
    length = literal_int(node.expression)
    if length is not None and length >= 1:
        node.meta["ora_done"] = True
        return None
    ctx.applied("expr.lpad")
    node.meta["ora_done"] = True
    if length is None and not isinstance(node.expression, exp.Cast):
        # a NUMBER length (PostgreSQL has no lpad(text, numeric)); Oracle truncates a fraction
        node.set("expression", exp.cast(exp.Anonymous(this="TRUNC", expressions=[node.expression]), "INT"))
    return exp.Nullif(this=node, expression=empty_text())


def greatest_least(node: exp.Expression, ctx: ConversionContext, env) -> exp.Expression | None:
    """Oracle's GREATEST/LEAST are NULL when any argument is NULL; PostgreSQL skips NULLs."""
    if not ctx.enabled("expr.greatest_least"):
        return None
    args = [node.this, *node.expressions]
    nullable = [a for a in args if not isinstance(a, exp.Literal)]
    if any(isinstance(a, exp.Null) for a in args):
        ctx.applied("expr.greatest_least")
        return exp.Null()
    if not nullable:
        return None
    ctx.applied("expr.greatest_least")
    node.meta["ora_done"] = True
    any_null = exp.or_(*[exp.Is(this=paren(a.copy()), expression=exp.Null()) for a in nullable])
    return exp.Case(ifs=[exp.If(this=any_null, true=exp.Null())], default=node)


def listagg(node: exp.GroupConcat, ctx: ConversionContext, env) -> exp.Expression | None:
    # sqlglot prints string_agg(x, sep ORDER BY ...), which is Oracle's LISTAGG; Oracle's default
    # separator is none at all, string_agg needs one.
    if not ctx.enabled("expr.listagg"):
        return None
    ctx.applied("expr.listagg")
    if node.args.get("separator") is None:
        node.set("separator", empty_text())
    return None


def to_number_format(node: exp.ToNumber, ctx: ConversionContext, env) -> exp.Expression | None:
    """TO_NUMBER(s, fmt[, nls]) → oracompat.to_number: Oracle reads s against the format model and
    raises ORA-01722 when it does not fit (a misplaced group separator, extra fraction digits),
    where PostgreSQL's to_number skips what it cannot place (support.sql says how)."""
    fmt = node.args.get("format")
    if fmt is None or not ctx.enabled("expr.to_number_format"):
        return None
    ctx.applied("expr.to_number_format")
    args = [node.this, fmt] + ([node.args["nlsparam"]] if node.args.get("nlsparam") is not None else [])
    return tag(compat("to_number", *args), NUMBER)


def to_number(node: exp.ToNumber, ctx: ConversionContext, env) -> exp.Expression | None:
    """TO_NUMBER(x) is a decimal NUMBER: numeric, not sqlglot's double precision."""
    if node.args.get("format") is not None or not ctx.enabled("expr.to_number"):
        return None
    ctx.applied("expr.to_number")
    return tag(exp.cast(node.this, "NUMERIC"), NUMBER)


def division(node: exp.Div, ctx: ConversionContext, env) -> exp.Expression | None:
    """Oracle NUMBER division is exact decimal: 7/2 = 3.5 even for integer columns.

    PostgreSQL truncates integer/integer and sqlglot casts to double precision; casting the
    dividend to numeric gives Oracle's decimal result (to PostgreSQL's numeric precision).
    """
    if node.args.get("typed") or not ctx.enabled("expr.division"):
        return None
    left = node.this
    if env.kind(left) == INTERVAL:
        node.set("typed", True)  # INTERVAL / NUMBER is an interval: no cast of the dividend
        return None
    if isinstance(left, exp.Literal) and "." in str(left.this):
        node.set("typed", True)  # a decimal literal already makes the division numeric
        return None
    ctx.applied("expr.division")
    return exp.Div(this=exp.cast(left, "NUMERIC"), expression=node.expression, typed=True)


def remainder(node: exp.Anonymous, ctx: ConversionContext, env) -> exp.Expression | None:
    """REMAINDER(n2, n1) → oracompat.remainder: n2 - n1 * ROUND(n2 / n1), ties to the even integer
    (MOD floors instead; PostgreSQL has no REMAINDER)."""
    if node.name.upper() != "REMAINDER" or len(node.expressions) != 2:
        return None
    if not ctx.enabled("expr.remainder"):
        return marker(ctx, "REMAINDER", node, "rule expr.remainder is disabled")
    ctx.applied("expr.remainder")
    return tag(compat("remainder", *node.expressions), NUMBER)


def raw_hex(node: exp.Anonymous, ctx: ConversionContext, env) -> exp.Expression | None:
    """HEXTORAW(s) → decode(s, 'hex') (RAW is bytea); RAWTOHEX(r) → upper(encode(r, 'hex'))."""
    name = node.name.upper()
    if name not in ("HEXTORAW", "RAWTOHEX") or len(node.expressions) != 1 or not ctx.enabled("expr.raw_hex"):
        return None
    ctx.applied("expr.raw_hex")
    if name == "HEXTORAW":
        return exp.Anonymous(this="DECODE", expressions=[node.expressions[0], exp.Literal.string("hex")])
    return exp.Upper(this=exp.Anonymous(this="ENCODE", expressions=[node.expressions[0], exp.Literal.string("hex")]))


def lob_conversion(node: exp.Anonymous, ctx: ConversionContext, env) -> exp.Expression | None:
    """TO_BLOB(raw) is the bytea itself, TO_CLOB(s) is text; EMPTY_BLOB()/EMPTY_CLOB() are empty values."""
    name = node.name.upper()
    if name in ("EMPTY_BLOB", "EMPTY_CLOB") and not node.expressions and ctx.enabled("expr.lob_conversion"):
        ctx.applied("expr.lob_conversion")  # an empty LOB is not NULL in Oracle either
        return exp.cast(empty_text(), "BYTEA" if name == "EMPTY_BLOB" else "TEXT")
    if (
        name not in ("TO_BLOB", "TO_CLOB", "TO_NCLOB")
        or len(node.expressions) != 1
        or not ctx.enabled("expr.lob_conversion")
    ):
        return None
    ctx.applied("expr.lob_conversion")
    arg = node.expressions[0]
    # Parenthesised so the walk still visits (and converts) the argument itself.
    return exp.Paren(this=arg) if name == "TO_BLOB" else exp.cast(arg, "TEXT")


def member_of(node: exp.Anonymous, ctx: ConversionContext, env) -> exp.Expression | None:
    """x MEMBER OF coll (`prepass` made it a call) → oracompat.member_of(x, coll): TRUE when x
    equals an element, NULL when x is NULL or the collection is empty (SQL Language Reference,
    "MEMBER Condition"), otherwise as x = ANY (coll)."""
    if node.name != prepass.MEMBER_OF or len(node.expressions) != 2:
        return None
    if not ctx.enabled("expr.member_of"):
        return marker(ctx, "MEMBER OF", node, "rule expr.member_of is disabled")
    ctx.applied("expr.member_of")
    return compat("member_of", *node.expressions)


def translate_using(node: exp.Anonymous, ctx: ConversionContext, env) -> exp.Expression | None:
    """TRANSLATE(expr USING CHAR_CS | NCHAR_CS) (`prepass` made it a call): the same characters in
    the database or the national character set. A PostgreSQL database has one character set, so
    the value is the text itself."""
    if node.name != prepass.TRANSLATE_USING or len(node.expressions) != 2:
        return None
    if not ctx.enabled("expr.translate_using"):
        return marker(ctx, "TRANSLATE USING", node, "rule expr.translate_using is disabled")
    ctx.applied("expr.translate_using")
    return exp.cast(node.expressions[0], "TEXT")


def json_binary(node: exp.JSONTable, ctx: ConversionContext, env) -> exp.Expression | None:
    """JSON_TABLE over a BLOB (or RAW) column (rule expr.json_binary): Oracle reads JSON stored as
    bytes as UTF-8 (JSON Developer's Guide, "Overview of Storing and Managing JSON Data": binary
    JSON columns hold UTF-8 text); PostgreSQL's bytea casts to no JSON type, so the bytes are read
    with ``convert_from(x, 'UTF8')`` first (an invalid byte sequence fails, as Oracle's IS JSON
    check refuses it)."""
    source = node.this
    if source is None or source.meta.get("ora_json_text"):
        return None
    spelled = env.oracle_type(source) if env is not None else None
    parsed = oracle_types.parse(spelled.strip()) if spelled is not None else None
    if parsed is None or parsed.family is not oracle_types.Family.BINARY or parsed.name == "BFILE":
        return None  # bytes in the row (BLOB, RAW, LONG RAW); a BFILE is a locator
    if not ctx.enabled("expr.json_binary"):
        return marker(ctx, "JSON in a BLOB", node, "rule expr.json_binary is disabled")
    ctx.applied("expr.json_binary")
    text = fn("convert_from", source.copy(), exp.Literal.string("UTF8"))
    text.meta["ora_json_text"] = True
    node.set("this", text)
    return node
