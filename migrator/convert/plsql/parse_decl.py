"""Declarations and unit headers: routines, packages, triggers, anonymous blocks."""

from __future__ import annotations

from collections.abc import Callable

from migrator.convert.plsql import ast as A
from migrator.convert.plsql.parser import Parser
from migrator.source.lexer import split_top_level

_ROUTINE_MODIFIERS = {
    "DETERMINISTIC",
    "PIPELINED",
    "PARALLEL_ENABLE",
    "RESULT_CACHE",
    "AUTHID",
    "ACCESSIBLE",
    "AGGREGATE",
    "SQL_MACRO",
}


class DeclParser(Parser):
    # Defined by the statement parser (parse_stmt.PlsqlParser), the class every parse runs as.
    statements: Callable[[], list[A.Stmt]]
    handlers: Callable[[], list[A.Handler]]

    # ---- declarations --------------------------------------------------------------------
    def declarations(self, in_package: bool = False) -> list:
        decls = []
        while not self.tok.is_word("BEGIN", "END") and self.tok.kind != "eof":
            decls.append(self.declaration(in_package))
        return decls

    def declaration(self, in_package: bool):
        line = self.line()
        if self.tok.is_word("PROCEDURE", "FUNCTION"):
            return self.routine(nested=True)
        if self.accept("PRAGMA"):
            name = self.ident().upper()
            args = split_top_level(self.paren_contents()) if self.tok.is_op("(") else []
            self.expect_op(";")
            return A.Pragma(name, args, line)
        if self.accept("TYPE"):
            return self.type_decl(line)
        if self.accept("SUBTYPE"):
            name = self.ident()
            self.expect("IS")
            t = A.TypeRef(self.scan({"NOT", "RANGE"}))
            self.scan()  # NOT NULL / RANGE constraints of a subtype only restrict values
            self.expect_op(";")
            return A.TypeDecl(name, "subtype", elem=t, line=line)
        if self.accept("CURSOR"):
            return self.cursor_decl(line)
        name = self.ident()
        if self.accept("EXCEPTION"):
            self.expect_op(";")
            return A.ExceptionDecl(name, line)
        return self.var_decl(name, line)

    def var_decl(self, name: str, line: int) -> A.VarDecl:
        constant = self.accept("CONSTANT")
        typ = A.TypeRef(self.scan({"NOT", "DEFAULT"}, {";", ":="}))
        not_null = False
        if self.accept("NOT"):
            self.expect("NULL")
            not_null = True
        default = None
        if self.accept_op(":=") or self.accept("DEFAULT"):
            default = self.scan()
        self.expect_op(";")
        return A.VarDecl(name, typ, constant, not_null, default, line)

    def type_decl(self, line: int) -> A.TypeDecl:
        name = self.ident()
        self.expect("IS", "AS")
        if self.accept("RECORD"):
            fields = [(p.name, p.type) for p in self.params(record=True)]
            self.expect_op(";")
            return A.TypeDecl(name, "record", fields=fields, line=line)
        if self.accept("REF"):
            self.expect("CURSOR")
            self.scan()  # RETURN rowtype: PostgreSQL refcursors are untyped
            self.expect_op(";")
            return A.TypeDecl(name, "refcursor", line=line)
        kind = "table"
        limit = None
        if self.accept("VARRAY", "VARYING"):
            self.accept("ARRAY")
            limit = self.paren_contents()
            kind = "varray"
        else:
            self.expect("TABLE")
        self.expect("OF")
        elem = A.TypeRef(self.scan({"INDEX", "NOT"}))
        self.accept("NOT") and self.expect("NULL")
        index = None
        if self.accept("INDEX"):
            self.expect("BY")
            index = A.TypeRef(self.scan())
            kind = "assoc"
        self.expect_op(";")
        return A.TypeDecl(name, kind, elem=elem, index=index, line=line, limit=limit)

    def cursor_decl(self, line: int) -> A.CursorDecl:
        name = self.ident()
        params = self.params() if self.tok.is_op("(") else []
        if self.accept("RETURN"):
            self.scan({"IS"})
        query = None
        if self.accept("IS"):
            query = self.scan()
        self.expect_op(";")
        return A.CursorDecl(name, params, query, line)

    def params(self, record: bool = False) -> list[A.Param]:
        self.expect_op("(")
        out = []
        while True:
            name = self.ident()
            mode = "IN"
            if not record:
                if self.accept("IN"):
                    mode = "INOUT" if self.accept("OUT") else "IN"
                elif self.accept("OUT"):
                    mode = "OUT"
                self.accept("NOCOPY")
            typ = A.TypeRef(self.scan({"DEFAULT", "NOT"}, {",", ":="}))
            if self.accept("NOT"):
                self.expect("NULL")
            default = None
            if self.accept_op(":=") or self.accept("DEFAULT"):
                default = self.scan(stop_ops={","})
            out.append(A.Param(name, mode, typ, default))
            if not self.accept_op(","):
                break
        self.expect_op(")")
        return out

    # ---- routines ------------------------------------------------------------------------
    def routine(self, nested: bool = False) -> A.Routine:
        line = self.line()
        kind = self.expect("PROCEDURE", "FUNCTION").upper
        name = self.dotted()[-1]  # the owner is the unit's schema
        params = self.params() if self.tok.is_op("(") else []
        returns = None
        if kind == "FUNCTION":
            self.expect("RETURN")
            returns = A.TypeRef(self.scan(_ROUTINE_MODIFIERS | {"IS", "AS"}))
            if self.tok.is_word("AS") and self.peek().is_word("RESULT"):  # constructor: RETURN SELF AS RESULT
                self.advance()
                self.advance()
        pipelined = False
        while self.tok.is_word(*_ROUTINE_MODIFIERS) and not (
            self.tok.is_word("AGGREGATE") and self.peek().is_word("USING")
        ):
            pipelined |= self.tok.is_word("PIPELINED")
            self.skip_modifier()
        if self.accept_op(";"):
            return A.Routine(kind, name, params, returns, None, pipelined, line=line)
        if kind == "FUNCTION" and self.tok.is_word("AGGREGATE"):  # AGGREGATE USING impl_type
            ext = self.scan()
            self.accept_op(";")
            return A.Routine(kind, name, params, returns, None, pipelined, external=ext, line=line)
        self.expect("IS", "AS")
        if self.tok.is_word("LANGUAGE", "EXTERNAL"):
            ext = self.scan()
            self.accept_op(";")
            return A.Routine(kind, name, params, returns, None, pipelined, external=ext, line=line)
        block = self.block_after_declare(line)
        return A.Routine(kind, name, params, returns, block, pipelined, line=line)

    def skip_modifier(self) -> None:
        """Routine modifiers that do not change behaviour in PostgreSQL (AUTHID, RESULT_CACHE ...)."""
        self.advance()
        if self.tok.is_word("CURRENT_USER", "DEFINER", "BY"):
            self.advance()
        if self.tok.is_op("("):
            self.paren_contents()
        elif self.tok.is_word("RELIES_ON"):
            self.advance()
            self.paren_contents()

    def block_after_declare(self, line: int) -> A.Block:
        decls = self.declarations()
        return self.block_body(decls, None, line)

    def block_body(self, decls: list, label: str | None, line: int) -> A.Block:
        self.expect("BEGIN")
        body = self.statements()
        handlers = self.handlers() if self.accept("EXCEPTION") else []
        self.end_name()
        return A.Block(decls, body, handlers, label, line)

    # ---- units ---------------------------------------------------------------------------
    def create_prefix(self) -> None:
        if self.accept("CREATE"):
            if self.accept("OR"):
                self.expect("REPLACE")
            self.accept("EDITIONABLE", "NONEDITIONABLE")

    def package(self) -> A.Package:
        self.expect("PACKAGE")
        is_body = self.accept("BODY")
        name = self.dotted()[-1]  # the owner is the unit's schema
        while self.tok.is_word("AUTHID", "ACCESSIBLE"):
            self.skip_modifier()
        self.expect("IS", "AS")
        decls = self.declarations(in_package=True)
        init = None
        if self.tok.is_word("BEGIN"):
            init = self.block_body([], None, self.line())
        else:
            self.end_name()
        return A.Package(name, decls, init, is_body)
