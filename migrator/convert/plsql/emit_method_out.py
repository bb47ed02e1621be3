"""Calls of object type methods that change SELF or set OUT parameters (rule
plsql.function_out_params, extended to MEMBER methods).

A MEMBER method's SELF is an IN parameter of a function and IN OUT of a procedure, unless the
method declares it (``MEMBER FUNCTION pop(SELF IN OUT stack) RETURN INTEGER``). A member function
whose SELF is IN OUT, or that has OUT / IN OUT parameters, converts as any function with OUT
parameters does (`emit_outfunc`): ``<type>__<method>(INOUT self <type>, ..., OUT "RETURN" t)
RETURNS record``. Oracle copies SELF back into the object the call was made on when the method
returns, and each OUT argument into its variable; so a call ``obj.pop()`` in an expression is
hoisted before its statement,

    SELECT * INTO tmp FROM <type>__pop(obj);  obj := tmp.self;

(a package variable's setter instead of ``obj :=``; OUT arguments written back as
`emit_outfunc.write_back` does) and the expression reads ``tmp."RETURN"``. Where the object is a
value no assignment can write back (a collection element, a function's result), the call is
reported rather than run on a copy that would silently drop the change.

Procedures: a member procedure of the same name as such a function, taking the same inputs, is
``<type>__<method>__proc`` (`signatures.procedure_name`, as for a package); call statements name
it so. Both names are computed here from the same signatures the definitions are named from
(`emit_unit.sibling_methods`: the type's MEMBER methods as declared).
"""

from __future__ import annotations

import dataclasses

from harness.quoting import quote_ident
from migrator.convert import signatures
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import emit_call as call_
from migrator.convert.plsql import emit_decl as decl_
from migrator.convert.plsql import emit_outfunc as outfunc_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import targets as targets_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import derived, label, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import Scope
from migrator.convert.signatures import Binding, RoutineSig
from migrator.source.lexer import LexError, Token, matching_paren, split_top_level

_MEMBER = ("MEMBER", "MAP", "ORDER")


def member_signatures(em: Emitter, key: tuple[str, str], method: str) -> list[RoutineSig]:
    """The converted signatures of the type's MEMBER methods named `method`, as declared (an
    explicit SELF parameter first; an implicit one absent)."""
    routines = [r for r in em.resolver.object_methods(key).get(method, []) if r.flavour in _MEMBER]
    if not routines:
        return []
    return decl_.local_signatures(em, routines, derived(key, method), Scope())


def _explicit_self(sig: RoutineSig) -> bool:
    return bool(sig.params) and sig.params[0].name == "self"


def self_mode(sig: RoutineSig) -> str:
    """SELF's mode: as declared, else IN for a function and IN OUT for a procedure."""
    if _explicit_self(sig):
        return sig.params[0].mode
    return "IN" if sig.kind == "FUNCTION" else "INOUT"


def _without_self(sig: RoutineSig) -> RoutineSig:
    return dataclasses.replace(sig, params=sig.params[1:]) if _explicit_self(sig) else sig


def changes_caller(sig: RoutineSig) -> bool:
    """A member function whose call must be hoisted: SELF IN OUT, or OUT parameters."""
    return sig.kind == "FUNCTION" and outfunc_.sets_out(sig.params)


def procedure_name(em: Emitter, key: tuple[str, str], method: str, nargs: int) -> str:
    """The PostgreSQL routine a call statement ``obj.method(...)`` with `nargs` arguments reaches:
    ``<type>__<method>``, or ``__proc`` after it when a function of the name takes the same
    inputs (the definition is named so by `emit_routine.procedure_name`)."""
    sigs = member_signatures(em, key, method)
    procs = [s for s in sigs if s.kind == "PROCEDURE" and len(_without_self(s).params) >= nargs]
    name = derived(key, method)
    if len(procs) != 1:
        return sql(name)
    return sql((name[0], signatures.procedure_name(sigs, procs[0])))


def member_out_call(
    em: Emitter, key: tuple[str, str], obj: str, self_target: str | None, method: str, toks, j, scope
) -> tuple[str, int] | None:
    """``obj.method(args)`` (toks[j] at its '(' or past the name) when it reaches a member
    function that changes SELF or sets OUT parameters: (the expression's text, index after the
    call), the call hoisted before the statement; None when it reaches no such function.
    `self_target` is the statement that writes SELF back with ``{value}`` in it, None where there
    is nothing to write back to."""
    sigs = member_signatures(em, key, method)
    if not any(changes_caller(s) for s in sigs):
        return None
    inner: list[Token] = []
    after = j
    if j < len(toks) and toks[j].is_op("("):
        inner, after = _paren(toks, j)
    pieces = [
        (norm_name(a[0]), a[2:]) if len(a) > 2 and a[1].is_op("=>") else (None, a)
        for a in (split_top_level(inner) if inner else [])
    ]
    typed = [exprs_.expr_typed(em, value, scope, name) for name, value in pieces]
    stripped = [_without_self(s) for s in sigs]
    chosen = _binding(sigs, stripped, [arg for _, arg in typed])
    if chosen is None:
        return None  # an overload that changes nothing: the usual call
    what = f"{label(key)}.{method}"
    reason = ""
    if isinstance(chosen, str):
        reason = f"{what}: {chosen}"
    elif not em.ctx.enabled("plsql.function_out_params"):
        reason = "rule plsql.function_out_params is disabled"
    elif em.frame.hoisted is None:
        reason = f"{what} changes SELF or OUT parameters where no statement can run before it (a declaration, a query)"
    elif any(t.kind == "word" and t.upper in outfunc_._CONDITIONAL for t in toks[:j]):
        reason = f"{what} changes SELF or OUT parameters in an operand Oracle evaluates only on some paths"
    if not reason and not isinstance(chosen, str):
        full = sigs[stripped.index(chosen.sig)]
        if self_mode(full) == "INOUT" and self_target is None:
            reason = f"{what} changes SELF, and the object it is called on is no variable to write it back to"
    if reason:
        em.unconverted("member function changing SELF or OUT parameters", reason, toks[j - 1] if j else None)
        return unconverted_marker("member function changing SELF or OUT parameters", what), after
    assert isinstance(chosen, Binding) and em.frame.hoisted is not None
    full = sigs[stripped.index(chosen.sig)]
    pg_name = outfunc_.own_name(sigs, full)
    tmp = targets_.temp(em, "record")
    texts, back = [obj], []
    if self_mode(full) == "INOUT":
        assert self_target is not None
        back.append(self_target.replace("{value}", f"{tmp}.self"))
    for (name, value), (text, arg), param in zip(pieces, typed, chosen.params):
        if param.mode != "OUT":
            text = call_.in_argument(em, text, arg, param, len(sigs) > 1)
            texts.append(f"{quote_ident(name)} => {text}" if name is not None else text)
        if param.mode != "IN":
            outfunc_.write_back(em, value, f"{tmp}.{quote_ident(param.name)}", scope, back)
    em.frame.hoisted.append(f"SELECT * INTO {tmp} FROM {sql((full.target[0], pg_name))}({', '.join(texts)});")
    em.frame.hoisted.extend(back)
    em.ctx.applied("plsql.function_out_params")
    return f"{tmp}.{outfunc_.RESULT}", after


def own_type(scope: Scope, parts: list[str]) -> tuple[str, str] | None:
    """The object type whose method is being converted, when `parts` is a bare call of one of
    its MEMBER methods there (`emit_unit.sibling_methods`: SELF passed first)."""
    if len(parts) != 1:
        return None
    sym, me = scope.get(parts[0]), scope.get("self")
    if sym is None or sym.kind != "routine" or sym.extras != ("self",) or me is None or me.type is None:
        return None
    key = me.type.object_key
    return key if key is not None and sym.routine == derived(key, parts[0]) else None


def sibling_call(em: Emitter, parts: list[str], toks, j, scope: Scope) -> tuple[str, int] | None:
    """A bare ``method(...)`` in a method of the same type reaching a member function that
    changes SELF or sets OUT parameters: SELF.method(...), hoisted (None otherwise)."""
    key = own_type(scope, parts)
    if key is None:
        return None
    return member_out_call(em, key, "self", "self := {value};", parts[0], toks, j, scope)


def _binding(sigs: list[RoutineSig], stripped: list[RoutineSig], args) -> Binding | str | None:
    """The member function Oracle binds the call to (its signature without SELF) when it changes
    SELF or sets OUT parameters; a message when overloads that do and that do not both fit;
    None otherwise (as `emit_outfunc.binding`, SELF's mode counted)."""
    chosen = signatures.choose(stripped, args, "FUNCTION")
    if isinstance(chosen, Binding):
        return chosen if changes_caller(sigs[stripped.index(chosen.sig)]) else None
    if isinstance(chosen, str):
        return None  # Oracle refuses the call: reported where the call is converted as usual
    fits = [k for k, s in enumerate(stripped) if s.kind == "FUNCTION" and signatures.bind(s, args) is not None]
    changing = [k for k in fits if changes_caller(sigs[k])]
    if len(fits) == 1 and changing:
        params = signatures.bind(stripped[fits[0]], args)
        assert params is not None
        return Binding(stripped[fits[0]], params)
    if changing:
        return "overloads that change SELF and that do not fit these arguments (their types are not known)"
    return None


def _paren(toks, j):
    """(tokens inside the '(' at toks[j], index after its ')'), as `values.paren_at`."""
    try:
        k = matching_paren(toks, j)
    except LexError:
        return toks[j + 1 :], len(toks)
    return toks[j + 1 : k], k + 1
