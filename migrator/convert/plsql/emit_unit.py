"""Whole units: standalone routines, anonymous blocks and object type bodies (packages are
`emit_package`, triggers `emit_trigger`). Each routine is emitted in a routine frame of its own."""

from __future__ import annotations

from migrator.convert.context import unconverted_marker
from migrator.convert.datatypes import map_type
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.emit_routine import RoutineEmitter, dollar_tag
from migrator.convert.plsql.naming import derived, label, oracle_tokens
from migrator.convert.plsql.parse_unit import TypeBody
from migrator.convert.plsql.symbols import PgType, Scope, Sym


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
    entry = em.lookup(tb.name)
    info = entry.info.get("plsql_type", {}) if entry is not None else {}
    qtype = (entry.schema, entry.name) if entry is not None else (em.schema, tb.name[-1])
    out = []
    for r in tb.routines:
        out.append(type_method(em, r, qtype, info.get("attrs", {})))
    return "\n\n".join(out)


def type_method(em, r: A.Routine, qtype: tuple[str, str], attrs: dict) -> str:
    if r.flavour in ("CONSTRUCTOR", "MAP", "ORDER"):
        em.unconverted(f"{r.flavour} method", f"{label(qtype)}.{r.name}: {r.flavour} methods are not converted", r.line)
        return unconverted_marker(f"{r.flavour} method", r.name) + ";"
    scope = Scope()
    params = list(r.params)
    if r.flavour == "MEMBER":
        for name, ora in attrs.items():
            scope.add(Sym(name, "selfattr", PgType(map_type(ora, em.ctx), ora)))
        mode = "INOUT" if r.kind == "PROCEDURE" else "IN"
        # the type as Oracle tokens, resolved again like any declared type
        params = [A.Param("self", mode, A.TypeRef(oracle_tokens(qtype)))] + params
    lifted = A.Routine(r.kind, r.name, params, r.returns, r.block, r.pipelined, r.external, r.line)
    with em.routine_frame(derived(qtype, r.name)) as frame:
        text = RoutineEmitter(em).routine(lifted, frame.owner, scope, frame.owner)
    text = "\n\n".join(em.pre + [text])
    em.pre = []
    return text
