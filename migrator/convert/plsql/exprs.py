"""PL/SQL expressions and embedded SQL: resolve the PL/SQL-only parts, then hand over to sqlglot.

A token walk resolves, with scope knowledge, what sqlglot cannot know: package variables (→ getter
calls), collection elements and methods, cursor and SQL% attributes, :NEW/:OLD, INSERTING/UPDATING/
DELETING, SQLCODE/SQLERRM, sibling package members. Each resolved piece becomes an opaque
placeholder identifier (``plx__N``) whose PostgreSQL text is final; the rest goes through
`migrator.convert.sql.convert` and the placeholders are substituted back in its output.
"""

from __future__ import annotations

import re

from harness.quoting import quote_ident
from migrator.convert import type_hierarchy as hier
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import emit_bulk as bulk_
from migrator.convert.plsql import emit_collections as coll_
from migrator.convert.plsql import emit_method_out as method_out_
from migrator.convert.plsql import emit_nested as nested_
from migrator.convert.plsql import emit_outfunc as outfunc_
from migrator.convert.plsql import emit_package as package_
from migrator.convert.plsql import emit_stmt as stmt_
from migrator.convert.plsql import emit_trigger as trigger_
from migrator.convert.plsql import emit_xml as xml_
from migrator.convert.plsql import sqlconv
from migrator.convert.plsql import values as values_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import oracle_tokens, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.signatures import Arg
from migrator.convert.sql.implicit import text_argument
from migrator.source.lexer import Token, split_top_level

_PH = re.compile(r"plx__\d+")
_CURSOR_ATTRS = {"FOUND", "NOTFOUND", "ISOPEN", "ROWCOUNT", "BULK_ROWCOUNT", "BULK_EXCEPTIONS"}
_ARR_METHODS = {"COUNT", "FIRST", "LAST", "EXISTS", "NEXT", "PRIOR", "LIMIT"}


def render(tokens: list[Token]) -> str:
    """Tokens back to text, spaced as in the source (Oracle's `(+)` must stay unspaced);
    placeholders and tokens from different places get one space."""
    out: list[str] = []
    prev = None
    for t in tokens:
        if prev is not None and (t.kind == "ph" or prev.kind == "ph" or t.start != prev.end or t.end == 0):
            out.append(" ")
        out.append(t.text)
        prev = t
    return "".join(out)


# ---- public entry points -----------------------------------------------------------------
def expr(em: Emitter, toks: list[Token] | None, scope) -> str:
    return expr_typed(em, toks, scope, typed=False)[0]


def expr_typed(
    em: Emitter, toks: list[Token] | None, scope, name: str | None = None, typed: bool = True
) -> tuple[str, Arg]:
    """The PostgreSQL text of an expression, and what is known of its type (as an argument
    named `name`, for binding a call; `typed=False` skips finding it out)."""
    if not toks:
        return "", Arg(name)
    # NEW t(...): the object constructor invoked with Oracle's optional keyword (two adjacent
    # names are nothing else in a PL/SQL expression)
    toks = [
        t
        for k, t in enumerate(toks)
        if not (t.is_word("NEW") and k + 1 < len(toks) and toks[k + 1].kind in ("word", "qident"))
    ]
    ph: dict[str, str] = {}
    types: dict[str, str] = {}
    walked = walk(em, toks, scope, ph, types)
    text = render(walked)
    scope_types = scope.types_map()  # once: walking the scope chain was ~4 % of a conversion
    types.update(scope_types)
    arg = text_argument(text, em.ctx, types, name) if typed else Arg(name)
    fast = sqlconv.fast_text(walked, scope_types, lambda n: scope.get(n) is not None, types)
    if fast is not None:
        return _unph(em, fast, ph), arg
    out = sqlconv.convert("expr", text, em.ctx, types)
    return _unph(em, out, ph), arg


def sql_text(em: Emitter, toks: list[Token], scope) -> str:
    ph: dict[str, str] = {}
    types: dict[str, str] = {}
    walked = walk(em, toks, scope, ph, types, in_sql=True)
    text = render(walked)
    types.update(scope.types_map())
    out = sqlconv.convert("stmt", text, em.ctx, types)
    return _unph(em, out, ph)


def _unph(em: Emitter, text: str, ph: dict[str, str]) -> str:
    if not ph:
        return text
    # placeholders may nest (an index expression holding a package variable)
    for _ in range(3):
        text = _PH.sub(lambda m: ph.get(m.group(), m.group()), text)
        if "plx__" not in text:
            break
    return text


def placeholder(em: Emitter, pg_text: str, ph: dict, types: dict, ora: str = "") -> Token:
    em.ph_counter += 1
    name = f"plx__{em.ph_counter}"
    ph[name] = pg_text
    if ora:
        types[name] = ora
    return Token("ph", name, 0, 0)


# ---- the walk --------------------------------------------------------------------------
def walk(em: Emitter, toks, scope, ph, types, in_sql: bool = False) -> list[Token]:
    out: list[Token] = []
    i, n = 0, len(toks)
    seq = xml_.sequence_aliases(toks) if in_sql and any(t.is_word("XMLSEQUENCE") for t in toks) else set()
    while i < n:
        t = toks[i]
        if t.kind == "bind":
            i = walk_bind(em, toks, i, out, ph, types)
            continue
        if seq and t.is_word("TABLE") and (hit := xml_.table_sequence(em, toks, i, scope)) is not None:
            out.append(placeholder(em, hit[0], ph, types))  # TABLE(XMLSEQUENCE(x)): emit_xml
            i = hit[1]
            continue
        if seq and t.is_word("VALUE") and (hit := xml_.value_of(em, toks, i, seq)) is not None:
            out.append(placeholder(em, hit[0], ph, types, "XMLTYPE"))
            i = hit[1]
            continue
        if in_sql and t.is_word("TABLE") and i + 1 < n and toks[i + 1].is_op("("):
            hit = coll_.table_collection(em, toks, i, scope, ph, types)  # TABLE(collection): emit_collections
            if hit is not None:
                out.append(hit[0])
                i = hit[1]
                continue
        if t.is_word("TREAT") and i + 1 < n and toks[i + 1].is_op("(") and not (out and out[-1].is_op(".")):
            hit = treat(em, toks, i, scope, ph, types)
            if hit is not None:
                out.append(hit[0])
                i = hit[1]
                continue
        if t.is_word("IS") and out and i + 2 < n and (toks[i + 1].is_word("OF") or toks[i + 2].is_word("OF")):
            j = is_of(em, toks, i, out, ph, types)
            if j is not None:
                i = j
                continue
        if (
            t.is_word("NEW")
            and i + 2 < n
            and toks[i + 1].kind in ("word", "qident")
            and toks[i + 2].is_op("(", ".")
            and scope.get("new") is None
            and not (out and out[-1].text == "." and out[-1].kind == "op")
        ):
            # NEW t(...): an object constructor invocation, the keyword optional in Oracle
            j = walk_name(em, toks, i + 1, scope, out, ph, types, in_sql)
            if j is not None:
                i = j
                continue
        if t.kind in ("word", "qident") and not (out and out[-1].text == "." and out[-1].kind == "op"):
            j = walk_name(em, toks, i, scope, out, ph, types, in_sql)
            if j is not None:
                i = j
                continue
        out.append(t)
        i += 1
    return out


def _hierarchy_type(em: Emitter, toks) -> tuple[str, str] | None:
    """The hierarchy type (`type_hierarchy`) a type name's tokens name, or None."""
    parts = [norm_name(t) for t in toks if t.kind in ("word", "qident")]
    if not parts or len(parts) > 2 or len(toks) != 2 * len(parts) - 1:
        return None
    entry = package_.lookup(em, parts)
    if entry is None or not hier.in_hierarchy(em.ctx.catalog, (entry.schema, entry.name)):
        return None
    return entry.schema, entry.name


def _tags(em: Emitter, keys, only: bool) -> str:
    tags = [hier.tag(k) for key in keys for k in ([key] if only else hier.subtree(em.ctx.catalog, key))]
    return ", ".join(f"'{t}'" for t in dict.fromkeys(tags))


def treat(em: Emitter, toks, i, scope, ph, types):
    """TREAT(expr AS t) of a hierarchy type: the value when its type tag is t's or a subtype's,
    else NULL (Oracle's result), typed as t's domain; the value is computed once."""
    inner, j = values_.paren_at(em, toks, i + 1)
    k = next((n for n, t in enumerate(inner) if t.is_word("AS")), None)
    if k is None or k == 0:
        return None
    key = _hierarchy_type(em, inner[k + 1 :])
    if key is None:
        return None
    em.ctx.applied("ddl.object_type_hierarchy")
    value = expr(em, inner[:k], scope)
    tag = f"(x.v).{quote_ident(hier.TAG)}"
    text = f"((SELECT CASE WHEN {tag} IN ({_tags(em, [key], False)}) THEN x.v END::{sql(key)} FROM (SELECT {value} AS v) x))"
    # TREAT(x AS t).attr / .method(...): t's attributes and methods
    text, j, _ = values_.follow(em, text, em.resolver.schema_collection_type(list(key)), toks, j, scope)
    return placeholder(em, text, ph, types, key[1]), j


def is_of(em: Emitter, toks, i, out, ph, types) -> int | None:
    """``x IS [NOT] OF [TYPE] ([ONLY] t, ...)`` for hierarchy types: x's type tag among t's (and,
    without ONLY, their subtypes'). The operand is the token before IS (a name or a value)."""
    j = i + 1
    negate = toks[j].is_word("NOT")
    j += 1 if negate else 0
    if not toks[j].is_word("OF"):
        return None
    j += 1
    if j < len(toks) and toks[j].is_word("TYPE"):
        j += 1
    if j >= len(toks) or not toks[j].is_op("("):
        return None
    inner, end = values_.paren_at(em, toks, j)
    keys, only = [], False
    for item in split_top_level(inner):
        if item and item[0].is_word("ONLY"):
            only, item = True, item[1:]
        key = _hierarchy_type(em, item)
        if key is None:
            return None
        keys.append(key)
    operand = out[-1]
    if operand.kind not in ("word", "qident", "ph") or (len(out) > 1 and out[-2].is_op(".")):
        return None
    em.ctx.applied("ddl.object_type_hierarchy")
    value = (
        ph.get(operand.text, quote_ident(norm_name(operand)))
        if operand.kind == "ph"
        else quote_ident(norm_name(operand))
    )
    test = f"coalesce(({value}).{quote_ident(hier.TAG)} {'NOT ' if negate else ''}IN ({_tags(em, keys, only)}), false)"
    out[-1] = placeholder(em, f"({test})", ph, types, "BOOLEAN")
    return end


def walk_bind(em: Emitter, toks, i, out, ph, types) -> int:
    t = toks[i]
    name = t.text[1:].upper()
    alias = trigger_.trigger_alias(em, name) if em.frame.trigger is not None else None
    if alias:
        out.append(Token("word", alias, t.start, t.end))
        return i + 1
    em.unconverted("bind variable", f"host bind variable {t.text} has no PostgreSQL equivalent here", t)
    out.append(placeholder(em, unconverted_marker("bind variable", t.text), ph, types))
    return i + 1


def routine_rename(em: Emitter, parts, scope) -> tuple[str, str] | None:
    """(schema, name) of a sibling package member or a lifted nested subprogram."""
    if len(parts) != 1:
        return None
    sym = scope.get(parts[0])
    if sym is not None:
        return sym.routine if sym.kind == "routine" else None
    if em.pkg and parts[0] in package_.pkg_members(em, (em.pkg,)):
        return em.pkg, parts[0]
    return None


def called_bare(em: Emitter, parts, toks, j, scope, in_sql: bool) -> bool:
    """A sibling member or nested function named without parentheses: a call in PL/SQL (in SQL a
    bare name is a column first)."""
    if j < len(toks) and toks[j].is_op("(", "."):
        return False
    sym = scope.get(parts[0])
    if sym is not None and sym.kind == "routine":
        sigs = sym.sigs
    else:  # (routine_rename found a sibling member: the unit is a package)
        sigs = package_.pkg_members(em, (em.pkg,)).get(parts[0], []) if em.pkg else []
    return not in_sql and any(r.kind == "FUNCTION" and all(p.default is not None for p in r.params) for r in sigs)


def bare_function(em: Emitter, parts, toks, j, scope) -> tuple[str, ...] | None:
    """(schema, name) of a package or standalone function named without parentheses."""
    if (j < len(toks) and toks[j].is_op("(", ".")) or scope.get(parts[0]) is not None:
        return None
    ref = package_.package_member(em, parts)
    target: tuple[str, ...]
    if ref is not None:
        sigs, target = ref[2], (ref[0], ref[1])
    else:
        entry = package_.lookup(em, parts) if len(parts) <= 2 else None
        sigs = entry.routines if entry is not None else []
        target = (entry.schema, entry.name) if entry is not None else ()
    if any(r.kind == "FUNCTION" and all(p.default is not None for p in r.params) for r in sigs):
        return target
    return None


def chain(em: Emitter, toks, i) -> tuple[list[str], int]:
    """a.b.c → ([a, b, c], index after)."""
    parts = [norm_name(toks[i])]
    j = i + 1
    while j + 1 < len(toks) and toks[j].is_op(".") and toks[j + 1].kind in ("word", "qident"):
        parts.append(norm_name(toks[j + 1]))
        j += 2
    return parts, j


def walk_name(em: Emitter, toks, i, scope, out, ph, types, in_sql) -> int | None:
    parts, j = chain(em, toks, i)
    nxt = toks[j] if j < len(toks) else None
    if nxt is not None and nxt.is_op("%") and j + 1 < len(toks) and toks[j + 1].upper in _CURSOR_ATTRS:
        if parts == ["sql"] and toks[j + 1].upper in ("BULK_EXCEPTIONS", "BULK_ROWCOUNT"):
            text, k, ora = bulk_.bulk_attribute(em, toks[j + 1].upper, toks, j + 2, scope)  # emit_bulk
            out.append(placeholder(em, text, ph, types, ora))
            return k
        text = values_.cursor_attr(em, parts, toks[j + 1].upper, scope, toks[i])
        out.append(placeholder(em, text, ph, types, "NUMBER" if toks[j + 1].upper == "ROWCOUNT" else ""))
        return j + 2
    if (
        in_sql
        and i > 0
        and toks[i - 1].kind == "word"
        and toks[i - 1].upper in ("FROM", "JOIN", "INTO", "UPDATE", "TABLE")
    ):
        return None  # a table name, never a variable
    sibling = method_out_.sibling_call(em, parts, toks, j, scope)
    if sibling is not None:  # a MEMBER function changing SELF, called bare in a method of its type
        out.append(placeholder(em, sibling[0], ph, types))
        return sibling[1]
    if nxt is not None and nxt.is_op("("):  # a function with OUT parameters (emit_outfunc)
        called = outfunc_.out_call(em, parts, toks, i, j, scope, in_sql, out, ph, types)
        if called is not None:
            return called
    lifted = scope.get(parts[0]) if len(parts) == 1 else None
    if lifted is not None and lifted.kind == "routine" and lifted.extras and lifted.routine is not None:
        args: list[str] = []  # a nested function that takes enclosing variables (emit_nested)
        if j < len(toks) and toks[j].is_op("("):
            inner, j = values_.paren_at(em, toks, j)
            args = stmt_.call_args(em, inner, scope) if inner else []
        if lifted.written:  # it writes enclosing variables: hoisted, the writes assigned back
            text = nested_.nested_function_call(em, lifted, args, toks, i, in_sql)
        else:
            text = f"{sql(lifted.routine)}({', '.join(nested_.nested_call_args(em, lifted, args))})"
        out.append(placeholder(em, text, ph, types))
        return j
    renamed = routine_rename(em, parts, scope)
    if renamed is not None:
        # Oracle spelling again: the SQL converter reads the call with its arguments
        out.extend(oracle_tokens(renamed))
        if called_bare(em, parts, toks, j, scope, in_sql):
            out += [Token("op", "(", 0, 0), Token("op", ")", 0, 0)]
        return j
    if len(parts) >= 3 and nxt is not None and nxt.is_op("("):
        member = package_.package_member(em, parts)  # owner.pkg.f(...): a package is a schema of its own
        if member is not None and len(parts) == 3:
            out.extend(oracle_tokens((member[0], member[1])))
            return j
    if not in_sql or len(parts) > 1:
        callee = bare_function(em, parts, toks, j, scope)
        if callee is not None:  # a function called without parentheses: pkg.f, f
            out.extend(oracle_tokens(callee) + [Token("op", "(", 0, 0), Token("op", ")", 0, 0)])
            return j
    if in_sql and len(parts) == 1 and parts[0].upper() in ("SQLCODE", "SQLERRM") and scope.get(parts[0]) is None:
        # Oracle refuses SQLCODE / SQLERRM inside a SQL statement (PLS-00231): there the name is a
        # column of the statement's tables, left for the SQL converter
        return None
    res = values_.resolve_value(em, parts, toks, j, scope, ph, types)
    if res is None:
        return None
    text, j2, ora = res
    out.append(placeholder(em, text, ph, types, ora))
    return j2
