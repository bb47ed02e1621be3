"""Whole units: standalone routines, anonymous blocks and object type bodies (packages are
`emit_package`, triggers `emit_trigger`). Each routine is emitted in a routine frame of its own."""

from __future__ import annotations

import dataclasses
import re

from harness.quoting import quote_ident
from migrator.convert import type_hierarchy as hier
from migrator.convert.context import unconverted_marker
from migrator.convert.datatypes import map_type
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_package as package_
from migrator.convert.plsql import values as values_
from migrator.convert.plsql.emit_routine import RoutineEmitter, dollar_tag
from migrator.convert.plsql.naming import derived, label, oracle_tokens, sql
from migrator.convert.plsql.parse_unit import TypeBody
from migrator.convert.plsql.symbols import PgType, Scope, Sym
from migrator.convert.schema_model import ObjectType


def emit_routine_unit(em, r: A.Routine) -> str:
    with em.routine_frame((em.schema, r.name)) as frame:
        text = RoutineEmitter(em).routine(r, frame.owner, Scope(), frame.owner)
    return "\n\n".join(em.pre + [text])


def emit_anonymous(em, block: A.Block) -> str:
    with em.routine_frame((em.schema, "anonymous")) as frame:
        body = RoutineEmitter(em).body(block, Scope(), frame.owner, [], [])
    text = "\n".join(body)
    tag = dollar_tag(text, "do")
    return "\n\n".join(em.pre + [f"DO {tag}\n{text}\n{tag};"])


def emit_type_body(em, tb: TypeBody) -> str:
    """Object type methods → functions/procedures ``<type>__<method>(self <type>, ...)``; inside a
    MEMBER routine, bare attribute names and SELF.x read the `self` parameter."""
    if not em.ctx.enabled("plsql.object_type_body"):
        em.unconverted("TYPE BODY", "rule plsql.object_type_body is disabled")
        return unconverted_marker("TYPE BODY", ".".join(tb.name)) + ";"
    em.ctx.applied("plsql.object_type_body")
    entry = package_.lookup(em, tb.name)
    info = entry.plsql_type if entry is not None else None
    qtype = (entry.schema, entry.name) if entry is not None else (em.schema, tb.name[-1])
    attrs = info.attributes if isinstance(info, ObjectType) else {}
    tagged = hier.in_hierarchy(em.ctx.catalog, qtype)
    if tagged:  # inherited attributes too
        attrs = hier.attributes(em.ctx.catalog, qtype)
    out = []
    for r in tb.routines:
        if tagged and r.flavour in ("MEMBER", "MAP", "ORDER") and r.block is not None:
            out.append(hierarchy_method(em, r, qtype, attrs))
        else:
            out.append(type_method(em, r, qtype, attrs))
        if r.flavour in ("MAP", "ORDER") and r.block is not None and hier.root(em.ctx.catalog, qtype) == qtype:
            out.append(comparison_operators(em, r, qtype))
    return "\n\n".join(out)


_OPERATORS = {"=": "eq", "<>": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}


def comparison_operators(em, r: A.Routine, qtype: tuple[str, str]) -> str:
    """A MAP or ORDER method orders the type's values: Oracle compares two instances with it
    (``a < b``, ``a = b``). PostgreSQL's operators on the composite (=, <>, <, <=, >, >=), each a
    strict SQL function over the method — MAP compares the scalars it returns, ORDER compares
    its result with 0 — take precedence over the generic record comparison for this type.
    (ORDER BY on the object itself would need a btree operator class, which only a superuser may
    create: it keeps PostgreSQL's attribute-wise order.)"""
    typ = sql(qtype)
    method = sql(derived(qtype, r.name))
    out = []
    for op, word in _OPERATORS.items():
        fn = sql(derived(qtype, f"{word}__{r.name}"))
        test = f"{method}(a) {op} {method}(b)" if r.flavour == "MAP" else f"{method}(a, b) {op} 0"
        out.append(
            f"CREATE OR REPLACE FUNCTION {fn}(a {typ}, b {typ})\nRETURNS boolean\nLANGUAGE sql STRICT AS $fn$ SELECT {test} $fn$;"
        )
        out.append(f"DROP OPERATOR IF EXISTS {qtype[0]}.{op} ({typ}, {typ});")
        out.append(f"CREATE OPERATOR {qtype[0]}.{op} (LEFTARG = {typ}, RIGHTARG = {typ}, FUNCTION = {fn});")
    em.ctx.note(f"{label(qtype)}: {r.flavour} method {r.name} defines the type's comparison operators")
    return "\n".join(out)


def hierarchy_method(em, r: A.Routine, qtype: tuple[str, str], attrs: dict) -> str:
    """A MEMBER method of a type in a hierarchy (`migrator.convert.type_hierarchy`): its body as
    ``<type>__<m>__own``, then for every type of the hierarchy that sees m the dispatcher
    ``<that type>__<m>(self <root composite>, ...)`` choosing the implementation by the type tag.
    Each implementing body writes the same complete dispatchers (the catalog knows the whole
    hierarchy), so whichever is deployed last, every one is right."""
    cat = em.ctx.catalog
    renamed = dataclasses.replace(r, name=f"{r.name}__own")
    text = type_method(em, renamed, qtype, attrs)
    own = sql(derived(qtype, renamed.name))
    m = re.search(r"CREATE OR REPLACE (FUNCTION|PROCEDURE) " + re.escape(own) + r"\(", text)
    if m is None:
        return text
    close = _close_paren(text, m.end())
    params = _split_params(text[m.end() : close])
    tail = text[close + 1 : text.index("LANGUAGE plpgsql AS", close)]
    names = [_param_name(p) for p in params]
    if not params or names[0] != "self" or any(p.split()[0].upper() == "OUT" for p in params):
        em.unconverted("MEMBER method dispatch", f"{label(qtype)}.{r.name}: its SELF or OUT parameters", r.line)
        return text
    root = hier.root(cat, qtype)
    first = params[0].split()
    params[0] = " ".join(first[: first.index("self") + 1] + [sql(root)])
    call = f"{{}}({', '.join(names)})"
    tagcol = f"self.{quote_ident(hier.TAG)}"
    out = [text]
    for a in hier.subtree(cat, root):
        if not hier.sees(cat, a, r.name):
            continue
        lines = []
        for t, impl in hier.dispatch_table(cat, a, r.name):
            if impl is None:
                lines.append(
                    f"        WHEN '{t}' THEN RAISE EXCEPTION 'ORA-04067: not executed, {r.name} of {t} does not exist';"
                )
                continue
            target = call.format(sql(derived(impl, renamed.name)))
            if m.group(1) == "FUNCTION":
                lines.append(f"        WHEN '{t}' THEN RETURN {target};")
            else:  # SELF IN OUT: through a variable of the implementing type (a domain over the root's)
                inner = target.replace("(self", "(self_", 1)
                lines.append(
                    f"        WHEN '{t}' THEN DECLARE self_ {sql(impl)} := self; BEGIN CALL {inner}; self := self_; END;"
                )
        lines.append("        ELSE RAISE EXCEPTION 'ORA-30625: method dispatch on NULL SELF argument is disallowed';")
        head = f"CREATE OR REPLACE {m.group(1)} {sql(derived(a, r.name))}({', '.join(params)}){tail}"
        body = "\n".join(["BEGIN", f"    CASE {tagcol}", *lines, "    END CASE;", "END;"])
        out.append(f"{head}LANGUAGE plpgsql AS $fn$\n{body}\n$fn$;")
    em.ctx.applied("ddl.object_type_hierarchy")
    return "\n\n".join(out)


def _close_paren(text: str, i: int) -> int:
    depth = 1
    while depth:
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    return i - 1


def _split_params(text: str) -> list[str]:
    out, depth, cur = [], 0, ""
    for ch in text:
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    return out + [cur.strip()] if cur.strip() else out


def _param_name(param: str) -> str:
    words = param.split()
    return words[1] if words[0].upper() in ("IN", "OUT", "INOUT", "VARIADIC") else words[0]


def _attr_type(em, qtype: tuple[str, str], name: str, ora: str) -> PgType:
    """SELF's attribute as a bare name in a method: its type, boxed where the hierarchy holds it as
    text (`type_hierarchy.boxed`)."""
    boxed = em.resolver.boxed_attribute(qtype, name)
    found = None if boxed or "(" in ora else em.resolver.schema_collection_type([p.lower() for p in ora.split(".")])
    if found is not None and found.coll is not None:  # a collection attribute: its elements and methods
        return dataclasses.replace(found, ora=found.ora or ora)
    return PgType(map_type(ora, em.ctx), ora, boxed=boxed)


def type_method(em, r: A.Routine, qtype: tuple[str, str], attrs: dict) -> str:
    if r.flavour == "CONSTRUCTOR" and r.block is not None:
        return type_constructor(em, r, qtype, attrs)
    if r.flavour == "CONSTRUCTOR" or (r.flavour in ("MAP", "ORDER") and r.block is None):
        em.unconverted(f"{r.flavour} method", f"{label(qtype)}.{r.name}: {r.flavour} methods are not converted", r.line)
        return unconverted_marker(f"{r.flavour} method", r.name) + ";"
    scope = Scope()
    params = list(r.params)
    if r.flavour in ("MEMBER", "MAP", "ORDER"):  # MAP/ORDER: member functions that order the type
        for name, ora in attrs.items():
            scope.add(Sym(name, "selfattr", _attr_type(em, qtype, name, ora)))
        sibling_methods(em, scope, qtype)
        if not (params and params[0].name == "self"):  # SELF declared explicitly: as written
            mode = "INOUT" if r.kind == "PROCEDURE" else "IN"
            # the type as Oracle tokens, resolved again like any declared type
            params = [A.Param("self", mode, A.TypeRef(oracle_tokens(qtype)))] + params
    lifted = A.Routine(r.kind, r.name, params, r.returns, r.block, r.pipelined, r.external, r.line)
    with em.routine_frame(derived(qtype, r.name)) as frame:
        routine = RoutineEmitter(em)
        # SELF IN OUT or OUT parameters: a row of them and the value; calls hoisted (emit_method_out)
        text = routine.routine(lifted, frame.owner, scope, frame.owner)
    text = "\n\n".join(em.pre + [text])
    em.pre = []
    return text


def type_constructor(em, r: A.Routine, qtype: tuple[str, str], attrs: dict) -> str:
    """CONSTRUCTOR FUNCTION t(...) RETURN SELF AS RESULT → a function ``<type>__new(...)`` returning
    the type: SELF is a local value of the type with every attribute NULL (as Oracle starts it),
    attributes read and write it, and RETURN gives it back. Calls with this argument list use it
    instead of the attribute-value constructor (emit_collections.constructor)."""
    scope = Scope()
    for name, ora in attrs.items():
        scope.add(Sym(name, "selfattr", _attr_type(em, qtype, name, ora)))
    sibling_methods(em, scope, qtype)
    own = A.TypeRef(oracle_tokens(qtype))
    assert r.block is not None
    block = dataclasses.replace(r.block, decls=[A.VarDecl("self", own)] + list(r.block.decls))
    lifted = A.Routine("FUNCTION", "new", list(r.params), own, block, line=r.line)
    with em.routine_frame(derived(qtype, "new")) as frame:
        frame.returns_self = True
        text = RoutineEmitter(em).routine(lifted, frame.owner, scope, frame.owner)
    if hier.in_hierarchy(em.ctx.catalog, qtype):  # SELF starts as an instance of this very type
        fields = hier.row_values(em.ctx.catalog, qtype, ["NULL"] * len(hier.attributes(em.ctx.catalog, qtype)))
        text = re.sub(
            r"^    self ([^\n]+);$",
            lambda m: f"    self {m.group(1)} := ROW({', '.join(fields or [])})::{m.group(1)};",
            text,
            count=1,
            flags=re.M,
        )
    text = "\n\n".join(em.pre + [text])
    em.pre = []
    return text


def sibling_methods(em, scope: Scope, qtype: tuple[str, str]) -> None:
    """Inside a constructor or MEMBER method, a bare call of another MEMBER method is SELF's:
    each is a routine symbol taking `self` first, as a lifted nested subprogram takes the
    enclosing variables (emit_nested), so calls in statements and expressions pass it."""
    for name, sigs in values_.object_methods(em, qtype).items():
        members = [m for m in sigs if m.flavour in ("MEMBER", "MAP", "ORDER")]
        if members:
            scope.add(Sym(name, "routine", routine=derived(qtype, name), sigs=members, extras=("self",)))
