"""Oracle-supplied packages in SQL expressions (rule expr.supplied_package): ``PKG.FUNC(args)``,
``PKG.FUNC`` without parentheses, ``PKG.CONSTANT``, with or without ``SYS.``; sqlglot's reading of
``DBMS_RANDOM.VALUE`` (exp.Rand). Functions become calls of the ``oracompat`` library with the same
(positional or named) arguments, constants their values (the table: `migrator.convert.supplied`).
A reference to a package without a PostgreSQL equivalent becomes a marker; the unit reports it once
per package (`supplied.report_redesign`). SYS_CONTEXT and USERENV (rule expr.sys_context) read the
session through ``oracompat.sys_context``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from sqlglot import exp

from migrator.convert import supplied as S
from migrator.convert.context import MARKER_TOKEN, ConversionContext
from migrator.convert.sql.nodes import compat, literal_str, marker, tag


def _user_object(ctx: ConversionContext, name: str) -> bool:
    return ctx.catalog.lookup(name) is not None


def _aliases(node: exp.Expression) -> set[str]:
    root = node.root()
    names = {t.alias_or_name.lower() for t in root.find_all(exp.Table)}
    return names | {c.alias_or_name.lower() for c in root.find_all(exp.CTE)}


def _silent_marker(ref: S.Ref, node: exp.Expression) -> exp.Expression:
    """Reported once for the whole unit by supplied.report_redesign, so nothing is recorded here."""
    return exp.var(S.redesign_marker(ref, node.sql(dialect="oracle")))


def pg_call(pg: str, args: Sequence[exp.Expression]) -> exp.Expression:
    schema, _, name = pg.rpartition(".")
    call = exp.Anonymous(this=name, expressions=args)
    return exp.Dot(this=exp.to_identifier(schema), expression=call) if schema else call


def call(node: exp.Dot, ctx: ConversionContext, env) -> exp.Expression | None:
    """``[SYS.]PKG.MEMBER(args)``."""
    if not isinstance(node.expression, exp.Anonymous) or not isinstance(node.expression.this, str):
        return None
    head = node.this
    parts = [head.name] if isinstance(head, exp.Identifier) else _dot_parts(head)
    if parts is None:
        return None
    hit = S.split_ref(parts + [node.expression.this], lambda name: _user_object(ctx, name))
    if hit is None or hit[1] != len(parts) + 1:
        return None
    return _member(hit[0], node, node.expression.expressions, ctx)


def _dot_parts(node: exp.Expression) -> list[str] | None:
    if (
        isinstance(node, exp.Dot)
        and isinstance(node.this, exp.Identifier)
        and isinstance(node.expression, exp.Identifier)
    ):
        return [node.this.name, node.expression.name]
    return None


def reference(node: exp.Column, ctx: ConversionContext, env) -> exp.Expression | None:
    """``[SYS.]PKG.NAME`` without parentheses: a constant or a function without arguments."""
    if not node.table or not (S.is_supplied(node.table) or (node.db and S.is_supplied(node.db))):
        return None
    if node.table.lower() in _aliases(node):
        return None
    parts = ([node.db] if node.db else []) + [node.table, node.name]
    hit = S.split_ref(parts, lambda name: _user_object(ctx, name))
    if hit is None or hit[1] != len(parts):
        return None
    ref = hit[0]
    if (ref.package, ref.member) in S.CONSTANTS and not S.is_redesign(ref):
        if not ctx.enabled("expr.supplied_package"):
            return marker(ctx, S.SUPPLIED_CONSTRUCT, node, "rule expr.supplied_package is disabled")
        ctx.applied("expr.supplied_package")
        return tag(exp.Literal.number(S.CONSTANTS[(ref.package, ref.member)]), S.NUMBER)
    return _member(ref, node, [], ctx)


def rand(node: exp.Rand, ctx: ConversionContext, env) -> exp.Expression | None:
    """sqlglot reads DBMS_RANDOM.VALUE[(low, high)] as RAND: low <= x < high, not RANDOM(low, high)."""
    args = [a for a in (node.args.get("lower"), node.args.get("upper")) if a is not None]
    return _member(S.Ref("DBMS_RANDOM", "VALUE"), node, args, ctx)


# members whose first argument is a query's text, which PostgreSQL will run: a literal one is
# converted as static SQL is (one with :binds stays as written, for SETBINDVALUE to fill)
_QUERY_TEXT = frozenset({"DBMS_XMLGEN.NEWCONTEXT", "DBMS_XMLGEN.GETXML"})


def _query_literal(lit: exp.Literal, ctx: ConversionContext) -> exp.Expression:
    from migrator.convert.sql.convert import convert_statement  # convert.py imports this module

    text = lit.this
    if re.search(r":[A-Za-z]", text) or not re.match(r"\s*(SELECT|WITH)\b", text, re.I):
        return lit
    out = convert_statement(text, ctx)
    return lit if MARKER_TOKEN in out else exp.Literal.string(out.rstrip().rstrip(";"))


def _member(ref: S.Ref, node: exp.Expression, args: list, ctx: ConversionContext) -> exp.Expression:
    if S.is_redesign(ref):
        return _silent_marker(ref, node)
    m = S.member(ref)
    if m is None or m.kind != "FUNCTION":
        what = "a procedure called in an expression" if m is not None else "no conversion for this member"
        return marker(ctx, S.SUPPLIED_CONSTRUCT, node, f"{ref.label.lower()}: {what}")
    if not ctx.enabled("expr.supplied_package"):
        return marker(ctx, S.SUPPLIED_CONSTRUCT, node, "rule expr.supplied_package is disabled")
    out: list[exp.Expression] = []
    for k, a in enumerate(args):
        if isinstance(a, exp.Kwarg):
            name = a.this.name.lower()
            if m.param(name) is None:
                return marker(ctx, S.SUPPLIED_CONSTRUCT, node, f"{ref.label.lower()} has no parameter {name}")
            out.append(exp.Kwarg(this=exp.to_identifier(name), expression=a.expression))
        elif k >= len(m.params):
            return marker(ctx, S.SUPPLIED_CONSTRUCT, node, f"{ref.label.lower()}: too many arguments")
        elif k == 0 and m.label in _QUERY_TEXT and isinstance(a, exp.Literal) and a.is_string:
            out.append(_query_literal(a, ctx))
        else:
            out.append(a)
    ctx.applied("expr.supplied_package")
    return tag(pg_call(m.pg, out), m.result)


# SYS_CONTEXT('USERENV', p): the attributes with a PostgreSQL meaning (oracompat.sys_context);
# a literal one without is reported.
USERENV = frozenset(
    """SESSION_USER CURRENT_USER AUTHENTICATED_IDENTITY CURRENT_SCHEMA DB_NAME DB_UNIQUE_NAME CON_NAME SID
    SESSIONID IP_ADDRESS MODULE ACTION CLIENT_INFO CLIENT_IDENTIFIER LANG LANGUAGE NLS_TERRITORY
    NLS_DATE_LANGUAGE NLS_DATE_FORMAT NLS_CALENDAR NLS_CURRENCY NLS_SORT ISDBA""".split()
)


def bfilename(node: exp.Anonymous, ctx: ConversionContext, env) -> exp.Expression | None:
    """BFILENAME(directory, file): a locator, the file untouched (oracompat.bfile)."""
    if node.name.upper() != "BFILENAME" or len(node.expressions) != 2:
        return None
    if not ctx.enabled("expr.supplied_package"):
        return marker(ctx, "BFILENAME", node, "rule expr.supplied_package is disabled")
    ctx.applied("expr.supplied_package")
    return compat("bfilename", *node.expressions)


def sys_context(node: exp.Anonymous, ctx: ConversionContext, env) -> exp.Expression | None:
    name = node.name.upper()
    if name not in ("SYS_CONTEXT", "USERENV"):
        return None
    args = list(node.expressions)
    if name == "USERENV":
        if len(args) != 1:
            return None
        args = [exp.Literal.string("USERENV"), *args]
    if len(args) not in (2, 3):
        return None
    if not ctx.enabled("expr.sys_context"):
        return marker(ctx, name, node, "rule expr.sys_context is disabled")
    namespace, attribute = literal_str(args[0]), literal_str(args[1])
    if (namespace or "").upper() == "USERENV" and attribute is not None and attribute.strip().upper() not in USERENV:
        return marker(ctx, name, node, f"USERENV attribute {attribute} has no PostgreSQL meaning")
    ctx.applied("expr.sys_context")
    return tag(compat("sys_context", *args), S.STRING)


_XML_FUNCTIONS = {"EXTRACTVALUE": (2, 3, S.STRING), "EXISTSNODE": (2, 3, S.NUMBER), "XMLTYPE": (1, 1, None)}


def xml_function(node: exp.Anonymous, ctx: ConversionContext, env) -> exp.Expression | None:
    """EXTRACTVALUE(x, path [, nsmap]), EXISTSNODE(x, path [, nsmap]) and XMLTYPE(text) in SQL (rule
    plsql.xmltype): the ``oracompat`` XPath functions over PostgreSQL's xml."""
    name = node.name.upper()
    shape = _XML_FUNCTIONS.get(name)
    if shape is None or not shape[0] <= len(node.expressions) <= shape[1] or _user_object(ctx, name.lower()):
        return None
    if not ctx.enabled("plsql.xmltype"):
        return marker(ctx, name, node, "rule plsql.xmltype is disabled")
    ctx.applied("plsql.xmltype")
    call = compat("xmltype" if name == "XMLTYPE" else f"xml_{name.lower()}", *node.expressions)
    if name == "XMLTYPE":
        call.meta["xml"] = True  # its members may follow (xml_value_method)
    return tag(call, shape[2]) if shape[2] else call


def xml_constructor(node: exp.Dot, ctx: ConversionContext, env) -> exp.Expression | None:
    """``[SYS.]XMLTYPE.CREATEXML(text)`` and ``SYS.XMLTYPE(text)`` in SQL (rule plsql.xmltype): the
    static constructor and the owner-qualified constructor are XMLTYPE(text), a well-formed
    document (``oracompat.xmltype``), as PL/SQL converts them (`plsql/emit_xml.py`)."""
    call = node.expression
    if not isinstance(call, exp.Anonymous) or not isinstance(call.this, str) or len(call.expressions) != 1:
        return None
    head = node.this
    parts = [head.name] if isinstance(head, exp.Identifier) else _dot_parts(head)
    if parts is None:
        return None
    up = [p.upper() for p in parts] + [call.this.upper()]
    if up not in (["XMLTYPE", "CREATEXML"], ["SYS", "XMLTYPE", "CREATEXML"], ["SYS", "XMLTYPE"]):
        return None
    if up[0] == "XMLTYPE" and _user_object(ctx, "xmltype"):
        return None  # the schema's own XMLTYPE
    if not ctx.enabled("plsql.xmltype"):
        return marker(ctx, "XMLTYPE", node, "rule plsql.xmltype is disabled")
    ctx.applied("plsql.xmltype")
    return compat("xmltype", *call.expressions)


# XMLTYPE's members on an XML expression in SQL (`XMLELEMENT(...).getClobVal()`,
# `XMLTYPE(t).extract(path).getNumberVal()`), as the PL/SQL emitter converts them on a variable
# (plsql/emit_xml.py METHODS): member → (oracompat function, argument counts, result kind; None: xml)
_XML_METHODS: dict[str, tuple[str, tuple[int, ...], str | None]] = {
    "GETCLOBVAL": ("xml_getstringval", (0,), S.STRING),
    "GETSTRINGVAL": ("xml_getstringval", (0,), S.STRING),
    "GETNUMBERVAL": ("xml_getnumberval", (0,), S.NUMBER),
    "EXTRACT": ("xml_extract", (1, 2), None),
    "EXISTSNODE": ("xml_existsnode", (1, 2), S.NUMBER),
}
_XML_PRODUCERS = (exp.XMLElement, exp.XMLTable)
_XML_PRODUCER_NAMES = frozenset({"XMLTYPE", "XMLAGG", "XMLFOREST", "XMLCONCAT", "XMLPARSE"})


def xml_value_method(node: exp.Dot, ctx: ConversionContext, env) -> exp.Expression | None:
    member = node.expression
    if not isinstance(member, exp.Anonymous) or not isinstance(member.this, str):
        return None
    shape = _XML_METHODS.get(member.this.upper())
    this = node.this
    if isinstance(this, exp.Dot):  # a chain (x.extract(p).getNumberVal()): the inner member first
        inner = xml_value_method(this, ctx, env)
        this = inner if inner is not None else this
    producer = (
        isinstance(this, _XML_PRODUCERS)
        or bool(this.meta.get("xml"))
        or (isinstance(this, exp.Anonymous) and this.name.upper() in _XML_PRODUCER_NAMES)
    )
    if shape is None or len(member.expressions) not in shape[1] or not producer:
        return None
    if not ctx.enabled("plsql.xmltype"):
        return marker(ctx, member.this.upper(), node, "rule plsql.xmltype is disabled")
    ctx.applied("plsql.xmltype")
    call = compat(shape[0], this, *member.expressions)
    if shape[2] is None:
        call.meta["xml"] = True
        return call
    return tag(call, shape[2])
