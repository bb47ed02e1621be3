"""Statements, exception handlers, triggers, and the entry point `parse_unit`."""

from __future__ import annotations

from collections.abc import Callable

from migrator.convert.plsql import ast as A
from migrator.convert.plsql.parse_decl import DeclParser
from migrator.convert.plsql.parser import _BLOCK_END, _SQL_START, ParseError, norm_name
from migrator.source.lexer import split_top_level


class PlsqlParser(DeclParser):
    def statements(self) -> list:
        out = []
        while not self.tok.is_word(*_BLOCK_END) and self.tok.kind != "eof":
            out.append(self.statement())
        return out

    def statement(self) -> A.Stmt:
        label = None
        while self.tok.is_op("<<"):
            self.advance()
            label = self.ident()
            self.expect_op(">>")
        line = self.line()
        st = self.statement_inner(label)
        st.line, st.label = line, label
        return st

    def statement_inner(self, label):
        t = self.tok
        u = t.upper if t.kind == "word" else ""
        if u in ("DECLARE", "BEGIN"):
            self.advance() if u == "DECLARE" else None
            decls = self.declarations() if u == "DECLARE" else []
            return A.BlockStmt(self.block_body(decls, label, self.line()))
        if u == "IF":
            return self.if_stmt()
        if u == "CASE":
            return self.case_stmt()
        if u in ("LOOP", "WHILE", "FOR"):
            return self.loop_stmt()
        if u in KEYWORD_STATEMENTS and not self.peek().is_op(":=", "."):
            return KEYWORD_STATEMENTS[u](self)
        if (
            u in _SQL_START
            and not self.peek().is_op(":=", ".")
            and not (u == "SET" and not self.peek().is_word("TRANSACTION"))
        ):
            toks = self.scan()
            self.expect_op(";")
            return A.Sql(toks)
        return self.assign_or_call()

    def assign_or_call(self):
        toks = self.scan(stop_ops={";", ":="})
        if self.accept_op(":="):
            value = self.scan()
            self.expect_op(";")
            return A.Assign(toks, value)
        self.expect_op(";")
        if toks and toks[-1].is_op(")"):
            depth = 0
            for k in range(len(toks) - 1, -1, -1):
                depth += toks[k].is_op(")") - toks[k].is_op("(")
                if depth == 0:
                    return A.Call(toks[:k], toks[k + 1 : -1])
        if not toks:
            self.error("empty statement")
        return A.Call(toks, None)

    def if_stmt(self):
        self.expect("IF")
        branches, orelse = [], None
        cond = self.scan({"THEN"})
        self.expect("THEN")
        branches.append((cond, self.statements()))
        while True:
            if self.accept("ELSIF"):
                cond = self.scan({"THEN"})
                self.expect("THEN")
                branches.append((cond, self.statements()))
            elif self.accept("ELSE"):
                orelse = self.statements()
            else:
                break
        self.expect("END")
        self.expect("IF")
        self.expect_op(";")
        return A.If(branches, orelse)

    def case_stmt(self):
        self.expect("CASE")
        selector = None if self.tok.is_word("WHEN") else self.scan({"WHEN"})
        whens, orelse = [], None
        while self.accept("WHEN"):
            cond = self.scan({"THEN"})
            self.expect("THEN")
            whens.append((cond, self.statements()))
        if self.accept("ELSE"):
            orelse = self.statements()
        self.expect("END")
        self.expect("CASE")
        if not self.tok.is_op(";"):
            self.advance()  # END CASE label
        self.expect_op(";")
        return A.Case(selector, whens, orelse)

    def loop_body(self) -> list:
        self.expect("LOOP")
        body = self.statements()
        self.expect("END")
        self.expect("LOOP")
        if not self.tok.is_op(";"):
            self.advance()  # END LOOP label
        self.expect_op(";")
        return body

    def loop_stmt(self):
        if self.tok.is_word("LOOP"):
            return A.Loop(self.loop_body())
        if self.accept("WHILE"):
            cond = self.scan({"LOOP"})
            return A.While(cond, self.loop_body())
        self.expect("FOR")
        var = self.ident()
        self.expect("IN")
        reverse = self.accept("REVERSE")
        if self.tok.is_op("("):
            save = self.i
            inner = self.paren_contents()
            if inner and inner[0].is_word("SELECT", "WITH") and self.tok.is_word("LOOP"):
                return A.ForCursor(var, None, None, inner, self.loop_body())
            self.i = save
        lo = self.scan({"LOOP"}, {"..", ";"})
        if self.accept_op(".."):
            hi = self.scan({"LOOP"})
            return A.ForRange(var, reverse, lo, hi, self.loop_body())
        # cursor FOR loop over a named cursor, with optional arguments
        args = lo[2:-1] if len(lo) > 1 and lo[1].is_op("(") else None
        name_toks = lo[:1] if args is not None else lo
        if (
            name_toks
            and all(t.kind in ("word", "qident") for t in name_toks[::2])
            and all(t.is_op(".") for t in name_toks[1::2])
        ):
            name = tuple(norm_name(t) for t in name_toks[::2])
        else:  # not a cursor name we can resolve: kept as written, reported by the emitter
            name = ("".join(t.text for t in lo),)
        return A.ForCursor(var, name, args, None, self.loop_body())

    # ---- simple statements ----------------------------------------------------------------
    def st_null(self):
        self.advance()
        self.expect_op(";")
        return A.Null()

    def st_return(self):
        self.advance()
        value = self.scan() or None
        self.expect_op(";")
        return A.Return(value)

    def st_raise(self):
        self.advance()
        name = None if self.tok.is_op(";") else self.dotted()
        self.expect_op(";")
        return A.Raise(name)

    def st_goto(self):
        self.advance()
        target = self.ident()
        self.expect_op(";")
        return A.Goto(target)

    def st_exit(self):
        kw = self.advance().upper
        target = None
        if self.tok.kind in ("word", "qident") and not self.tok.is_word("WHEN"):
            target = self.ident()
        cond = None
        if self.accept("WHEN"):
            cond = self.scan()
        self.expect_op(";")
        return A.Exit(kw, target, cond)

    def st_close(self):
        self.advance()
        cur = self.scan()
        self.expect_op(";")
        return A.Close(cur)

    def st_open(self):
        self.advance()
        cur = self.scan({"FOR"}, {";", "("})
        args = self.paren_contents() if self.tok.is_op("(") else None
        query = dynamic = None
        using = []
        if self.accept("FOR"):
            if self.tok.is_word("SELECT", "WITH") or (self.tok.is_op("(") and self.peek().is_word("SELECT", "WITH")):
                query = self.scan()
            else:
                dynamic = self.scan({"USING"})
                if self.accept("USING"):
                    using = [a for _, a in self.using_list()]
        self.expect_op(";")
        return A.Open(cur, args, query, dynamic, using)

    def st_fetch(self):
        self.advance()
        cur = self.scan({"INTO", "BULK"})
        bulk = self.accept("BULK")
        if bulk:
            self.expect("COLLECT")
        self.expect("INTO")
        into = split_top_level(self.scan({"LIMIT"}))
        limit = self.scan() if self.accept("LIMIT") else None
        self.expect_op(";")
        return A.Fetch(cur, into, bulk, limit)

    def using_list(self) -> list[tuple[str, list]]:
        out = []
        for arg in split_top_level(self.scan({"RETURNING", "RETURN", "INTO"})):
            mode = "IN"
            if arg and arg[0].is_word("IN", "OUT"):
                mode = "INOUT" if len(arg) > 1 and arg[0].is_word("IN") and arg[1].is_word("OUT") else arg[0].upper
                arg = arg[2:] if mode == "INOUT" else arg[1:]
            out.append((mode, arg))
        return out

    def st_execute(self):
        self.advance()
        self.expect("IMMEDIATE")
        sql = self.scan({"INTO", "USING", "BULK", "RETURNING", "RETURN"})
        into, bulk, using, returning = [], False, [], []
        while not self.tok.is_op(";"):
            if self.accept("BULK"):
                self.expect("COLLECT")
                bulk = True
            elif self.accept("INTO"):
                into = split_top_level(self.scan({"USING", "RETURNING", "RETURN"}))
            elif self.accept("USING"):
                using = self.using_list()
            elif self.accept("RETURNING", "RETURN"):
                self.expect("INTO")
                returning = split_top_level(self.scan({"USING"}))
            else:
                self.error("unexpected token in EXECUTE IMMEDIATE")
        self.expect_op(";")
        return A.ExecImmediate(sql, into, bulk, using, returning)

    def st_forall(self):
        self.advance()
        var = self.ident()
        self.expect("IN")
        lo = hi = coll = None
        values = False
        if self.accept("INDICES", "VALUES"):
            values = self.toks[self.i - 1].is_word("VALUES")
            self.expect("OF")
            coll = self.scan({"SAVE", "INSERT", "UPDATE", "DELETE", "MERGE", "EXECUTE", "BETWEEN"})
            if self.accept("BETWEEN"):
                self.scan({"SAVE", "INSERT", "UPDATE", "DELETE", "MERGE", "EXECUTE"})
        else:
            lo = self.scan(stop_ops={".."})
            self.expect_op("..")
            hi = self.scan({"SAVE", "INSERT", "UPDATE", "DELETE", "MERGE", "EXECUTE"})
        save = self.accept("SAVE")
        if save:
            self.expect("EXCEPTIONS")
        return A.Forall(var, lo, hi, coll, values, self.statement(), save_exceptions=save)

    def st_pipe(self):
        self.advance()
        self.expect("ROW")
        value = self.paren_contents()
        self.expect_op(";")
        return A.PipeRow(value)

    # ---- exception handlers ---------------------------------------------------------------
    def handlers(self) -> list[A.Handler]:
        out = []
        while self.tok.is_word("WHEN"):
            line = self.line()
            self.advance()
            names = [self.dotted()]
            while self.accept("OR"):
                names.append(self.dotted())
            self.expect("THEN")
            out.append(A.Handler(names, self.statements(), line))
        return out


# A statement's first keyword → the method that parses it (control flow and SQL are read above).
KEYWORD_STATEMENTS: dict[str, Callable[[PlsqlParser], A.Stmt]] = {
    "NULL": PlsqlParser.st_null,
    "RETURN": PlsqlParser.st_return,
    "RAISE": PlsqlParser.st_raise,
    "GOTO": PlsqlParser.st_goto,
    "EXIT": PlsqlParser.st_exit,
    "CONTINUE": PlsqlParser.st_exit,
    "OPEN": PlsqlParser.st_open,
    "FETCH": PlsqlParser.st_fetch,  # FETCH ... BULK COLLECT INTO
    "CLOSE": PlsqlParser.st_close,
    "EXECUTE": PlsqlParser.st_execute,  # EXECUTE IMMEDIATE
    "FORALL": PlsqlParser.st_forall,
    "PIPE": PlsqlParser.st_pipe,  # PIPE ROW
}

__all__ = ["PlsqlParser", "ParseError"]
