"""Whole units: standalone routines, anonymous blocks and object type bodies (packages are
`emit_package`, triggers `emit_trigger`). Each routine is emitted in a routine frame of its own."""

from __future__ import annotations

import dataclasses

from migrator.convert.context import unconverted_marker
from migrator.convert.datatypes import map_type
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_package as package_
from migrator.convert.plsql import values as values_
from migrator.convert.plsql.emit_routine import RoutineEmitter, dollar_tag
from migrator.convert.plsql.naming import derived, label, oracle_tokens
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
    out = []
    for r in tb.routines:
        out.append(type_method(em, r, qtype, info.attributes if isinstance(info, ObjectType) else {}))
    return "\n\n".join(out)


def type_method(em, r: A.Routine, qtype: tuple[str, str], attrs: dict) -> str:
    if r.flavour == "CONSTRUCTOR" and r.block is not None:
        return type_constructor(em, r, qtype, attrs)
    if r.flavour in ("CONSTRUCTOR", "MAP", "ORDER"):
        em.unconverted(f"{r.flavour} method", f"{label(qtype)}.{r.name}: {r.flavour} methods are not converted", r.line)
        return unconverted_marker(f"{r.flavour} method", r.name) + ";"
    scope = Scope()
    params = list(r.params)
    if r.flavour == "MEMBER":
        for name, ora in attrs.items():
            scope.add(Sym(name, "selfattr", PgType(map_type(ora, em.ctx), ora)))
        sibling_methods(em, scope, qtype)
        if not (params and params[0].name == "self"):  # SELF declared explicitly: as written
            mode = "INOUT" if r.kind == "PROCEDURE" else "IN"
            # the type as Oracle tokens, resolved again like any declared type
            params = [A.Param("self", mode, A.TypeRef(oracle_tokens(qtype)))] + params
    lifted = A.Routine(r.kind, r.name, params, r.returns, r.block, r.pipelined, r.external, r.line)
    with em.routine_frame(derived(qtype, r.name)) as frame:
        text = RoutineEmitter(em).routine(lifted, frame.owner, scope, frame.owner)
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
        scope.add(Sym(name, "selfattr", PgType(map_type(ora, em.ctx), ora)))
    sibling_methods(em, scope, qtype)
    own = A.TypeRef(oracle_tokens(qtype))
    assert r.block is not None
    block = dataclasses.replace(r.block, decls=[A.VarDecl("self", own)] + list(r.block.decls))
    lifted = A.Routine("FUNCTION", "new", list(r.params), own, block, line=r.line)
    with em.routine_frame(derived(qtype, "new")) as frame:
        frame.returns_self = True
        text = RoutineEmitter(em).routine(lifted, frame.owner, scope, frame.owner)
    text = "\n\n".join(em.pre + [text])
    em.pre = []
    return text


def sibling_methods(em, scope: Scope, qtype: tuple[str, str]) -> None:
    """Inside a constructor or MEMBER method, a bare call of another MEMBER method is SELF's:
    each is a routine symbol taking `self` first, as a lifted nested subprogram takes the
    enclosing variables (emit_nested), so calls in statements and expressions pass it."""
    for name, sigs in values_.object_methods(em, qtype).items():
        members = [m for m in sigs if m.flavour == "MEMBER"]
        if members:
            scope.add(Sym(name, "routine", routine=derived(qtype, name), sigs=members, extras=("self",)))
