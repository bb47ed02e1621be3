"""Oracle exceptions in PL/pgSQL (rules plsql.exceptions and plsql.raise_application_error):
exception declarations and PRAGMA EXCEPTION_INIT, RAISE, exception handlers, SQLCODE/SQLERRM and
RAISE_APPLICATION_ERROR.

A user exception becomes a SQLSTATE of its own (hashed from its owner and name, `harness.ground_truth.oracle_errors`);
EXCEPTION_INIT ties a name to an Oracle error, so it is raised and caught as that error's SQLSTATE
(or condition name); RAISE_APPLICATION_ERROR's -20000..-20999 map to SQLSTATEs the judge reads back
as the same ORA- codes. A handler that reads SQLERRM and can catch a constraint error fetches the
constraint's names with GET STACKED DIAGNOSTICS, because Oracle's message names them.
"""

from __future__ import annotations

from types import MappingProxyType

from harness.ground_truth.oracle_errors import (
    BY_NAME,
    ORA_ERRORS,
    USER_MESSAGE,
    app_error_sqlstate,
    user_exception_sqlstate,
)
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_stmt as stmt_
from migrator.convert.plsql import emit_supplied as supplied_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import values as values_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import Owner, label
from migrator.convert.plsql.output import Out
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.resolver import int_literal
from migrator.convert.plsql.statements import emits
from migrator.convert.plsql.symbols import Scope, Sym
from migrator.source.lexer import split_top_level


def _predefined(name: tuple[str, ...]):
    """The predefined Oracle exception (NO_DATA_FOUND ...) a name denotes, or None."""
    return BY_NAME.get(".".join(name).upper())


def exception_sym(em: Emitter, name: str, scope: Scope, owner: Owner, inits: list) -> Sym:
    # The declaration itself emits nothing: with the rule off, RAISE and handlers are refused.
    if em.ctx.enabled("plsql.exceptions"):
        em.ctx.applied("plsql.exceptions")
    for p in inits:
        if len(p.args) == 2 and norm_name(p.args[0][0]) == name:
            return scope.add(em.resolver.exception_init_sym(name, p, owner))
    state = user_exception_sqlstate(f"{label(owner)}.{name}")
    return scope.add(Sym(name, "exception", sqlstate=state, conditions=(f"SQLSTATE '{state}'",)))


# ---- RAISE and RAISE_APPLICATION_ERROR --------------------------------------------------------
@emits(A.Raise)
def st_raise(em: Emitter, st: A.Raise, scope: Scope, out: Out) -> None:
    if (off := em.rule_off("plsql.exceptions", "RAISE", f"RAISE {'.'.join(st.name or ())}", st.line)) is not None:
        out.line(f"{off};")
        return
    em.ctx.applied("plsql.exceptions")
    if st.name is None:
        out.line("RAISE;")
        return
    sym = exception_lookup(em, st.name, scope)
    if sym is not None:
        # the message is a value: a literal, whatever the exception's name holds
        msg = USER_MESSAGE if (sym.sqlstate or "").startswith("OU") else label(st.name)
        out.line(f"RAISE EXCEPTION USING ERRCODE = '{sym.sqlstate}', MESSAGE = {out.literal(msg)};")
        return
    pre = _predefined(st.name)
    if pre is not None:
        out.line(f"RAISE {pre.conditions[0]};")
        return
    em.unconverted("RAISE", f"unknown exception {label(st.name)}", st.line)
    out.line(f"{unconverted_marker('RAISE', 'RAISE ' + label(st.name))};")


def exception_lookup(em: Emitter, parts: tuple[str, ...], scope) -> Sym | None:
    return em.resolver.exception(parts, scope)


def raise_app_error(em: Emitter, st, scope, out: Out) -> None:
    if not em.ctx.enabled("plsql.raise_application_error"):
        em.unconverted("RAISE_APPLICATION_ERROR", "rule disabled", st.line)
        out.line(f"{unconverted_marker('RAISE_APPLICATION_ERROR')};")
        return
    args = split_top_level(st.args or [])
    if not args:  # Oracle refuses the call (PLS-00306): there is no error code to raise
        em.unconverted("RAISE_APPLICATION_ERROR", "called without an error number", st.line)
        out.line(f"{unconverted_marker('RAISE_APPLICATION_ERROR')};")
        return
    em.ctx.applied("plsql.raise_application_error")
    code = int_literal(args[0])
    msg = exprs_.expr(em, args[1], scope) if len(args) > 1 else "''"
    state = app_error_sqlstate(code) if code is not None else None
    errcode = f"'{state}'" if state else f"oracompat.app_errcode({exprs_.expr(em, args[0], scope)})"
    out.line(f"RAISE EXCEPTION USING ERRCODE = {errcode}, MESSAGE = coalesce({msg}, '');")


# ---- handlers, SQLCODE and SQLERRM ------------------------------------------------------------
def handler_lines(em: Emitter, handlers: list[A.Handler], scope, out: Out) -> None:
    """A block's EXCEPTION section, at the block's own level."""
    names = " OR ".join(".".join(n) for h in handlers for n in h.names)
    if (off := em.rule_off("plsql.exceptions", "EXCEPTION handlers", f"WHEN {names}", handlers[0].line)) is not None:
        with out.indented():
            out.line(f"{off};")  # in the block's body: the whole block is refused
        return
    em.ctx.applied("plsql.exceptions")
    out.line("EXCEPTION")
    with out.indented():
        for h in handlers:
            conds = []
            for name in h.names:
                conds.extend(handler_conditions(em, name, scope, h.line))
            out.line(f"WHEN {' OR '.join(dict.fromkeys(conds))} THEN")
            diag = diag_needs(conds)
            err = {"context": False}
            # what the handler's body needs around it is known once it is written
            with out.aside() as body:
                with em.within(in_handler=True, handler_diag=diag, handler_error=err):
                    stmt_.branch(em, h.body, scope, out)
            with out.indented():
                if diag is not None and diag["used"]:
                    with out.aside() as wrapped:
                        diag_wrap(em, body, diag, out)
                    body = wrapped
                with out.indented(), out.aside() as first:
                    supplied_.handler_error_lines(em, err, out)
                if first:  # the handler's error context, for FORMAT_ERROR_BACKTRACE (emit_supplied)
                    out.line("DECLARE")
                    with out.indented():
                        out.line("error__context text;")
                    out.line("BEGIN")
                    out.place(first)
                    out.place(body, deeper=1)
                    out.line("END;")
                else:
                    out.place(body)


# Oracle's SQLERRM names the constraint (or column) of a constraint error; PostgreSQL's
# SQLERRM does not, so a handler that reads SQLERRM and can catch one of those errors first
# fetches the names with GET STACKED DIAGNOSTICS for oracompat.sqlerrm().
# (read-only: no module under convert/ holds mutable state)
DIAG_VARS = MappingProxyType(
    {
        "constraint": ("sqlerrm__constraint", "CONSTRAINT_NAME"),
        "schema": ("sqlerrm__schema", "SCHEMA_NAME"),
        "table": ("sqlerrm__table", "TABLE_NAME"),
        "column": ("sqlerrm__column", "COLUMN_NAME"),
    }
)


def diag_needs(conds: list[str]) -> dict | None:
    """Which diagnostics a handler catching `conds` needs for SQLERRM (None: none)."""
    named = {e.sqlstate for e in ORA_ERRORS if e.object_message}
    kinds = {c for e in ORA_ERRORS if e.object_message for c in e.conditions}
    column_kinds = {c for e in ORA_ERRORS if e.object_message and "{column}" in e.object_message for c in e.conditions}
    column_states = {e.sqlstate for e in ORA_ERRORS if e.object_message and "{column}" in e.object_message}
    constraint, column = False, False
    for c in conds:
        state = c[len("SQLSTATE '") : -1] if c.startswith("SQLSTATE '") else None
        if c == "OTHERS":
            constraint = column = True
        elif c in kinds or state in named:
            constraint = True
            column = column or c in column_kinds or state in column_states
    if not constraint:
        return None
    return {"column": column, "used": False}


def diag_sqlerrm(em: Emitter) -> str | None:
    """The SQLERRM call for the current handler when it needs diagnostics (marks them used)."""
    diag = em.frame.handler_diag
    if diag is None:
        return None
    diag["used"] = True
    v = DIAG_VARS
    table, col = (v["table"][0], v["column"][0]) if diag["column"] else ("NULL", "NULL")
    return f"oracompat.sqlerrm(SQLSTATE, SQLERRM, {v['constraint'][0]}, {v['schema'][0]}, {table}, {col})"


def diag_wrap(em: Emitter, body: list[str], diag: dict, out: Out) -> None:
    """A handler's body (written aside) in a block that first fetches the diagnostics SQLERRM reads."""
    # TABLE_NAME / COLUMN_NAME only for a handler that can catch a NOT NULL violation
    keys = ["constraint", "schema"] + (["table", "column"] if diag["column"] else [])
    v = DIAG_VARS
    items = ", ".join(f"{v[k][0]} = {v[k][1]}" for k in keys)
    out.line("DECLARE")
    with out.indented():
        out.each(f"{v[k][0]} text;" for k in keys)
    out.line("BEGIN")
    with out.indented():
        out.line(f"GET STACKED DIAGNOSTICS {items};")
    out.place(body, deeper=1)
    out.line("END;")


def handler_conditions(em: Emitter, name: tuple[str, ...], scope, line) -> list[str]:
    if name == ("others",):
        return ["OTHERS"]
    sym = exception_lookup(em, name, scope)
    if sym is not None:
        return list(sym.conditions)
    pre = _predefined(name)
    if pre is not None:
        return list(pre.conditions)
    em.unconverted("exception handler", f"unknown exception {label(name)}", line)
    return [unconverted_marker("exception", label(name))]


def sqlcode_text(em: Emitter) -> str:
    if (off := em.rule_off("plsql.exceptions", "SQLCODE", "SQLCODE")) is not None:
        return off
    em.ctx.applied("plsql.exceptions")
    return "oracompat.sqlcode(SQLSTATE)" if em.frame.in_handler else "0"


def sqlerrm_text(em: Emitter, toks, j, scope):
    if (off := em.rule_off("plsql.exceptions", "SQLERRM", "SQLERRM")) is not None:
        return off, (values_.paren_at(em, toks, j)[1] if j < len(toks) and toks[j].is_op("(") else j), "VARCHAR2"
    em.ctx.applied("plsql.exceptions")
    if j < len(toks) and toks[j].is_op("("):
        inner, j = values_.paren_at(em, toks, j)
        if not (em.frame.in_handler and len(inner) == 1 and inner[0].is_word("SQLCODE")):
            return f"oracompat.sqlerrm_of({exprs_.expr(em, inner, scope)})", j, "VARCHAR2"
        # SQLERRM(SQLCODE) in a handler is the current error's message, like SQLERRM
    if em.frame.in_handler:
        return diag_sqlerrm(em) or "oracompat.sqlerrm(SQLSTATE, SQLERRM)", j, "VARCHAR2"
    return "'ORA-0000: normal, successful completion'", j, "VARCHAR2"
