"""XMLTYPE in PL/SQL expressions (rule plsql.xmltype): the constructor ``XMLTYPE(text)`` /
``XMLTYPE.CREATEXML(text)`` and the member functions of an XMLTYPE value (a variable, a
parameter, a constructor's or another method's result) become calls of the ``oracompat`` XML
functions over PostgreSQL's ``xml`` (`oracompat/packages_text_xml.sql`): EXTRACT, EXISTSNODE,
GETSTRINGVAL, GETCLOBVAL, GETNUMBERVAL, ISFRAGMENT. A member without a PostgreSQL meaning
(TRANSFORM needs an XSLT processor, SCHEMAVALIDATE an XML schema registry) is reported at its call
site instead of being left for PostgreSQL to refuse."""

from __future__ import annotations

from harness.quoting import quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import emit_stmt as stmt_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import values as values_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import PgType
from migrator.source.lexer import LexError, matching_paren

# member → (oracompat function, PostgreSQL and Oracle type of the result); PgType is mutable, so
# each use builds its own
METHODS: dict[str, tuple[str, str, str]] = {
    "EXTRACT": ("oracompat.xml_extract", "xml", "XMLTYPE"),
    "EXISTSNODE": ("oracompat.xml_existsnode", "numeric", "NUMBER"),
    "GETSTRINGVAL": ("oracompat.xml_getstringval", "text", "VARCHAR2"),
    "GETCLOBVAL": ("oracompat.xml_getstringval", "text", "CLOB"),
    "GETNUMBERVAL": ("oracompat.xml_getnumberval", "numeric", "NUMBER"),
    "ISFRAGMENT": ("oracompat.xml_isfragment", "numeric", "NUMBER"),
}
# members Oracle has and PostgreSQL cannot give the same meaning
UNSUPPORTED = frozenset(
    {"TRANSFORM", "SCHEMAVALIDATE", "ISSCHEMAVALID", "ISSCHEMAVALIDATED", "SETSCHEMAVALIDATED", "CREATESCHEMABASEDXML",
     "CREATENONSCHEMABASEDXML", "GETSCHEMAURL", "GETROOTELEMENT", "GETNAMESPACE", "TOOBJECT", "GETBLOBVAL", "CONFORMING"}
)  # fmt: skip


def is_xml(ptype: PgType | None) -> bool:
    return ptype is not None and (ptype.pg == "xml" or (ptype.ora or "").upper() in ("XMLTYPE", "SYS.XMLTYPE"))


def is_constructor(parts) -> bool:
    up = [p.upper() for p in parts]
    return up in (["XMLTYPE"], ["SYS", "XMLTYPE"], ["XMLTYPE", "CREATEXML"], ["SYS", "XMLTYPE", "CREATEXML"])


def constructor(em: Emitter, parts, toks, j, scope):
    """XMLTYPE(text) / XMLTYPE.CREATEXML(text), then any member calls on the result."""
    if j >= len(toks) or not toks[j].is_op("("):
        return None
    start = toks[j]
    inner, j = values_.paren_at(em, toks, j)
    if (off := em.rule_off("plsql.xmltype", "XMLTYPE", "XMLTYPE(...)", start)) is not None:
        return off, j, ""
    args = stmt_.call_args(em, inner, scope) if inner else []
    if len(args) != 1:
        em.unconverted("XMLTYPE", "XMLTYPE constructor with other than one argument (schema-based XML)", toks[j - 1])
        return unconverted_marker("XMLTYPE", "XMLTYPE(...)"), j, ""
    em.ctx.applied("plsql.xmltype")
    text, j, ptype = chain(em, f"oracompat.xmltype({args[0]})", PgType("xml", "XMLTYPE"), [], toks, j, scope)
    return text, j, (ptype.ora if ptype else "")


def method(em: Emitter, base: str, name: str, toks, j, scope) -> tuple[str, int, PgType | None]:
    """`base.name[(args)]` for an XMLTYPE value `base`."""
    args: list[str] = []
    if j < len(toks) and toks[j].is_op("("):
        inner, j = values_.paren_at(em, toks, j)
        args = stmt_.call_args(em, inner, scope) if inner else []
    up = name.upper()
    if (off := em.rule_off("plsql.xmltype", f"XMLTYPE {up}", f"{base}.{name}", toks[j - 1] if j else None)) is not None:
        return off, j, None
    if up not in METHODS:
        why = "no PostgreSQL meaning" if up in UNSUPPORTED else "not a member this library converts"
        em.unconverted(f"XMLTYPE {up}", f"XMLTYPE member {up}: {why}", toks[j - 1] if j else None)
        return unconverted_marker(f"XMLTYPE {up}", f"{base}.{name}"), j, None
    fn, pg, ora = METHODS[up]
    em.ctx.applied("plsql.xmltype")
    return f"{fn}({', '.join([base] + args)})", j, PgType(pg, ora)


def chain(em: Emitter, base: str, ptype: PgType | None, rest: list[str], toks, j, scope):
    """Apply member calls to an XMLTYPE value: the names still in `rest` (a.b.c read as one name),
    then `.member(...)` following in the tokens."""
    rest = list(rest)
    while is_xml(ptype):
        if rest:
            name = rest.pop(0)
            if rest:  # a member in the middle of a name path takes no arguments
                base, _, ptype = method(em, base, name, [], 0, scope)
                continue
            base, j, ptype = method(em, base, name, toks, j, scope)
            continue
        if j + 1 < len(toks) and toks[j].is_op(".") and toks[j + 1].kind in ("word", "qident"):
            base, j, ptype = method(em, base, norm_name(toks[j + 1]), toks, j + 2, scope)
            continue
        break
    return base, j, ptype


# ---- TABLE(XMLSEQUENCE(x)) in a query ----------------------------------------------------------------
def sequence_aliases(toks) -> set[str]:
    """The aliases of the ``TABLE(XMLSEQUENCE(...)) alias`` items of a statement (lower case)."""
    out: set[str] = set()
    for i in range(len(toks) - 3):
        if toks[i].is_word("TABLE") and toks[i + 1].is_op("(") and toks[i + 2].is_word("XMLSEQUENCE"):
            try:
                k = matching_paren(toks, i + 1)
            except LexError:
                continue
            if k + 1 < len(toks) and toks[k + 1].kind in ("word", "qident") and not toks[k + 1].is_word(*_NOT_ALIAS):
                out.add(norm_name(toks[k + 1]))
    return out


_NOT_ALIAS = ("WHERE", "JOIN", "ON", "GROUP", "ORDER", "CONNECT", "START", "UNION", "MINUS", "INTERSECT", "LEFT",
              "RIGHT", "FULL", "INNER", "CROSS", "HAVING", "FETCH", "FOR")  # fmt: skip


def table_sequence(em: Emitter, toks, i, scope):
    """``TABLE(XMLSEQUENCE(x))`` → the top-level nodes of x as rows of one column COLUMN_VALUE (an
    XMLTYPE each); (pg text, index after) or None when toks[i] starts no such item."""
    if not (i + 3 < len(toks) and toks[i + 1].is_op("(") and toks[i + 2].is_word("XMLSEQUENCE")):
        return None
    if not toks[i + 3].is_op("(") or not em.ctx.enabled("plsql.xmltype"):
        return None
    outer, j = values_.paren_at(em, toks, i + 1)
    inner, k = values_.paren_at(em, outer, 1)
    if k != len(outer) or not inner:
        return None
    value = exprs_.expr(em, inner, scope)
    em.ctx.applied("plsql.xmltype")
    em.temp_counter += 1
    text = f"LATERAL (SELECT u.column_value FROM unnest(oracompat.xml_sequence({value})) AS u(column_value))"
    nxt = toks[j] if j < len(toks) else None
    if nxt is None or not (nxt.kind in ("word", "qident") and not nxt.is_word(*_NOT_ALIAS)):
        text += f" AS xmlseq__{em.temp_counter}"
    return text, j


def value_of(em: Emitter, toks, i, aliases: set[str]):
    """``VALUE(t)`` of a TABLE(XMLSEQUENCE(...)) item t: its COLUMN_VALUE."""
    if not (
        i + 3 < len(toks)
        and toks[i + 1].is_op("(")
        and toks[i + 2].kind in ("word", "qident")
        and toks[i + 3].is_op(")")
        and norm_name(toks[i + 2]) in aliases
    ):
        return None
    return f"{quote_ident(norm_name(toks[i + 2]))}.column_value", i + 4
