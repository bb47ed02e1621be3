"""Declarations: types (%TYPE/%ROWTYPE, records, collection types), variables, cursors, pragmas.
Exceptions and EXCEPTION_INIT are `emit_exceptions`; nested subprograms `emit_nested`. Types are
resolved by `resolver.Resolver`; the DDL it returns with them is put before the unit here (`take`)."""

from __future__ import annotations

from harness.quoting import quote_ident
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.naming import Owner
from migrator.convert.plsql.resolver import Ddl, distinct, signature
from migrator.convert.plsql.rowfields import query_fields
from migrator.convert.plsql.state import EmitterState
from migrator.convert.plsql.symbols import Coll, PgType, Scope, Sym
from migrator.convert.signatures import RoutineSig


class DeclMixin(EmitterState):
    # ---- types: resolved by the resolver, their DDL put before the unit ------------------------------
    def resolve_type(self, tref: A.TypeRef, scope: Scope) -> PgType:
        t, ddl = self.resolver.resolve_type(tref, scope, self.frame.owner)
        self.take(ddl)
        return t

    def resolving(self, tref: A.TypeRef, scope: Scope) -> tuple[PgType, list[Ddl]]:
        """`resolve_type` as the resolver's declarations resolve their parts (`TypeResolve`): each
        part's DDL put before the unit at once, nothing left to return."""
        return self.resolve_type(tref, scope), []

    def type_decl(self, d: A.TypeDecl, scope: Scope, owner: Owner) -> Sym:
        sym, ddl = self.resolver.type_decl(d, scope, owner, self.resolving)
        self.take(ddl)
        return sym

    def local_signatures(self, routines: list[A.Routine], target: tuple[str, str], scope: Scope) -> list[RoutineSig]:
        """The converted signatures of a nested subprogram's declarations, as calls bind to them."""
        sigs = []
        for r in routines:
            sig, ddl = signature(self.resolver, r, target, scope, self.frame.owner, self.resolving)
            self.take(ddl)
            sigs.append(sig)
        return distinct(sigs)

    def take(self, ddl: list[Ddl]) -> None:
        """Puts the DDL a resolved type needs before the unit, in order; a cursor row type's view
        once per unit (its query converted here, its parameters as typed NULLs)."""
        for item in ddl:
            if isinstance(item, str):
                self.pre.append(item)
                continue
            if item.name in self.created_views:
                continue
            nscope = item.scope.child()
            for p in item.cursor.params:
                pt = self.resolve_type(p.type, item.scope)
                nscope.add(Sym(p.name, "nullparam", PgType(f"NULL::{self.castable(pt.pg)}", pt.ora)))
            self.created_views.add(item.name)
            self.pre.append(f"CREATE OR REPLACE VIEW {item.name} AS\n{self.query_text(item.cursor.query, nscope)};")

    def query_fields(self, toks) -> dict[str, str]:
        return query_fields(toks or [], self.resolver.table_columns)

    # ---- declarations in a block -----------------------------------------------------------------
    def declarations(self, decls: list, scope: Scope, owner: Owner) -> list[str]:
        """PL/pgSQL DECLARE lines for a block's declarations (types/exceptions become symbols)."""
        lines: list[str] = []
        inits = [d for d in decls if isinstance(d, A.Pragma) and d.name == "EXCEPTION_INIT"]
        for d in decls:
            if isinstance(d, A.TypeDecl):
                self.type_decl(d, scope, owner)
            elif isinstance(d, A.ExceptionDecl):
                self.exception_sym(d.name, scope, owner, inits)
            elif isinstance(d, A.VarDecl):
                lines.append(self.var_line(d, scope))
            elif isinstance(d, A.CursorDecl):
                lines.append(self.cursor_line(d, scope))
            elif isinstance(d, A.Pragma):
                self.pragma(d)
            elif isinstance(d, A.Routine):
                self.nested_routine(d, scope, owner)
        return lines

    def var_line(self, d: A.VarDecl, scope: Scope) -> str:
        t = self.resolve_type(d.type, scope)
        if d.name in self.sparse_names and t.coll is not None and t.coll.kind == "array":
            return self.sparse_var_line(d, t, t.coll, scope)
        scope.add(Sym(d.name, "const" if d.constant else "var", t))
        parts = [quote_ident(d.name)]
        if d.constant:
            parts.append("CONSTANT")
        parts.append(t.pg)
        if d.not_null:
            parts.append("NOT NULL")
        if d.default:
            parts.append(":= " + self.value_expr(d.default, scope, t.ora))  # emit_stmt: CHAR, RAW
        elif t.coll is not None and t.coll.kind == "assoc":
            parts.append(":= '{}'::jsonb")  # an INDEX BY table starts empty, never NULL
        return " ".join(parts) + ";"

    def sparse_var_line(self, d: A.VarDecl, t: PgType, c: Coll, scope: Scope) -> str:
        """A nested table that DELETE(i) makes sparse is held as a jsonb map index → element (like
        an INDEX BY table); whole-value uses convert to/from the dense array type."""
        self.ctx.note(f"{d.name}: nested table with DELETE(i) held as jsonb; compacted to {t.pg} when used whole")
        st = PgType("jsonb", t.ora, coll=Coll("assoc", c.elem_pg, c.elem_ora, True, c.elem_composite), array_pg=t.pg)
        init = f"oracompat.arr_to_aa({self.expr(d.default, scope)})" if d.default else "'{}'::jsonb"
        scope.add(Sym(d.name, "var", st))
        name, size = quote_ident(d.name), quote_ident(f"{d.name}__size")
        # Oracle keeps placeholders for deleted elements: EXTEND appends after the internal size
        return f"{name} jsonb := {init}; {size} integer := coalesce(oracompat.aa_last_n({name}), 0);"

    def cursor_line(self, d: A.CursorDecl, scope: Scope) -> str:
        cscope = scope.child()
        params = []
        for p in d.params:
            pt = self.resolve_type(p.type, scope)
            cscope.add(Sym(p.name, "param", pt))
            if p.default:
                self.unconverted(
                    "cursor parameter default",
                    f"cursor {d.name}: PostgreSQL cursor parameters have no defaults",
                    d.line,
                )
            params.append(f"{quote_ident(p.name)} {pt.pg}")
        query = self.query_text(d.query, cscope)
        scope.add(Sym(d.name, "cursor", PgType("refcursor", refcursor=True), cursor_params=d.params, sigs=[(d, scope)]))
        args = f" ({', '.join(params)})" if params else ""
        return f"{quote_ident(d.name)} CURSOR{args} FOR {query};"

    def pragma(self, d: A.Pragma) -> None:
        if d.name == "AUTONOMOUS_TRANSACTION":
            self.autonomous_pragma(d)
        elif d.name in ("RESTRICT_REFERENCES", "INLINE", "SERIALLY_REUSABLE", "UDF", "DEPRECATED"):
            self.ctx.note(f"PRAGMA {d.name} only guides the Oracle compiler; not needed in PostgreSQL")
        elif d.name != "EXCEPTION_INIT":
            self.unconverted(f"PRAGMA {d.name}", "unknown pragma", d.line)
