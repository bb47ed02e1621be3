"""Functions that return a value and set OUT / IN OUT parameters (rule plsql.function_out_params).

Oracle's function returns its value and, on return, copies its OUT and IN OUT parameters back
into the caller's variables. PostgreSQL has no such function: one with OUT parameters returns
them as a row and has no other result. The converted function is therefore

    CREATE FUNCTION f(a numeric, INOUT b numeric, OUT c text, OUT "RETURN" numeric) RETURNS record

its OUT parameters and, last, its return value as the column ``"RETURN"`` (a name no converted
identifier has: they fold to lower case, and Oracle's RETURN is reserved); RETURN x becomes
``"RETURN" := x; RETURN;``. This shape rather than a composite type of our own: PostgreSQL
binds its IN and INOUT arguments, positional and named, with their defaults, as Oracle does;
it needs no DDL before the function; and `SELECT * INTO r FROM f(...)` reads it in every
PL/pgSQL position.

Every call site is a PL/SQL expression (Oracle refuses such a function in SQL, ORA-06572, and so
does this conversion, with that reason). The call is hoisted before the statement that holds it:
``SELECT * INTO tmp FROM f(a, b);`` then each OUT / IN OUT argument is assigned its column and
the call's place in the expression reads ``tmp."RETURN"``. Statements that evaluate a condition
more than once or only when reached (ELSIF, WHILE) are written so the hoisted call runs exactly
where Oracle runs the function (`emit_stmt`). A call that Oracle evaluates only on some paths of
its expression (after AND / OR, inside CASE, NVL, DECODE, COALESCE), or where no statement can
run before it (a declaration's initial value, a cursor's query), is reported, not hoisted.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from harness.quoting import quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_call as call_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import targets as targets_
from migrator.convert.plsql import values as values_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import label, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import Scope
from migrator.convert.signatures import Binding, RoutineSig, bind, choose
from migrator.source.lexer import Token, split_top_level

RESULT = '"RETURN"'  # the result column of a converted function with OUT parameters
# an operand after one of these is evaluated only on some paths (PL/SQL short-circuit evaluation)
_CONDITIONAL = frozenset({"AND", "OR", "CASE", "WHEN", "THEN", "ELSE", "NVL", "NVL2", "COALESCE", "DECODE"})


def sets_out(params) -> bool:
    """Any OUT or IN OUT parameter (A.Param or signatures.ParamSig)."""
    return any(p.mode != "IN" for p in params)


def out_function(sig: RoutineSig) -> bool:
    return sig.kind == "FUNCTION" and sets_out(sig.params)


@contextmanager
def hoisting(em: Emitter) -> Iterator[list[str]]:
    """Statements hoisted out of the expressions converted inside the `with` are collected in the
    list it gives (the enclosing statement's collection comes back after)."""
    saved, em.frame.hoisted = em.frame.hoisted, []
    try:
        yield em.frame.hoisted
    finally:
        em.frame.hoisted = saved


def out_call(
    em: Emitter, parts: list[str], toks: list[Token], i: int, j: int, scope: Scope, in_sql: bool, out, ph, types
) -> int | None:
    """`parts(` at toks[i..j] calling a function with OUT parameters: its converted place in the
    expression goes to the walk's `out` as a placeholder and the index after the call is
    returned; None when it calls no such function (nothing is converted then)."""
    sym = scope.get(parts[0])
    if sym is not None and sym.kind != "routine":
        return None  # a variable (a collection element, a record's field) is found first
    sigs = call_.call_signatures(em, parts, scope)
    if not sigs or not any(out_function(s) for s in sigs):
        return None
    inner, after = values_.paren_at(em, toks, j)
    pieces = [
        (norm_name(a[0]), a[2:]) if len(a) > 2 and a[1].is_op("=>") else (None, a)
        for a in (split_top_level(inner) if inner else [])
    ]
    typed = [exprs_.expr_typed(em, value, scope, name) for name, value in pieces]
    args = [arg for _, arg in typed]
    chosen = binding(sigs, args)
    if chosen is None:
        return None  # an overload without OUT parameters, or a call Oracle refuses: the usual path
    what = label(tuple(parts))
    construct, reason = "", ""
    if isinstance(chosen, str):
        construct, reason = "function with OUT parameters", f"{what}: {chosen}"
    elif in_sql:
        construct = "function with OUT parameters in SQL"
        reason = f"{what} has OUT parameters: Oracle refuses it in SQL (ORA-06572)"
    elif not em.ctx.enabled("plsql.function_out_params"):
        construct, reason = "function OUT parameter", "rule plsql.function_out_params is disabled"
    elif em.frame.hoisted is None:
        construct = "function with OUT parameters"
        reason = f"{what} sets OUT parameters where no statement can run before it (a declaration, a query)"
    elif any(t.kind == "word" and t.upper in _CONDITIONAL for t in toks[:i]):
        construct = "function with OUT parameters"
        reason = f"{what} sets OUT parameters in an operand Oracle evaluates only on some paths"
    if reason:
        em.unconverted(construct, reason, toks[i])
        out.append(exprs_.placeholder(em, unconverted_marker(construct, what), ph, types))
        return after
    assert not isinstance(chosen, str)
    text = hoist(em, parts, chosen, own_name(sigs, chosen.sig), pieces, typed, scope)
    em.ctx.applied("plsql.function_out_params")
    out.append(exprs_.placeholder(em, text, ph, types, chosen.sig.returns_ora))
    return after


def binding(sigs: list[RoutineSig], args) -> Binding | str | None:
    """The function overload Oracle binds the call to when it has OUT parameters; a message when
    the overloads cannot be told apart and one of them has; None otherwise."""
    chosen = choose(sigs, args, "FUNCTION")
    if isinstance(chosen, Binding):
        return chosen if out_function(chosen.sig) else None
    if isinstance(chosen, str):
        return None  # Oracle refuses the call: reported where the call is converted as usual
    fits = [s for s in sigs if s.kind == "FUNCTION" and bind(s, args) is not None]
    if fits and all(out_function(s) for s in fits) and len(fits) == 1:
        params = bind(fits[0], args)
        assert params is not None
        return Binding(fits[0], params)
    if any(out_function(s) for s in fits):
        return "overloads with and without OUT parameters fit these arguments (their types are not known)"
    return None


def hoist(em: Emitter, parts: list[str], chosen: Binding, pg_name: str, pieces, typed, scope: Scope) -> str:
    """The call hoisted before the statement (em.frame.hoisted): the function's row into a record
    temporary, each OUT / IN OUT argument assigned its column; returns the return value's text."""
    assert em.frame.hoisted is not None
    target, _, _ = call_.resolve_routine(em, parts, scope)
    if pg_name != chosen.sig.target[1]:  # an overload of its own name (own_name)
        target = sql((chosen.sig.target[0], pg_name))
    sym = scope.get(parts[0]) if len(parts) == 1 else None
    texts = [quote_ident(n) for n in sym.extras] if sym is not None and sym.kind == "routine" else []
    back: list[str] = []
    tmp = targets_.temp(em, "record")
    overloaded = len(call_.call_signatures(em, parts, scope) or []) > 1
    for (name, value), (text, arg), param in zip(pieces, typed, chosen.params):
        if param.mode == "OUT":
            write_back(em, value, f"{tmp}.{quote_ident(param.name)}", scope, back)
            continue
        text = call_.in_argument(em, text, arg, param, overloaded)
        texts.append(f"{quote_ident(name)} => {text}" if name is not None else text)
        if param.mode == "INOUT":
            write_back(em, value, f"{tmp}.{quote_ident(param.name)}", scope, back)
    em.frame.hoisted.append(f"SELECT * INTO {tmp} FROM {target}({', '.join(texts)});")
    if sym is not None and sym.kind == "routine":  # a lifted nested function's enclosing variables
        back.extend(f"{quote_ident(n)} := {tmp}.{quote_ident(n)};" for n in sym.written)
    em.frame.hoisted.extend(back)
    return f"{tmp}.{RESULT}"


def write_back(em: Emitter, value: list[Token], column: str, scope: Scope, back: list[str]) -> None:
    """`value` := the function's OUT column, as Oracle copies it back on return."""
    lv = targets_.lvalue(em, value, scope)
    back.extend(lv.setup)
    if lv.target.startswith("aa:"):
        back.append(f"{lv.target[3:].replace('{value}', column)};")
    else:
        back.append(f"{lv.target} := {column};")
    back.extend(lv.finish)


def _inputs(sig: RoutineSig) -> tuple[str, ...]:
    return tuple(p.base for p in sig.params if p.mode != "OUT")


def own_name(sigs: list[RoutineSig], sig: RoutineSig) -> str:
    """The PostgreSQL name of function `sig` of overloads `sigs`. PostgreSQL identifies a routine
    by its input parameters, so an overload with OUT parameters whose inputs are those of another
    overload of the name (a function without them, a procedure) is ``<name>__out`` (``__out2`` ...
    for the next): its calls are all rewritten here, so none reaches it by the Oracle name."""
    name = sig.target[1]
    if not out_function(sig):
        return name
    same = [s for s in sigs if _inputs(s) == _inputs(sig)]
    if len(same) < 2:
        return name
    k = [s for s in same if out_function(s)].index(sig)
    return f"{name}__out" + (str(k + 1) if k else "")


def definition_name(em: Emitter, r, scope: Scope) -> str | None:
    """own_name of function `r` (a declaration) when it is not its Oracle name; None otherwise."""
    sigs = call_.call_signatures(em, [r.name], scope) or []
    names = tuple((p.name, p.mode) for p in r.params)
    mine = [s for s in sigs if tuple((p.name, p.mode) for p in s.params) == names and s.kind == r.kind]
    if len(mine) != 1:
        return None
    name = own_name(sigs, mine[0])
    return name if name != mine[0].target[1] else None


def falls_off(em: Emitter, block) -> list[str]:
    """What ends a function with OUT parameters whose body may end without RETURN: the error
    PostgreSQL raises for an ordinary function there (Oracle raises ORA-06503), where a function
    returning a row would return its NULLs."""
    if em.frame.out_result is None:
        return []

    def ends(body: list) -> bool:
        return bool(body) and isinstance(body[-1], A.Return)

    if ends(block.body) and all(ends(h.body) for h in block.handlers):
        return []
    return ["RAISE EXCEPTION 'control reached end of function without RETURN' USING ERRCODE = '2F005';"]
