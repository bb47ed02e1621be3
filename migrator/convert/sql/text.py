"""Text results with Oracle's meaning: '' is NULL, REPLACE's optional replacement, implicit
NUMBER/DATE → text in concatenation, and the NLS parameter of TO_NUMBER/TO_CHAR.

Oracle has no empty string, so a function that removes every character returns NULL (an
``UPPER(TRIM('   '))`` then fails a NOT NULL column); PostgreSQL returns ''. Only functions that
can turn non-empty input into empty output are wrapped in ``NULLIF(..., '')``: TRIM/LTRIM/RTRIM,
REPLACE, TRANSLATE, REGEXP_REPLACE (SUBSTR and LPAD/RPAD are handled in expr_strings).

NLS is assumed AMERICAN (decimal '.', group ',', English month and day names); an explicit
NLS parameter naming anything else is converted (numeric characters) or reported (languages).
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation

from sqlglot import exp

from migrator.convert.context import ConversionContext
from migrator.convert.sql import intervals
from migrator.convert.sql.expression_types import DATE, INTERVAL, NUMBER, STRING, TIMESTAMP
from migrator.convert.sql.nodes import compat, empty_text, fn, literal_str, marker, tag


def null_if_empty(node: exp.Expression) -> exp.Expression:
    """``NULLIF(node, '')``; ``node`` is marked done so the walk does not wrap it again."""
    node.meta["ora_done"] = True
    return exp.Nullif(this=node, expression=empty_text())


def empty_result(node: exp.Expression, ctx: ConversionContext, env) -> exp.Expression | None:
    """TRIM/LTRIM/RTRIM, TRANSLATE, REGEXP_REPLACE: an empty result is NULL in Oracle."""
    if not ctx.enabled("expr.empty_result_null"):
        return None
    node.set("this", text_operand(node.this, ctx, env))
    if isinstance(node, exp.RegexpReplace) and node.args.get("replacement") is None:
        # REGEXP_REPLACE(s, p) removes every match; sqlglot would print the 'g' flag in the
        # replacement's place, replacing matches by the letter g.
        node.set("replacement", empty_text())
    if not _can_empty(node):
        return None
    ctx.applied("expr.empty_result_null")
    return tag(null_if_empty(node), STRING)


def _can_empty(node: exp.Expression) -> bool:
    """False when non-empty input provably gives non-empty output (no NULLIF needed): a
    non-empty literal replacement, or a TRANSLATE whose every 'from' character has a 'to'."""
    if isinstance(node, (exp.Replace, exp.RegexpReplace)):
        return not literal_str(node.args.get("replacement"))
    if isinstance(node, exp.Translate):
        src, dst = literal_str(node.args.get("from_")), literal_str(node.args.get("to"))
        return src is None or dst is None or len(dst) < len(src)
    return True


def replace(node: exp.Replace, ctx: ConversionContext, env) -> exp.Expression | None:
    """REPLACE(s, x[, r]): a missing or NULL r removes x; a NULL x leaves s unchanged.

    PostgreSQL needs three arguments and returns NULL when x or r is NULL. The rule runs before
    the ''-is-NULL rewrite reaches its arguments, so a literal '' is still recognisable here.
    """
    if not ctx.enabled("expr.replace"):
        return None
    ctx.applied("expr.replace")
    out = exp.Replace(
        this=text_operand(node.this, ctx, env),
        expression=_or_empty(node.expression),
        replacement=_or_empty(node.args.get("replacement")),
    )
    return tag(null_if_empty(out) if _can_empty(node) else out, STRING)


def _or_empty(arg: exp.Expression | None) -> exp.Expression:
    """A REPLACE argument where Oracle's NULL means 'nothing': '' for PostgreSQL."""
    if arg is None or isinstance(arg, exp.Null) or literal_str(arg) == "":
        return empty_text()
    if isinstance(arg, exp.Literal):
        return arg
    return exp.Coalesce(this=arg, expressions=[empty_text()])


# ---------------------------------------------------------------- implicit conversion to text


def as_text(part: exp.Expression, ctx: ConversionContext, env) -> exp.Expression:
    """One operand of ``||``/CONCAT as Oracle would print it.

    Numbers print in Oracle's minimal form (9.50 → '9.5', 0.5 → '.5'), DATEs as DD-MON-RR and
    TIMESTAMPs as DD-MON-RR HH.MI.SSXFF AM;
    PostgreSQL keeps the numeric scale and prints ISO timestamps. Operands of unknown type go
    through ``oracompat.to_text`` too: its overloads pick the conversion by run-time type.
    """
    if isinstance(part, exp.Null) or not ctx.enabled("expr.implicit_to_text"):
        return part
    if isinstance(part, exp.Literal):
        return part if part.is_string else _number_literal_text(part)
    kind = env.kind(part)
    if kind == INTERVAL:
        return intervals.as_text(part, ctx, env)
    if kind == STRING:
        return part
    ctx.applied("expr.implicit_to_text")
    if kind == TIMESTAMP:  # Oracle TIMESTAMP: the default NLS_TIMESTAMP_FORMAT, not DATE's
        out = exp.ToChar(this=part, format=exp.Literal.string(_NLS_TIMESTAMP_FORMAT))
        out.meta["ora_done"] = True
        return out
    return compat("to_text", part)


# NLS_TIMESTAMP_FORMAT 'DD-MON-RR HH.MI.SSXFF AM' (AMERICAN) as a PostgreSQL template.
_NLS_TIMESTAMP_FORMAT = "DD-MON-YY HH12.MI.SS.US AM"


def text_operand(arg: exp.Expression, ctx: ConversionContext, env) -> exp.Expression:
    """The string argument of LPAD/RPAD, SUBSTR, INSTR: Oracle converts a NUMBER or DATE there
    implicitly, PostgreSQL has no such function signature (lpad(bigint, integer) does not exist).
    Of the operands of unknown type only record fields (``r.col`` where ``r`` is no table of the
    statement: a cursor loop record, typed by its query) go through the run-time overloads; a
    bare unknown name is almost always text and stays as written."""
    if env.is_char(arg):
        return char_text(arg, ctx)
    kind = env.kind(arg)
    record_field = isinstance(arg, exp.Column) and arg.table and arg.table.lower() not in env.aliases
    if kind not in (NUMBER, DATE) and not (kind is None and record_field):
        return arg
    if not ctx.enabled("expr.implicit_to_text"):
        return arg
    ctx.applied("expr.implicit_to_text")
    return compat("to_text", arg)


def char_text(arg: exp.Expression, ctx: ConversionContext) -> exp.Expression:
    """A CHAR(n) value as Oracle's text: blank-padded to n (LENGTH counts the blanks, SUBSTR and
    INSTR see them); PostgreSQL's cast of char(n) to text would drop them."""
    if not ctx.enabled("expr.char_semantics"):
        return arg
    ctx.applied("expr.char_semantics")
    return tag(compat("to_text", arg), STRING)


def char_compare(node: exp.Expression, ctx: ConversionContext, env) -> exp.Expression | None:
    """CHAR compared with VARCHAR2: Oracle compares without blank-padding ('AB    ' <> 'AB');
    PostgreSQL would cast the char(n) to text and drop the blanks. CHAR with CHAR or a literal
    compares blank-padded in both."""
    left, right = node.this, node.expression
    for char, other, key in ((left, right, "this"), (right, left, "expression")):
        if env.is_char(char) and not env.is_char(other) and not isinstance(other, exp.Literal):
            if env.kind(other) == STRING:
                node.set(key, char_text(char, ctx))
            return None
    return None


def length(node: exp.Length, ctx: ConversionContext, env) -> exp.Expression | None:
    """LENGTH(n) counts the characters of n's text in Oracle; PostgreSQL has no length(numeric)."""
    node.set("this", text_operand(node.this, ctx, env))
    return None


def _number_literal_text(lit: exp.Literal) -> exp.Expression:
    """A numeric literal's Oracle text, decided now: ``5.50`` prints as '5.5', ``0.5`` as '.5'."""
    try:
        value = Decimal(lit.this)
    except InvalidOperation:
        return lit
    text = format(value.normalize(), "f") if value != 0 else "0"
    text = re.sub(r"^(-?)0\.", r"\1.", text)
    return exp.Literal.string(text)


# ---------------------------------------------------------------- NLS parameters

# the two characters quoted (NLS_NUMERIC_CHARACTERS='.,') or not (NLS_NUMERIC_CHARACTERS=.,): Oracle reads both
_NUMERIC_CHARS = re.compile(r"^\s*NLS_NUMERIC_CHARACTERS\s*=\s*(?:'(.)(.)'|([^'\s])([^'\s]))\s*$", re.I)
_DATE_LANGUAGE = re.compile(r"^\s*NLS_DATE_LANGUAGE\s*=\s*'?(AMERICAN|ENGLISH)'?\s*$", re.I)


def numeric_chars(node: exp.Expression) -> tuple[str, str] | None:
    """(decimal, group) characters of a literal ``'NLS_NUMERIC_CHARACTERS=''dg'''``, else None."""
    m = _NUMERIC_CHARS.match(literal_str(node.args.get("nlsparam")) or "")
    if m is None:
        return None
    return (m.group(1), m.group(2)) if m.group(1) is not None else (m.group(3), m.group(4))


def _plain_format(fmt: exp.Expression) -> exp.Expression:
    """D/G → '.'/',' in a literal number format: PostgreSQL's D/G follow lc_numeric instead."""
    text = literal_str(fmt)
    if text is None:
        return fmt
    return exp.Literal.string(text.replace("D", ".").replace("d", ".").replace("G", ",").replace("g", ","))


def to_number_nls(node: exp.ToNumber, ctx: ConversionContext, env) -> exp.Expression | None:
    """TO_NUMBER(s, fmt, 'NLS_NUMERIC_CHARACTERS=''dg''') → to_number(translate(s, 'dg', '.,'), fmt)."""
    if node.args.get("nlsparam") is None or not ctx.enabled("expr.nls_numeric"):
        return None
    chars = numeric_chars(node)
    if chars is None or node.args.get("format") is None:
        return marker(
            ctx, "TO_NUMBER NLS parameter", node, "only a literal NLS_NUMERIC_CHARACTERS with a format is supported"
        )
    ctx.applied("expr.nls_numeric")
    text = exp.Anonymous(
        this="TRANSLATE", expressions=[node.this, exp.Literal.string("".join(chars)), exp.Literal.string(".,")]
    )
    return tag(fn("TO_NUMBER", text, _plain_format(node.args["format"])), NUMBER)


def to_char_default(node: exp.Expression, ctx: ConversionContext, env) -> exp.Expression | None:
    """TO_CHAR(x) without a format is the implicit conversion (PostgreSQL would keep the scale)."""
    if node.args.get("format") is not None or not ctx.enabled("expr.implicit_to_text"):
        return None
    if env.kind(node.this) == INTERVAL:  # as the interval's type prints it (expr.interval_arith)
        return intervals.as_text(node.this, ctx, env)
    ctx.applied("expr.implicit_to_text")
    return tag(compat("to_text", node.this), STRING)


def to_char_nls(node: exp.ToChar, ctx: ConversionContext, env) -> exp.Expression | None:
    """TO_CHAR(x, fmt, nls): English date names are the default (parameter dropped); numeric
    characters become a translate of the '.'/',' output; other NLS settings are reported."""
    nls = node.args.get("nlsparam")
    if nls is None or not ctx.enabled("expr.nls_numeric"):
        return None
    if _DATE_LANGUAGE.match(literal_str(nls) or ""):
        ctx.applied("expr.nls_numeric")
        node.set("nlsparam", None)
        return None  # the date-format rule converts what remains
    chars = numeric_chars(node)
    if chars is None or node.args.get("format") is None or env.kind(node.this) in (DATE, TIMESTAMP):
        return marker(ctx, "TO_CHAR NLS parameter", node, f"unsupported NLS parameter {nls.sql(dialect='oracle')}")
    ctx.applied("expr.nls_numeric")
    out: exp.Expression = exp.ToChar(this=node.this, format=_plain_format(node.args["format"]))
    # the format itself as TO_CHAR without the parameter reads it (TM9, overflow '#'s ...)
    from migrator.convert.sql import dates  # dates imports the format rules, which import this module

    read = dates.to_char(out, ctx, env)
    if read is not None:
        out = read
    out.meta["ora_done"] = True
    if chars == (".", ","):
        return tag(out, STRING)
    return tag(
        exp.Anonymous(
            this="TRANSLATE", expressions=[out, exp.Literal.string(".,"), exp.Literal.string("".join(chars))]
        ),
        STRING,
    )
