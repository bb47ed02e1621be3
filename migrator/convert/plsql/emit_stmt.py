"""Control flow → PL/pgSQL: assignments, IF, CASE, loops (LOOP, WHILE, numeric and cursor FOR),
EXIT/CONTINUE, forward GOTO (gotos.py), RETURN, PIPE ROW, NULL, and blocks with their labels. Which
method emits which statement class is `emitter.STATEMENTS`."""

from __future__ import annotations

from harness.quoting import quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import gotos
from migrator.convert.plsql.naming import Owner, label, sql, target_text
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.state import EmitterState
from migrator.convert.plsql.symbols import PgType, Scope, Sym
from migrator.oracle_types import CHAR_TYPE, TEXT_NAMES, first_word, takes_text_only
from migrator.source.lexer import Token, split_top_level

IND = "    "


class StmtMixin(EmitterState):
    def stmts(self, body: list, scope: Scope, ind: str) -> list[str]:
        """A statement list. A label on a statement other than a loop or block is only a GOTO
        target (PL/pgSQL labels nothing else): forward jumps to it leave a block wrapped around
        the statements before it (`gotos.py`, rule plsql.goto)."""
        out: list[str] = []
        wrap = {r.start: r for r in gotos.regions(body)} if self.ctx.enabled("plsql.goto") else {}
        k = 0
        while k < len(body):
            region = wrap.get(k)
            if region is not None:
                out.extend(self.goto_block(body[region.start : region.end], region, scope, ind))
                k = region.end
                continue
            out.extend(self.stmt(body[k], scope, ind))
            k += 1
        return out

    def goto_block(self, body: list, region: gotos.Region, scope: Scope, ind: str) -> list[str]:
        exits = self.frame.goto_exits
        before = exits.get(region.target)
        exits[region.target] = region.block
        try:
            inner = self.stmts(body, scope, ind + IND)
        finally:
            if before is None:
                del exits[region.target]
            else:
                exits[region.target] = before
        self.ctx.applied("plsql.goto")
        return [f"{ind}<<{quote_ident(region.block)}>>", f"{ind}BEGIN", *inner, f"{ind}END;"]

    def text_valued(self, toks, scope) -> bool:
        """A string literal or a variable of a character type."""
        if len(toks) != 1:
            return False
        if toks[0].kind == "string":
            return True
        sym = scope.get(norm_name(toks[0])) if toks[0].kind in ("word", "qident") else None
        ora = (sym.type.ora if sym is not None and sym.type is not None else "").upper()
        return first_word(ora) in TEXT_NAMES

    def label_prefix(self, st, ind: str) -> list[str]:
        return [f"{ind}<<{quote_ident(st.label)}>>"] if st.label else []

    # ---- simple statements ---------------------------------------------------------------
    def st_null(self, st, scope, ind):
        return [f"{ind}NULL;"]

    def st_assign(self, st: A.Assign, scope, ind):
        if self.frame.trigger is not None and st.target and st.target[0].kind == "bind":
            alias = self.trigger_alias(st.target[0].text[1:].upper())
            if alias:
                return [f"{ind}{alias}{target_text(st.target[1:])} := {self.expr(st.value, scope)};"]
        lv = self.lvalue(st.target, scope)
        target = scope.get(norm_name(st.target[0])) if len(st.target) == 1 and st.target[0].kind != "bind" else None
        target_ora = target.type.ora if target is not None and target.type is not None else ""
        value = self.value_expr(st.value, scope, target_ora)
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
        cursor = st.cursor or ()  # a named cursor, or () for an inline query
        sym = scope.get(cursor[0]) if st.query is None and len(cursor) == 1 else None
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
                "cursor FOR loop", f"cursor {label(cursor)} is not a cursor declared in this unit", st.line
            )
            return [f"{ind}{unconverted_marker('cursor FOR loop', label(cursor))};"]
        args = f"({', '.join(self.call_args(st.args, scope))})" if st.args else ""
        return self.loop_lines(st, f"FOR {var} IN {sql(cursor)}{args} LOOP", st.body, inner, ind)

    def st_exit(self, st: A.Exit, scope, ind):
        text = st.keyword + (f" {quote_ident(st.target)}" if st.target else "")
        if st.cond:
            text += f" WHEN {self.expr(st.cond, scope)}"
        return [f"{ind}{text};"]

    def st_goto(self, st: A.Goto, scope, ind):
        block = self.frame.goto_exits.get(st.target.lower())
        if block is not None:
            return [f"{ind}EXIT {quote_ident(block)};  -- GOTO {st.target}"]
        how = "a backward GOTO" if self.ctx.enabled("plsql.goto") else "GOTO"
        self.unconverted("GOTO", f"GOTO {st.target}: PL/pgSQL has no GOTO ({how} is not converted)", st.line)
        return [f"{ind}{unconverted_marker('GOTO', 'GOTO ' + st.target)};"]

    def st_blockstmt(self, st: A.BlockStmt, scope, ind):
        return self.block_lines(st.block, scope.child(), ind, self.frame.owner)

    def st_unsupported(self, st: A.Unsupported, scope, ind):
        text = " ".join(t.text for t in st.toks)
        self.unconverted(st.construct, "not supported", st.line)
        return [f"{ind}{unconverted_marker(st.construct, text)};"]

    def st_piperow(self, st: A.PipeRow, scope, ind):
        return [f"{ind}RETURN NEXT {self.expr(st.value, scope)};"]

    def st_return(self, st: A.Return, scope, ind):
        if self.frame.trigger is not None:
            return [f"{ind}{line}" for line in self.trigger_return()]
        if self.frame.pipelined:
            return [f"{ind}RETURN;"]
        if self.frame.returns_self:  # a constructor's RETURN
            return [f"{ind}RETURN self;"]
        if st.value is None:
            return [f"{ind}RETURN;"]
        return [f"{ind}RETURN {self.value_expr(st.value, scope)};"]

    def value_expr(self, toks, scope, target_ora: str = "") -> str:
        """A value that is assigned or returned. A CHAR(n) variable keeps its blanks when Oracle
        assigns it to a VARCHAR2 (PostgreSQL's char → varchar cast drops them): its padded text is
        assigned, which a char(n) target pads again anyway (rule expr.char_semantics). Text assigned
        to a RAW is read as hex, as Oracle's implicit HEXTORAW does (rule expr.raw_hex)."""
        text = self.expr(toks, scope)
        if takes_text_only(target_ora.upper()) and self.text_valued(toks, scope) and self.ctx.enabled("expr.raw_hex"):
            self.ctx.applied("expr.raw_hex")
            return f"decode({text}, 'hex')"
        if len(toks) == 1 and toks[0].kind in ("word", "qident"):
            sym = scope.get(norm_name(toks[0]))
            ora = (sym.type.ora if sym is not None and sym.type is not None else "").upper()
            if CHAR_TYPE.match(ora) and self.ctx.enabled("expr.char_semantics"):
                self.ctx.applied("expr.char_semantics")
                return f"oracompat.to_text({text})"
        return text

    # ---- exceptions ------------------------------------------------------------------------
    # ---- blocks ----------------------------------------------------------------------------
    def block_lines(self, block: A.Block, scope: Scope, ind: str, owner: Owner) -> list[str]:
        decls = self.declarations(block.decls, scope, owner)
        deferred = self.bulk_errors_handled(block, scope)  # (after the declarations: its exceptions)
        if deferred is not None:
            return self.block_with_bulk_errors(block, scope, ind, decls, *deferred)
        first = block.body[0] if block.body else None
        if block.handlers and isinstance(first, A.Sql) and first.toks[0].is_word("SAVEPOINT") and len(first.toks) == 2:
            # SAVEPOINT as a block's first statement + ROLLBACK TO it in the handlers is exactly what
            # a PL/pgSQL exception block does: its subtransaction starts at BEGIN.
            self.frame.block_savepoints.add(norm_name(first.toks[1]))
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

    def bulk_errors_handled(self, block: A.Block, scope: Scope) -> tuple[int, A.Handler] | None:
        """(index of a FORALL ... SAVE EXCEPTIONS in the block's statements, the handler of the
        block that catches its ORA-24381), when there are both."""
        k = next((i for i, st in enumerate(block.body) if isinstance(st, A.Forall) and st.save_exceptions), None)
        if k is None or not block.handlers:
            return None
        for h in block.handlers:
            for name in h.names:
                if name == ("others",):
                    return k, h
                sym = self.exception_lookup(name, scope)
                if sym is not None and sym.sqlstate == "OS381":
                    return k, h
        return None

    def block_with_bulk_errors(self, block: A.Block, scope: Scope, ind: str, decls: list[str], k: int, h: A.Handler):
        """A block whose FORALL ... SAVE EXCEPTIONS fails in some iterations and whose handler
        catches ORA-24381. In Oracle the handler runs with the successful iterations (and the work
        before them) kept; a PL/pgSQL handler would roll its block back. So the block's work runs
        in an inner block (its handlers for any other error), and ORA-24381 is raised after it, in a
        block of its own whose only handler is that one: nothing is undone, and what the handler
        raises leaves the block as in Oracle (no sibling handler catches it)."""
        self.ctx.applied("plsql.collections")
        out = [f"{ind}<<{quote_ident(block.label)}>>"] if block.label else []
        out += [f"{ind}DECLARE"] + [f"{ind}{IND}{d}" for d in decls] + [f"{ind}{IND}bulk__failed boolean := false;"]
        out += [f"{ind}BEGIN", f"{ind}{IND}BEGIN"]
        out += self.stmts(block.body[:k], scope, ind + IND * 2)
        with self.within(bulk_deferred=True):
            out += self.stmts([block.body[k]], scope, ind + IND * 2)
        rest = self.stmts(block.body[k + 1 :], scope, ind + IND * 3)
        if rest:
            out += [f"{ind}{IND * 2}IF NOT bulk__failed THEN"] + rest + [f"{ind}{IND * 2}END IF;"]
        out += self.handler_lines(block.handlers, scope, ind + IND)
        out += [f"{ind}{IND}END;", f"{ind}{IND}IF bulk__failed THEN", f"{ind}{IND * 2}BEGIN"]
        out += [f"{ind}{IND * 3}RAISE EXCEPTION 'error(s) in array DML' USING ERRCODE = 'OS381';"]
        out += self.handler_lines([h], scope, ind + IND * 2)
        out += [f"{ind}{IND * 2}END;", f"{ind}{IND}END IF;", f"{ind}END;"]
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
