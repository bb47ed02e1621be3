"""Statements → PL/pgSQL text (control flow, assignments, cursors, raise/return)."""

from __future__ import annotations

from harness.errors import BY_NAME, ORA_ERRORS, USER_MESSAGE
from harness.quoting import quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.ddl.tokens import pg_string
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.naming import label, sql, target_text
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import PgType, Scope, Sym
from migrator.source.lexer import Token, split_top_level

IND = "    "


def _predefined(name: tuple[str, ...]):
    """The predefined Oracle exception (NO_DATA_FOUND ...) a name denotes, or None."""
    return BY_NAME.get(".".join(name).upper())


class StmtMixin:
    def stmts(self, body: list, scope: Scope, ind: str) -> list[str]:
        out: list[str] = []
        for st in body:
            lines = self.stmt(st, scope, ind)
            if st.label and not isinstance(st, (A.Loop, A.While, A.ForRange, A.ForCursor, A.BlockStmt)):
                out.append(f"{ind}<<{quote_ident(st.label)}>>")
                if not lines:
                    lines = [f"{ind}NULL;"]
            out.extend(lines)
        return out

    def stmt(self, st, scope: Scope, ind: str) -> list[str]:
        method = getattr(self, "st_" + type(st).__name__.lower())
        return method(st, scope, ind)

    def label_prefix(self, st, ind: str) -> list[str]:
        return [f"{ind}<<{quote_ident(st.label)}>>"] if st.label else []

    # ---- simple statements ---------------------------------------------------------------
    def st_null(self, st, scope, ind):
        return [f"{ind}NULL;"]

    def st_assign(self, st: A.Assign, scope, ind):
        if self.trigger is not None and st.target and st.target[0].kind == "bind":
            alias = self.trigger_alias(st.target[0].text[1:].upper())
            if alias:
                return [f"{ind}{alias}{target_text(st.target[1:])} := {self.expr(st.value, scope)};"]
        lv = self.lvalue(st.target, scope)
        value = self.expr(st.value, scope)
        if lv.target.startswith("aa:"):
            return (
                [f"{ind}{s}" for s in lv.setup]
                + [f"{ind}{lv.target[3:].replace('{value}', value)};"]
                + [f"{ind}{s}" for s in lv.finish]
            )
        return [f"{ind}{s}" for s in lv.setup] + [f"{ind}{lv.target} := {value};"] + [f"{ind}{s}" for s in lv.finish]

    def st_if(self, st: A.If, scope, ind):
        out = []
        for k, (cond, body) in enumerate(st.branches):
            out.append(f"{ind}{'IF' if k == 0 else 'ELSIF'} {self.expr(cond, scope)} THEN")
            out.extend(self.stmts(body, scope, ind + IND) or [f"{ind}{IND}NULL;"])
        if st.orelse is not None:
            out.append(f"{ind}ELSE")
            out.extend(self.stmts(st.orelse, scope, ind + IND) or [f"{ind}{IND}NULL;"])
        out.append(f"{ind}END IF;")
        return out

    def st_case(self, st: A.Case, scope, ind):
        head = f"{ind}CASE" + (f" {self.expr(st.selector, scope)}" if st.selector else "")
        out = [head]
        for cond, body in st.whens:
            out.append(f"{ind}{IND}WHEN {self.expr(cond, scope)} THEN")
            out.extend(self.stmts(body, scope, ind + IND * 2) or [f"{ind}{IND * 2}NULL;"])
        if st.orelse is not None:
            out.append(f"{ind}{IND}ELSE")
            out.extend(self.stmts(st.orelse, scope, ind + IND * 2) or [f"{ind}{IND * 2}NULL;"])
        out.append(f"{ind}END CASE;")  # no ELSE: both raise CASE_NOT_FOUND / case_not_found
        return out

    def loop_lines(self, st, head: str, body, scope, ind):
        return self.label_prefix(st, ind) + [f"{ind}{head}"] + self.stmts(body, scope, ind + IND) + [f"{ind}END LOOP;"]

    def st_loop(self, st: A.Loop, scope, ind):
        return self.loop_lines(st, "LOOP", st.body, scope, ind)

    def st_while(self, st: A.While, scope, ind):
        return self.loop_lines(st, f"WHILE {self.expr(st.cond, scope)} LOOP", st.body, scope, ind)

    def st_forrange(self, st: A.ForRange, scope, ind):
        lo, hi = self.expr(st.lo, scope), self.expr(st.hi, scope)
        inner = scope.child()
        inner.add(Sym(st.var, "loopvar", PgType("integer", "PLS_INTEGER")))
        # PL/SQL: REVERSE lo..hi counts hi down to lo; PL/pgSQL takes the bounds as REVERSE hi..lo.
        var = quote_ident(st.var)
        head = f"FOR {var} IN REVERSE {hi}..{lo} LOOP" if st.reverse else f"FOR {var} IN {lo}..{hi} LOOP"
        return self.loop_lines(st, head, st.body, inner, ind)

    def st_forcursor(self, st: A.ForCursor, scope, ind):
        inner = scope.child()
        sym = scope.get(st.cursor[0]) if st.query is None and len(st.cursor) == 1 else None
        query = sym.sigs[0][0].query if sym is not None and sym.kind == "cursor" and sym.sigs else st.query
        inner.add(Sym(st.var, "var", PgType("record", composite=True, fields=self.query_fields(query))))
        var = quote_ident(st.var)
        if st.query is not None:
            head = f"FOR {var} IN {self.query_text(st.query, scope)} LOOP"
            body = self.loop_lines(st, head, st.body, inner, ind + IND)
            # a query FOR loop needs its record declared; the block keeps it local as in PL/SQL
            return [f"{ind}DECLARE", f"{ind}{IND}{var} record;", f"{ind}BEGIN"] + body + [f"{ind}END;"]
        if sym is None or sym.kind != "cursor":
            self.unconverted(
                "cursor FOR loop", f"cursor {label(st.cursor)} is not a cursor declared in this unit", st.line
            )
            return [f"{ind}{unconverted_marker('cursor FOR loop', label(st.cursor))};"]
        args = f"({', '.join(self.call_args(st.args, scope))})" if st.args else ""
        return self.loop_lines(st, f"FOR {var} IN {sql(st.cursor)}{args} LOOP", st.body, inner, ind)

    def st_exit(self, st: A.Exit, scope, ind):
        text = st.keyword + (f" {quote_ident(st.target)}" if st.target else "")
        if st.cond:
            text += f" WHEN {self.expr(st.cond, scope)}"
        return [f"{ind}{text};"]

    def st_goto(self, st: A.Goto, scope, ind):
        self.unconverted("GOTO", f"GOTO {st.target}: PL/pgSQL has no GOTO", st.line)
        return [f"{ind}{unconverted_marker('GOTO', 'GOTO ' + st.target)};"]

    def st_blockstmt(self, st: A.BlockStmt, scope, ind):
        return self.block_lines(st.block, scope.child(), ind, self.owner)

    def st_unsupported(self, st: A.Unsupported, scope, ind):
        text = " ".join(t.text for t in st.toks)
        self.unconverted(st.construct, "not supported", st.line)
        return [f"{ind}{unconverted_marker(st.construct, text)};"]

    def st_piperow(self, st: A.PipeRow, scope, ind):
        return [f"{ind}RETURN NEXT {self.expr(st.value, scope)};"]

    def st_return(self, st: A.Return, scope, ind):
        if self.trigger is not None:
            return [f"{ind}{line}" for line in self.trigger_return()]
        if self.pipelined:
            return [f"{ind}RETURN;"]
        if st.value is None:
            return [f"{ind}RETURN;"]
        return [f"{ind}RETURN {self.expr(st.value, scope)};"]

    # ---- exceptions ------------------------------------------------------------------------
    def st_raise(self, st: A.Raise, scope, ind):
        if (off := self.rule_off("plsql.exceptions", "RAISE", f"RAISE {'.'.join(st.name or ())}", st.line)) is not None:
            return [f"{ind}{off};"]
        self.ctx.applied("plsql.exceptions")
        if st.name is None:
            return [f"{ind}RAISE;"]
        sym = self.exception_lookup(st.name, scope)
        if sym is not None:
            # the message is a value: a literal, whatever the exception's name holds
            msg = USER_MESSAGE if sym.sqlstate.startswith("OU") else label(st.name)
            return [f"{ind}RAISE EXCEPTION USING ERRCODE = '{sym.sqlstate}', MESSAGE = {pg_string(msg)};"]
        pre = _predefined(st.name)
        if pre is not None:
            return [f"{ind}RAISE {pre.conditions[0]};"]
        self.unconverted("RAISE", f"unknown exception {label(st.name)}", st.line)
        return [f"{ind}{unconverted_marker('RAISE', 'RAISE ' + label(st.name))};"]

    def exception_lookup(self, parts: tuple[str, ...], scope) -> Sym | None:
        """The user-defined exception named by plain parts (local, own package, or pkg.e)."""
        parts = list(parts)
        if len(parts) == 1:
            sym = scope.get(parts[0])
            if sym is not None and sym.kind == "exception":
                return sym
            if self.pkg:
                psym = self.pkg_scope((self.pkg,)).names.get(parts[0])
                if psym is not None and psym.kind == "exception":
                    return psym
            return None
        ref = self.package_ref(parts)
        return ref[1] if ref is not None and ref[1].kind == "exception" else None

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
            saved = self.in_handler, self.handler_diag
            self.in_handler, self.handler_diag = True, self.diag_needs(conds)
            body = self.stmts(h.body, scope, ind + IND * 2) or [f"{ind}{IND * 2}NULL;"]
            diag = self.handler_diag
            self.in_handler, self.handler_diag = saved
            if diag is not None and diag["used"]:
                body = self.diag_wrap(body, diag, ind + IND * 2)
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
        diag = getattr(self, "handler_diag", None)
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

    # ---- blocks ----------------------------------------------------------------------------
    def block_lines(self, block: A.Block, scope: Scope, ind: str, owner: str) -> list[str]:
        decls = self.declarations(block.decls, scope, owner)
        first = block.body[0] if block.body else None
        if block.handlers and isinstance(first, A.Sql) and first.toks[0].is_word("SAVEPOINT") and len(first.toks) == 2:
            # SAVEPOINT as a block's first statement + ROLLBACK TO it in the handlers is exactly what
            # a PL/pgSQL exception block does: its subtransaction starts at BEGIN.
            self.block_savepoints.add(norm_name(first.toks[1]))
        out = [f"{ind}<<{quote_ident(block.label)}>>"] if block.label else []
        if decls:
            out.append(f"{ind}DECLARE")
            out.extend(f"{ind}{IND}{d}" for d in decls)
        out.append(f"{ind}BEGIN")
        out.extend(self.stmts(block.body, scope, ind + IND))
        if block.handlers:
            out.extend(self.handler_lines(block.handlers, scope, ind))
        out.append(f"{ind}END;")
        return out

    def call_args(self, toks: list[Token] | None, scope) -> list[str]:
        if not toks:
            return []
        out = []
        for arg in split_top_level(toks):
            if len(arg) > 2 and arg[1].is_op("=>"):
                out.append(f"{quote_ident(norm_name(arg[0]))} => {self.expr(arg[2:], scope)}")
            else:
                out.append(self.expr(arg, scope))
        return out
