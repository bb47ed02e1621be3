"""Declarations: types (%TYPE/%ROWTYPE, records, collection types), variables, cursors, pragmas.
Exceptions and EXCEPTION_INIT are `emit_exceptions`; nested subprograms `emit_nested`."""

from __future__ import annotations

from harness.quoting import quote_ident
from migrator.convert.context import MARKER_TOKEN, unconverted_marker
from migrator.convert.datatypes import map_type
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.naming import Owner, derived, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.rowfields import query_fields
from migrator.convert.plsql.state import EmitterState
from migrator.convert.plsql.symbols import Coll, PgType, Scope, Sym, builtin, type_text
from migrator.convert.schema_model import ObjectType
from migrator.oracle_types import TEXT_NAMES, first_word


class DeclMixin(EmitterState):
    # ---- types -----------------------------------------------------------------------------
    def resolve_type(self, tref: A.TypeRef, scope: Scope) -> PgType:
        toks = tref.toks
        if len(toks) >= 3 and toks[-2].is_op("%") and toks[-1].is_word("TYPE", "ROWTYPE"):
            name = [norm_name(t) for t in toks[:-2] if not t.is_op(".")]
            return self.anchored(name, toks[-1].upper, scope)
        text = type_text(toks)
        if toks and toks[0].kind in ("word", "qident") and (len(toks) == 1 or toks[1].is_op(".")):
            parts = [norm_name(t) for t in toks if not t.is_op(".")]
            sym = scope.get(parts[0]) if len(parts) == 1 else None
            if sym is not None and sym.kind == "type":
                return sym.typed
            ref = self.package_ref(parts) if len(parts) > 1 else None
            if ref is not None and ref[1].kind == "type":
                return ref[1].typed
            if len(parts) == 1 and self.pkg:
                psym = self.pkg_scope((self.pkg,)).names.get(parts[0])
                if psym is not None and psym.kind == "type":
                    return psym.typed
            st = self.schema_collection_type(parts)
            if st is not None:
                return st
            supplied = self.supplied_type(parts, text)  # DBMS_SQL.VARCHAR2_TABLE, UTL_FILE.FILE_TYPE ...
            if supplied is not None:
                return supplied
        return builtin(text, self.ctx)

    def anchored(self, name: list[str], which: str, scope: Scope) -> PgType:
        if which == "ROWTYPE":
            sym = scope.get(name[0]) if len(name) == 1 else None
            if sym is not None and sym.kind == "cursor":
                return self.cursor_rowtype(name[0], sym)
            return PgType(sql(tuple(name)), composite=True, fields=self.table_columns(tuple(name)))
        if len(name) == 1:
            sym = scope.get(name[0])
            if sym is not None and sym.type is not None:
                return sym.type
        ref = self.package_ref(name) if len(name) > 1 else None
        if ref is not None and ref[1].type is not None:
            if not ref[2]:
                return ref[1].type
            field = self.field_type(ref[1].type, ref[2])  # pkg.rec_var.field%TYPE
            if field is not None:
                return field
        if len(name) == 2:
            sym = scope.get(name[0])
            if sym is not None and sym.kind in ("var", "param"):
                field = self.field_type(sym.type, name[1:]) if sym.type is not None else None
                return field or PgType(f"{sql(tuple(name))}%TYPE")
        col = self.column_type(name)
        if col is not None:
            return PgType(map_type(col, self.ctx), col)
        return PgType(f"{sql(tuple(name))}%TYPE")

    def field_type(self, t: PgType, path: list[str]) -> PgType | None:
        """The type of a record's field (one level), from the Oracle types the record keeps."""
        ora = (t.fields or {}).get(path[0]) if len(path) == 1 else None
        return builtin(ora, self.ctx) if ora else None

    def table_columns(self, name: tuple[str, ...]) -> dict | None:
        """Columns of the table named by plain parts."""
        entry = self.lookup(name)
        return entry.table.plsql_column_types if entry is not None else None

    def query_fields(self, toks) -> dict[str, str]:
        return query_fields(toks or [], self.table_columns)

    def column_type(self, name: list[str]) -> str | None:
        if len(name) < 2:
            return None
        entry = self.lookup(name[:-1])
        if entry is None:
            return None
        cols = entry.table.plsql_column_types or {}
        return cols.get(name[-1])

    def schema_collection_type(self, parts) -> PgType | None:
        entry = self.lookup(parts)
        if entry is None or entry.plsql_type is None:
            return None
        info = entry.plsql_type
        pgname = sql((entry.schema, entry.name))
        if isinstance(info, ObjectType):
            fields = dict(info.attributes)
            return PgType(pgname, composite=True, object_key=(entry.schema, entry.name), fields=fields)
        elem = self.schema_collection_type(info.element.split(".")) if "(" not in info.element else None
        if elem is None or elem.coll is not None:
            elem = builtin(info.element, self.ctx)
        coll = Coll("array", elem.pg, info.element, elem_composite=elem.composite, elem_object=elem.object_key)
        coll.limit = info.limit
        return PgType(pgname, coll=coll)

    def type_decl(self, d: A.TypeDecl, scope: Scope, owner: Owner) -> Sym:
        """A local/package TYPE → symbol; record types are created as composite types first, and a
        package's SUBTYPEs of scalar types and its nested table / VARRAY types as domains in the
        package's schema (so other units name the same type)."""
        package_level = len(owner) == 1
        if d.kind == "refcursor":
            t = PgType("refcursor", refcursor=True)
        elif d.kind == "subtype":
            t = self.resolve_type(d.element, scope)
            if package_level and self.domain_base(t):
                t = self.create_domain(owner, d, t.pg, t)
        elif d.kind == "record":
            t = PgType(sql(derived(owner, d.name)), composite=True)
            t.fields = self.create_record_type(t.pg, d, scope)
        else:
            elem = self.resolve_type(d.element, scope)
            if d.kind == "assoc":
                idx = type_text(d.index.toks if d.index is not None else []).upper()
                numeric = first_word(idx) not in TEXT_NAMES
                t = PgType("jsonb", coll=Coll("assoc", elem.pg, elem.ora, numeric, elem.composite))
            else:
                coll = Coll("array", elem.pg, elem.ora, elem_composite=elem.composite, elem_object=elem.object_key)
                if d.kind == "varray" and d.limit is not None:
                    coll.limit = self.int_arg(d.limit)
                t = PgType(f"{elem.pg}[]", coll=coll)
                if package_level and "%" not in elem.pg and MARKER_TOKEN not in elem.pg:
                    t = self.create_domain(owner, d, t.pg, t)
        return scope.add(Sym(d.name, "type", t))

    @staticmethod
    def domain_base(t: PgType) -> bool:
        """A type a SUBTYPE can be a domain over: a scalar one (records, collections and cursors
        stay what they are)."""
        return not (t.coll or t.composite or t.refcursor or "%" in t.pg or MARKER_TOKEN in t.pg or t.base)

    def create_domain(self, owner: Owner, d: A.TypeDecl, base: str, t: PgType) -> PgType:
        """CREATE DOMAIN <package>.<name> AS <base> (unless only the scope is being built)."""
        if not self.ctx.enabled("plsql.package"):
            return t  # the type itself, inline, as a local declaration's
        self.ctx.applied("plsql.package")
        name = sql(derived(owner, d.name))
        check = ""
        if (n := t.coll.limit if t.coll is not None else None) is not None:
            check = f" CHECK (cardinality(VALUE) <= {n})"  # Oracle: SUBSCRIPT_OUTSIDE_LIMIT past it
        if not self.suppress_pre:
            self.pre.append(f"DROP DOMAIN IF EXISTS {name} CASCADE;\nCREATE DOMAIN {name} AS {base}{check};")
        return PgType(name, t.ora, coll=t.coll, fields=t.fields, base=base)

    def create_record_type(self, pgname: str, d: A.TypeDecl, scope: Scope) -> dict[str, str]:
        """Creates the composite type (unless suppressed); returns its fields' Oracle types."""
        fields, oras = [], {}
        for fname, ftype in d.fields:
            ft = self.resolve_type(ftype, scope)
            if ft.ora:
                oras[fname] = ft.ora
            if "%" in ft.pg:
                self.unconverted(
                    "record field type", f"cannot resolve {type_text(ftype.toks)} for a composite type", d.line
                )
                fields.append(f"{quote_ident(fname)} {unconverted_marker('record field type', type_text(ftype.toks))}")
            else:
                fields.append(f"{quote_ident(fname)} {ft.pg}")
        if not self.suppress_pre:
            self.pre.append(
                f"DROP TYPE IF EXISTS {pgname} CASCADE;\nCREATE TYPE {pgname} AS (\n    "
                + ",\n    ".join(fields)
                + "\n);"
            )
        return oras

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

    def cursor_rowtype(self, name: str, sym: Sym) -> PgType:
        """c%ROWTYPE: PostgreSQL has no cursor row types, but a view over the cursor's query (its
        parameters as typed NULLs) has exactly that row type — created before the routine."""
        if not sym.sigs:
            return PgType("record", composite=True)
        d, scope = sym.sigs[0]
        view = sql(derived(self.frame.owner, f"{name}_row"))
        fields = self.query_fields(d.query)
        if self.suppress_pre or view in self.created_views:
            return PgType(view, composite=True, fields=fields)
        nscope = scope.child()
        for p in d.params:
            pt = self.resolve_type(p.type, scope)
            nscope.add(Sym(p.name, "nullparam", PgType(f"NULL::{self.castable(pt.pg)}", pt.ora)))
        self.created_views.add(view)
        self.pre.append(f"CREATE OR REPLACE VIEW {view} AS\n{self.query_text(d.query, nscope)};")
        return PgType(view, composite=True, fields=fields)

    def pragma(self, d: A.Pragma) -> None:
        if d.name == "AUTONOMOUS_TRANSACTION":
            self.autonomous_pragma(d)
        elif d.name in ("RESTRICT_REFERENCES", "INLINE", "SERIALLY_REUSABLE", "UDF", "DEPRECATED"):
            self.ctx.note(f"PRAGMA {d.name} only guides the Oracle compiler; not needed in PostgreSQL")
        elif d.name != "EXCEPTION_INIT":
            self.unconverted(f"PRAGMA {d.name}", "unknown pragma", d.line)
