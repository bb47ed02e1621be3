"""Nested subprograms: lifted to top-level routines named ``<outer>__<inner>``.

A lifted routine cannot see its parent's variables, so those it uses are passed to it: as leading
IN parameters of a function that only reads them, as leading INOUT parameters of a procedure (its
writes come back to the caller's variables, as they would in Oracle). Every call adds them, and a
nested subprogram that calls another passes on what the other needs. A function that writes an
enclosing variable takes that variable INOUT: it becomes a function with OUT parameters
(`emit_outfunc`'s shape: a row with the written variables and the "RETURN" column), each call is
hoisted before its statement and the variables are assigned back from the row, so the caller sees
the writes when the function returns, as in Oracle (a call Oracle evaluates only on some paths of
its expression, or where no statement can run before it, is reported). One that uses an enclosing
cursor is marked unconverted.
"""

from __future__ import annotations

import dataclasses

from harness.quoting import quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_decl as decl_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import Owner, derived, label, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import Scope, Sym
from migrator.source.lexer import Token

_LOCAL_KINDS = ("var", "const", "param", "cursor", "loopvar")


def words_in(node, acc: set[str]) -> set[str]:
    """Every identifier (plain name) occurring anywhere in a subtree."""
    if isinstance(node, Token):
        if node.kind in ("word", "qident"):
            acc.add(norm_name(node))
    elif isinstance(node, (list, tuple)):
        for x in node:
            words_in(x, acc)
    elif dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            words_in(getattr(node, f.name), acc)
    return acc


def anchored_type(name: str) -> list[Token]:
    """`name%TYPE`, resolved in the enclosing scope: the variable's own type."""
    return [Token("word", name, 0, 0), Token("op", "%", 0, 0), Token("word", "TYPE", 0, 0)]


def assigned_names(node) -> set[str]:
    """Names a subtree may write: assignment and INTO targets, arguments of procedure calls and
    collections whose EXTEND/DELETE/TRIM it calls (conservative)."""
    out: set[str] = set()
    if isinstance(node, A.Assign) and node.target and node.target[0].kind in ("word", "qident"):
        out.add(norm_name(node.target[0]))
    elif isinstance(node, A.Fetch):
        out |= {norm_name(t[0]) for t in node.into if t}
    elif isinstance(node, A.Sql):
        into = next((k for k, t in enumerate(node.toks) if t.is_word("INTO")), None)
        out |= (
            {norm_name(t) for t in node.toks[into + 1 :] if t.kind in ("word", "qident")} if into is not None else set()
        )
    elif isinstance(node, A.Call):
        out |= words_in(node.args or [], set()) | ({norm_name(node.name[0])} if node.name else set())
    elif isinstance(node, A.ExecImmediate):
        out |= {norm_name(t[0]) for t in node.into if t}
    if isinstance(node, (list, tuple)):
        for x in node:
            out |= assigned_names(x)
    elif dataclasses.is_dataclass(node) and not isinstance(node, Token):
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            if isinstance(value, (list, A.Stmt, A.Block)) and f.name not in ("target", "toks", "into", "args", "name"):
                out |= assigned_names(value)
    return out


def outer_locals(scope: Scope) -> set[str]:
    names: set[str] = set()
    s: Scope | None = scope
    while s is not None:
        names |= {n for n, sym in s.names.items() if sym.kind in _LOCAL_KINDS}
        s = s.parent
    return names


def _same_signature(a: A.Routine, b: A.Routine) -> bool:
    """Whether two declarations of a name declare the same subprogram (a forward declaration and
    its body must agree on kind, parameter names, modes and types; PL/SQL Language Reference,
    "Forward Declaration"), rather than two overloads."""

    def shape(r: A.Routine) -> tuple:
        return r.kind, tuple((p.name.lower(), p.mode, " ".join(p.type.text.upper().split())) for p in r.params)

    return shape(a) == shape(b)


def _same_arity(a: A.Routine, b: A.Routine) -> bool:
    return len(a.params) == len(b.params)


def nested_routine(em: Emitter, r: A.Routine, scope: Scope, owner: Owner) -> None:
    lifted = derived(owner, r.name)
    sym = scope.names.get(r.name)
    if sym is None or sym.kind != "routine":
        sym = scope.add(Sym(r.name, "routine", routine=lifted))
    # A body replaces its forward declaration (same parameters); an overload of the same arity
    # (f(d DATE) beside f(n NUMBER)) is a signature of its own.
    same = _same_signature
    if em.ctx.enabled("plsql.nested_overload"):
        if len(sym.sigs) > 1 or (sym.sigs and not same(sym.sigs[0], r)):
            em.ctx.applied("plsql.nested_overload")
    else:
        same = _same_arity  # the rule off: one subprogram per name and arity (overloads lost)
    if not any(same(x, r) and x.block is not None for x in sym.sigs):
        sym.sigs = [x for x in sym.sigs if not same(x, r)] + [r]
    # calls in expressions and SQL bind to it like calls to the catalog's routines
    em.ctx.local_routines[lifted] = decl_.local_signatures(em, sym.sigs, lifted, scope)
    if r.block is None:
        return  # forward declaration
    if (off := em.rule_off("plsql.nested_subprogram", "nested subprogram", r.name, r.line)) is not None:
        em.pre.append(off + ";")
        return
    em.ctx.applied("plsql.nested_subprogram")
    own = {p.name for p in r.params} | {getattr(d, "name", "") for d in r.block.decls}
    used = words_in(r.block, set()) - own
    callee_writes: set[str] = set()
    for name in sorted(used):  # what the nested subprograms it calls need (and write), it does too
        callee = scope.get(name)
        if callee is not None and callee.kind == "routine":
            used |= set(callee.extras)
            callee_writes |= set(callee.written)
    extras = sorted((used - own) & outer_locals(scope))
    cursors = [n for n in extras if (s := scope.get(n)) is not None and s.kind == "cursor"]
    writes = assigned_names(r.block) | callee_writes
    written = sorted(set(extras) & writes) if r.kind == "FUNCTION" else []
    if cursors or (written and not em.ctx.enabled("plsql.function_out_params")):
        what = f"the enclosing cursor(s) {', '.join(cursors)}" if cursors else f"writes {', '.join(written)}"
        em.unconverted(
            "nested subprogram",
            f"{r.name} uses the enclosing routine's variables ({what}); it cannot be lifted to {label(lifted)}",
            r.line,
        )
        em.pre.append(unconverted_marker("nested subprogram", r.name) + ";")
        return
    sym.extras, sym.written = tuple(extras), tuple(written)
    mode = "INOUT" if r.kind == "PROCEDURE" else "IN"
    anchored = [  # typed as the variable
        A.Param(n, "INOUT" if n in written else mode, A.TypeRef(anchored_type(n))) for n in extras
    ]
    em.pre.append(lift(em, dataclasses.replace(r, params=anchored + list(r.params)), lifted, scope))
    passed = f" (the enclosing {', '.join(extras)} passed {mode} first)" if extras else ""
    if written:
        em.ctx.applied("plsql.function_out_params")
        passed += f"; it writes {', '.join(written)}: passed INOUT and assigned back after each call"
    em.ctx.note(f"nested {r.kind.lower()} {r.name} lifted to {sql(lifted)}{passed}")


def nested_call_args(em: Emitter, sym: Sym, args: list[str]) -> list[str]:
    """A call's arguments with the enclosing variables a lifted subprogram takes first."""
    return [quote_ident(n) for n in sym.extras] + args


def nested_function_call(em: Emitter, sym: Sym, args: list[str], toks: list[Token], i: int, in_sql: bool) -> str:
    """A call (at toks[i]) of a lifted nested function that writes enclosing variables: hoisted
    before the statement into a record, the variables assigned back from it; returns the text
    of the call's value (or a marker, reported, where it cannot be hoisted)."""
    from migrator.convert.plsql import emit_outfunc as outfunc_
    from migrator.convert.plsql import targets as targets_

    assert sym.routine is not None
    what = label(sym.routine)
    reason = ""
    if in_sql:
        reason = f"{what} writes the enclosing {', '.join(sym.written)}: Oracle refuses it in SQL"
    elif em.frame.hoisted is None:
        reason = f"{what} writes enclosing variables where no statement can run before it (a declaration, a query)"
    elif any(t.kind == "word" and t.upper in outfunc_._CONDITIONAL for t in toks[:i]):
        reason = f"{what} writes enclosing variables in an operand Oracle evaluates only on some paths"
    hoisted = em.frame.hoisted
    if reason or hoisted is None:
        em.unconverted("nested subprogram", reason, toks[i])
        return unconverted_marker("nested subprogram", what)
    tmp = targets_.temp(em, "record")
    hoisted.append(f"SELECT * INTO {tmp} FROM {sql(sym.routine)}({', '.join(nested_call_args(em, sym, args))});")
    hoisted.extend(f"{quote_ident(n)} := {tmp}.{quote_ident(n)};" for n in sym.written)
    return f"{tmp}.{outfunc_.RESULT}"


def lift(em: Emitter, r: A.Routine, lifted: tuple[str, str], scope: Scope) -> str:
    from migrator.convert.plsql.emit_routine import RoutineEmitter

    with em.routine_frame(lifted):
        return RoutineEmitter(em).routine(r, lifted, scope, lifted, lift_guard(em))


def lift_guard(em: Emitter) -> list[str]:
    return [f"PERFORM {sql((em.pkg, 'initialize__'))}();"] if em.pkg else []
