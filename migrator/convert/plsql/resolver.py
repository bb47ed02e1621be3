"""Name and type resolution for PL/SQL, apart from emission: what a name is in a scope, and its
PostgreSQL type.

`Resolver` answers over the conversion context's catalog and a `symbols.Scope`: a type reference
(`NUMBER(10)`, `emp.sal%TYPE`, `c%ROWTYPE`, `pkg.t_list`, a schema-level collection or object type,
`DBMS_SQL.VARCHAR2_TABLE`) → its `PgType`; a name → the type of the value it denotes
(`value_type`) or the exception it names (`exception`); a package's declarations → their scope; a
call's callee → its converted signature (`signature`). Where a type needs DDL before the unit — a record
type's composite type, a package SUBTYPE's or collection type's domain, the view that stands for a
cursor's row type — that DDL is *returned* with the type, as a list of `Ddl`; the caller decides
what to do with it: the emitter puts it before the routine (`emit_decl.take`), the signature pass
(`prepare_sigs`) and a package's scope drop it. Resolving twice returns the DDL twice: nothing is
remembered but the package scopes already built (a cache keyed by the package's name, per unit).

What resolution records in the context stays as it was: a type rule applied (`builtin`), a
record field whose type cannot be resolved, an unknown supplied-package type, an EXCEPTION_INIT
code with no PostgreSQL counterpart.

Every read of a catalog entry's schema-model records is in the "catalog reads" section below.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from harness.ground_truth.oracle_errors import (
    BY_CODE,
    app_error_sqlstate,
    conditions_for_ora,
    sqlstate_for_ora,
    user_exception_sqlstate,
)
from harness.quoting import pg_string, quote_ident
from migrator.convert import supplied as S
from migrator.convert import type_hierarchy as hier
from migrator.convert.context import MARKER_TOKEN, CatalogEntry, ConversionContext, unconverted_marker
from migrator.convert.datatypes import map_type
from migrator.convert.ddl.tokens import dollar_tag
from migrator.convert.oracompat.dictionary import VIEWS as DICTIONARY_VIEWS
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.naming import Owner, derived, label, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.rowfields import query_fields
from migrator.convert.plsql.symbols import Coll, PgType, Scope, Sym, builtin, type_text
from migrator.convert.schema_model import ObjectType, Package
from migrator.convert.signatures import ParamSig, RoutineSig, base_type
from migrator.oracle_types import NUMBER_NAMES, TEXT_NAMES, first_word
from migrator.source.lexer import Token


@dataclass(frozen=True)
class CursorView:
    """The view that gives `c%ROWTYPE` its row type: the cursor's query with its parameters as
    typed NULLs. Its text is the query converted to PostgreSQL — emission — so the caller renders
    it (`emit_decl.take`), once per unit."""

    name: str  # the view's PostgreSQL name (SQL text)
    cursor: A.CursorDecl
    scope: Scope  # where the cursor is declared: its parameters' types resolve there


# DDL a type needs before the unit: a statement's text, or a cursor row type's view to render.
Ddl = str | CursorView

# How a declaration resolves the types it is built from (a record's fields, a collection's element,
# a signature's parameters): a type reference in a scope → that type and the DDL it needs. The
# emitter passes its own, which puts each part's DDL before the unit as soon as that part is
# resolved (`emit_decl.resolving`), so what converting a cursor view's query records in the context
# comes before what the next part's type records, as when each part is converted on its own.
TypeResolve = Callable[[A.TypeRef, Scope], tuple[PgType, list[Ddl]]]


def int_literal(toks: list[Token]) -> int | None:
    """An integer literal's value (a VARRAY's size, an EXCEPTION_INIT code), else None."""
    text = "".join(t.text for t in toks)
    try:
        return int(text)
    except ValueError:
        return None


def target_type(toks: list[Token], scope: Scope) -> PgType | None:
    """The type of an assignment or INTO target that is a plain name in scope."""
    sym = scope.get(norm_name(toks[0])) if toks else None
    if sym is not None and len(toks) == 1:
        return sym.type
    return None


def domain_base(t: PgType) -> bool:
    """A type a SUBTYPE can be a domain over: a scalar one (records, collections and cursors stay
    what they are)."""
    return not (t.coll or t.composite or t.refcursor or "%" in t.pg or MARKER_TOKEN in t.pg or t.base)


def field_type(t: PgType, path: list[str], ctx: ConversionContext) -> PgType | None:
    """The type of a record's field (one level), from the Oracle types the record keeps."""
    ora = (t.fields or {}).get(path[0]) if len(path) == 1 else None
    return builtin(ora, ctx) if ora else None


class Resolver:
    """Resolution for one unit: its schema (unqualified names are looked up there first) and the
    package being converted (`pkg`: its own types are named unqualified inside it)."""

    def __init__(self, ctx: ConversionContext, schema: str, pkg: str | None = None):
        self.ctx = ctx
        self.schema = schema
        self.pkg = pkg
        self._pkg_scopes: dict[str, Scope] = {}  # package name → its declarations' scope

    # ---- catalog reads -------------------------------------------------------------------------------
    def lookup(self, parts) -> CatalogEntry | None:
        """Catalog entry for a name (plain parts) as Oracle resolves it: unqualified names in the
        unit owner's schema first (which may differ from the run's default schema), then the
        default."""
        parts = tuple(parts)
        if len(parts) == 1:
            entry = self.ctx.catalog.lookup(self.schema, parts[0])
            if entry is not None:
                return entry
        return self.ctx.catalog.lookup(*parts)

    def package_info(self, pkg: tuple[str, ...]) -> Package | None:
        entry = self.lookup(pkg)
        if entry is None:
            return None
        return entry.package

    def pkg_members(self, pkg: tuple[str, ...]) -> dict:
        info = self.package_info(pkg)
        return info.routines if info else {}

    def table_columns(self, name: tuple[str, ...]) -> dict | None:
        """Columns of the table named by plain parts: column → Oracle type."""
        entry = self.lookup(name)
        return entry.table.plsql_column_types if entry is not None else None

    def column_type(self, name: list[str]) -> str | None:
        """The Oracle type of `table.column` (or `schema.table.column`)."""
        if len(name) < 2:
            return None
        entry = self.lookup(name[:-1])
        if entry is None:
            return None
        cols = entry.table.plsql_column_types or {}
        return cols.get(name[-1])

    def boxed_attribute(self, key: tuple[str, str], attr: str) -> bool:
        """Is attribute `attr` of object type `key` held in its text form (`type_hierarchy.boxed`)?"""
        cat = self.ctx.catalog
        return key in cat.entries and hier.in_hierarchy(cat, key) and attr in hier.boxed(cat, key)

    def object_methods(self, key: tuple[str, str]) -> dict:
        """A schema-level object type's methods: name → its routines (in a hierarchy, the ones it
        inherits too: `type_hierarchy.methods`)."""
        entry = self.lookup(key)
        if entry is not None and hier.in_hierarchy(self.ctx.catalog, (entry.schema, entry.name)):
            return hier.methods(self.ctx.catalog, (entry.schema, entry.name))
        return entry.methods if entry is not None else {}

    def schema_collection_type(self, parts) -> PgType | None:
        """A schema-level object or collection type (CREATE TYPE) named by plain parts."""
        entry = self.lookup(parts)
        if entry is None or entry.plsql_type is None:
            return None
        info = entry.plsql_type
        pgname = sql((entry.schema, entry.name))
        if isinstance(info, ObjectType):
            fields = dict(info.attributes)
            if hier.in_hierarchy(self.ctx.catalog, (entry.schema, entry.name)):  # inherited ones too
                fields = hier.attributes(self.ctx.catalog, (entry.schema, entry.name))
            return PgType(pgname, composite=True, object_key=(entry.schema, entry.name), fields=fields)
        elem = None
        if "(" not in info.element:
            parts = info.element.split(".")
            if len(parts) == 1:  # an unqualified element type is the collection owner's schema's first
                elem = self.schema_collection_type([entry.schema, parts[0]])
            if elem is None:
                elem = self.schema_collection_type(parts)
        if elem is None or elem.coll is not None:
            elem = builtin(info.element, self.ctx)
        coll = Coll("array", elem.pg, info.element, elem_composite=elem.composite, elem_object=elem.object_key)
        coll.limit = info.limit
        return PgType(pgname, coll=coll)

    # ---- names -----------------------------------------------------------------------------------------
    def split_pkg(self, parts: list[str]) -> tuple[tuple[str, ...], list[str]] | None:
        """(package name parts, remaining parts) when parts start with [schema.]package."""
        if len(parts) >= 2 and self.package_info(tuple(parts[:1])) is not None:
            return tuple(parts[:1]), parts[1:]
        if len(parts) >= 3 and self.package_info(tuple(parts[:2])) is not None:
            return tuple(parts[:2]), parts[2:]
        return None

    def package_ref(self, parts: list[str]) -> tuple[str, Sym, list[str]] | None:
        """(package, symbol, rest) for pkg.var / pkg.type / pkg.exception references."""
        hit = self.split_pkg(parts)
        if hit is None:
            return None
        pkg, rest = hit
        sym = self.pkg_scope(pkg).names.get(rest[0])
        if sym is None:
            return None
        return pkg[-1], sym, rest[1:]

    def package_member(self, parts: list[str]) -> tuple[str, str, list] | None:
        """(package, member, its routines) for a call of pkg.member."""
        hit = self.split_pkg(parts)
        if hit is None or len(hit[1]) != 1:
            return None
        pkg, rest = hit
        sigs = self.pkg_members(pkg).get(rest[0])
        if sigs is None:
            return None
        return pkg[-1], rest[0], sigs

    def supplied(self, parts, scope: Scope | None = None) -> tuple[S.Ref, int] | None:
        """The supplied-package reference a name starts with, unless a local name or an object of
        the schema hides it."""
        if scope is not None and scope.get(parts[0]) is not None:
            return None
        return S.split_ref(parts, self.user_object)

    def user_object(self, name: str) -> bool:
        return self.lookup((name,)) is not None

    def value_type(self, parts, scope: Scope) -> PgType | None:
        """The type of the value a name denotes: a variable in scope, or a package's variable."""
        sym = scope.get(parts[0])
        if sym is None:
            ref = self.package_ref(parts)
            sym = ref[1] if ref is not None and len(ref[2]) == 0 else None
            return sym.type if sym is not None else None
        if len(parts) == 2 and sym.type is not None and sym.type.object_key and sym.type.fields:
            # obj.attr (SELF.attr): an attribute of a schema-level collection type
            ora = sym.type.fields.get(parts[1])
            if not ora or "(" in ora or self.boxed_attribute(sym.type.object_key, parts[1]):
                return None
            found = self.schema_collection_type([p.strip('"').lower() for p in ora.split(".")])
            return found if found is not None and found.coll is not None else None
        return sym.type if len(parts) == 1 else None

    def exception(self, parts: tuple[str, ...], scope: Scope) -> Sym | None:
        """The user-defined exception named by plain parts (local, own package, or pkg.e), or a
        supplied package's (DBMS_ASSERT.INVALID_SQL_NAME ...)."""
        if len(parts) == 1:
            sym = scope.get(parts[0])
            if sym is not None and sym.kind == "exception":
                return sym
            if self.pkg:
                psym = self.pkg_scope((self.pkg,)).names.get(parts[0])
                if psym is not None and psym.kind == "exception":
                    return psym
            return None
        ref = self.package_ref(list(parts))
        if ref is not None and ref[1].kind == "exception":
            return ref[1]
        return self.supplied_exception(parts)

    def supplied_exception(self, parts) -> Sym | None:
        hit = self.supplied(parts)
        if hit is None or hit[1] != len(parts):
            return None
        ref = hit[0]
        if S.is_redesign(ref):
            return Sym(ref.label, "exception", conditions=(S.redesign_marker(ref),))
        code = S.EXCEPTIONS.get((ref.package, ref.member))
        state, conds = (sqlstate_for_ora(code), conditions_for_ora(code)) if code is not None else (None, None)
        if state is None or conds is None:
            return None
        return Sym(ref.label, "exception", sqlstate=state, conditions=conds)

    def pkg_scope(self, pkg: tuple[str, ...]) -> Scope:
        """The scope of a package's declarations (spec and body): its exceptions, types and
        variables, resolved as the package's own code resolves them. Built once per package; the
        DDL its types need is dropped here (the package's own conversion creates it)."""
        key = pkg[-1]  # a package becomes the schema named after it
        hit = self._pkg_scopes.get(key)
        if hit is not None:
            return hit
        info = self.package_info(pkg) or Package()
        scope = Scope()
        self._pkg_scopes[key] = scope
        saved_pkg, self.pkg = self.pkg, key
        try:
            for name, state in info.exceptions.items():
                scope.add(Sym(name, "exception", sqlstate=state, conditions=(f"SQLSTATE '{state}'",)))
            for name, code in info.exception_init.items():
                scope.add(self.exception_init_sym(name, A.Pragma("EXCEPTION_INIT", [[], code]), (key,)))
            # in declaration order (a type may be anchored to a variable: SUBTYPE t IS g%TYPE)
            order = list(dict.fromkeys(info.spec_order + info.body_order))
            order += [("type", n) for n in info.types if ("type", n) not in order]
            order += [("var", n) for n in info.variables if ("var", n) not in order]
            for what, name in order:
                if what == "type":
                    self.type_decl(info.types[name], scope, (key,))
                    continue
                d = info.variables[name]
                t, _ = self.resolve_type(d.type, scope, (key,))
                size = None
                if name in info.sparse_variables and t.coll is not None and t.coll.kind == "array":
                    t = sparse_type(t)  # DELETE(i) makes it sparse: held as a jsonb map (emit_package)
                    size = (sql((key, f"{d.name}__size")), sql((key, f"set__{d.name}__size")))
                scope.add(
                    Sym(
                        d.name,
                        "pkgconst" if d.constant else "pkgvar",
                        t,
                        getter=sql((key, d.name)),
                        setter=sql((key, f"set__{d.name}")),
                        size_state=size,
                    )
                )
        finally:
            self.pkg = saved_pkg
        return scope

    def exception_init_sym(self, name: str, p: A.Pragma, owner: Owner) -> Sym:
        """The exception PRAGMA EXCEPTION_INIT binds `name` to: the SQLSTATE its code raises as."""
        code = int_literal(p.args[1])
        if code is None:
            self.ctx.unconverted("PRAGMA EXCEPTION_INIT", f"exception {name}: error code is not a literal", p.line)
            state = user_exception_sqlstate(f"{label(owner)}.{name}")
            return Sym(name, "exception", sqlstate=state, conditions=(f"SQLSTATE '{state}'",))
        app = app_error_sqlstate(code)
        if app:
            return Sym(name, "exception", sqlstate=app, conditions=(f"SQLSTATE '{app}'",))
        known = BY_CODE.get(code)
        if known:
            return Sym(name, "exception", sqlstate=known.sqlstate, conditions=known.conditions)
        state = f"OX{abs(code) % 1000:03d}"
        self.ctx.note(
            f"exception {name}: ORA{code} has no PostgreSQL counterpart; raised and caught as SQLSTATE {state}"
        )
        return Sym(name, "exception", sqlstate=state, conditions=(f"SQLSTATE '{state}'",))

    # ---- types -------------------------------------------------------------------------------------
    def resolve_type(self, tref: A.TypeRef, scope: Scope, owner: Owner) -> tuple[PgType, list[Ddl]]:
        """A type reference in `scope` → its type, and the DDL it needs. `owner` is the routine the
        reference stands in (a cursor row type's view is named after it)."""
        toks = tref.toks
        if len(toks) >= 3 and toks[-2].is_op("%") and toks[-1].is_word("TYPE", "ROWTYPE"):
            name = [norm_name(t) for t in toks[:-2] if not t.is_op(".")]
            return self.anchored(name, toks[-1].upper, scope, owner)
        text = type_text(toks)
        if toks and toks[0].kind in ("word", "qident") and (len(toks) == 1 or toks[1].is_op(".")):
            parts = [norm_name(t) for t in toks if not t.is_op(".")]
            sym = scope.get(parts[0]) if len(parts) == 1 else None
            if sym is not None and sym.kind == "type":
                return sym.typed, []
            ref = self.package_ref(parts) if len(parts) > 1 else None
            if ref is not None and ref[1].kind == "type":
                return ref[1].typed, []
            if len(parts) == 1 and self.pkg:
                psym = self.pkg_scope((self.pkg,)).names.get(parts[0])
                if psym is not None and psym.kind == "type":
                    return psym.typed, []
            st = self.schema_collection_type(parts)
            if st is not None:
                return st, []
            supplied = self.supplied_type(parts, text)  # DBMS_SQL.VARCHAR2_TABLE, UTL_FILE.FILE_TYPE ...
            if supplied is not None:
                return supplied, []
        return builtin(text, self.ctx), []

    def anchored(self, name: list[str], which: str, scope: Scope, owner: Owner) -> tuple[PgType, list[Ddl]]:
        """`name%TYPE` / `name%ROWTYPE`: a variable's, a package variable's, a record field's, a
        column's type; a table's or a cursor's row type."""
        name = self.dictionary_owner(name)
        if which == "ROWTYPE":
            sym = scope.get(name[0]) if len(name) == 1 else None
            if sym is not None and sym.kind == "cursor":
                return self.cursor_rowtype(name[0], sym, owner)
            return PgType(sql(tuple(name)), composite=True, fields=self.table_columns(tuple(name))), []
        if len(name) == 1:
            sym = scope.get(name[0])
            if sym is not None and sym.type is not None:
                return sym.type, []
        ref = self.package_ref(name) if len(name) > 1 else None
        if ref is not None and ref[1].type is not None:
            if not ref[2]:
                return ref[1].type, []
            field = field_type(ref[1].type, ref[2], self.ctx)  # pkg.rec_var.field%TYPE
            if field is not None:
                return field, []
        if len(name) == 2:
            sym = scope.get(name[0])
            if sym is not None and sym.kind in ("var", "param"):
                field = field_type(sym.type, name[1:], self.ctx) if sym.type is not None else None
                return field or PgType(f"{sql(tuple(name))}%TYPE"), []
        col = self.column_type(name)
        if col is not None:
            return PgType(map_type(col, self.ctx), col), []
        return PgType(f"{sql(tuple(name))}%TYPE"), []

    def dictionary_owner(self, name: list[str]) -> list[str]:
        """`SYS.USER_TABLES[.col]`: a data dictionary view, which the oracompat library defines."""
        if len(name) >= 2 and name[0].upper() == "SYS" and name[1].upper() in DICTIONARY_VIEWS:
            if self.ctx.enabled("sql.dictionary_view"):
                self.ctx.applied("sql.dictionary_view")
                return ["oracompat", *name[1:]]
        return name

    def cursor_rowtype(self, name: str, sym: Sym, owner: Owner) -> tuple[PgType, list[Ddl]]:
        """c%ROWTYPE: PostgreSQL has no cursor row types, but a view over the cursor's query (its
        parameters as typed NULLs) has exactly that row type — created before the routine."""
        if not sym.sigs:
            return PgType("record", composite=True), []
        d, scope = sym.sigs[0]
        view = sql(derived(owner, f"{name}_row"))
        fields = query_fields(d.query or [], self.table_columns)
        return PgType(view, composite=True, fields=fields), [CursorView(view, d, scope)]

    def supplied_type(self, parts, text: str) -> PgType | None:
        """A supplied package's type (DBMS_SQL.VARCHAR2_TABLE ...), or its marker."""
        hit = self.supplied(parts)
        if hit is None or hit[1] != len(parts):
            return None
        ref = hit[0]
        if S.is_redesign(ref):
            return PgType(S.redesign_marker(ref, text))
        spec = S.TYPES.get((ref.package, ref.member))
        if spec is None:
            self.ctx.unconverted(S.SUPPLIED_CONSTRUCT, f"{ref.label.lower()}: no conversion for this type")
            return PgType(unconverted_marker(S.SUPPLIED_CONSTRUCT, text))
        if not self.ctx.enabled("plsql.supplied_package"):
            self.ctx.unconverted(ref.label, "rule plsql.supplied_package is disabled")
            return PgType(unconverted_marker(ref.label, text))
        self.ctx.applied("plsql.supplied_package")
        if spec[0] in ("record", "assoc_record"):  # a composite type of the library
            rec = PgType(spec[1], composite=True, fields=dict(S.RECORD_FIELDS[spec[1]]))
            if spec[0] == "record":
                return rec
            return PgType("jsonb", text, coll=Coll("assoc", rec.pg, "", True, True))
        elem = builtin(spec[1], self.ctx)
        if spec[0] == "scalar":
            return elem
        return PgType("jsonb", text, coll=Coll("assoc", elem.pg, elem.ora, True, elem.composite))

    # ---- type declarations ---------------------------------------------------------------------------
    def type_decl(
        self, d: A.TypeDecl, scope: Scope, owner: Owner, resolve: TypeResolve | None = None
    ) -> tuple[Sym, list[Ddl]]:
        """A local/package TYPE → its symbol, added to `scope`, and its DDL: a record type's
        composite type; a package's SUBTYPE of a scalar type, nested table or VARRAY type as a
        domain in the package's schema (so other units name the same type). The types it is built
        from are resolved by `resolve` (by default this resolver, in `owner`)."""
        resolve = resolve or (lambda tref, s: self.resolve_type(tref, s, owner))
        package_level = len(owner) == 1
        ddl: list[Ddl] = []
        if d.kind == "refcursor":
            t = PgType("refcursor", refcursor=True)
        elif d.kind == "subtype":
            t, ddl = resolve(d.element, scope)
            if package_level and domain_base(t):
                t = self.create_domain(owner, d, t.pg, t, ddl)
        elif d.kind == "record":
            t = PgType(sql(derived(owner, d.name)), composite=True)
            colls: dict[str, PgType] = {}
            t.fields = self.create_record_type(t.pg, d, scope, resolve, ddl, colls)
            t.colls = colls or None
        else:
            elem, ddl = resolve(d.element, scope)
            if d.kind == "assoc":
                idx = type_text(d.index.toks if d.index is not None else []).upper()
                numeric = first_word(idx) not in TEXT_NAMES
                if numeric and d.index is not None and first_word(idx) not in NUMBER_NAMES:
                    # INDEX BY a SUBTYPE or an anchored type: the keys are what it resolves to
                    it, _ = resolve(d.index, scope)
                    numeric = not (
                        first_word(it.ora.upper()) in TEXT_NAMES
                        or it.plain_pg.startswith(("varchar", "text", "bpchar", "character"))
                    )
                t = PgType("jsonb", coll=Coll("assoc", elem.pg, elem.ora, numeric, elem.composite))
                if elem.coll is None and (elem.fields or elem.colls):  # a record's fields
                    t.coll.elem_type = elem  # type: ignore[union-attr]
            else:
                coll = Coll("array", elem.pg, elem.ora, elem_composite=elem.composite, elem_object=elem.object_key)
                if (elem.coll is not None and elem.base) or (elem.coll is None and (elem.fields or elem.colls)):
                    # a record's fields, or a collection type of the package (a domain: an
                    # array of it is one-dimensional, each element an array)
                    coll.elem_type = elem
                if d.kind == "varray" and d.limit is not None:
                    coll.limit = int_literal(d.limit)
                t = PgType(f"{elem.pg}[]", coll=coll)
                if package_level and "%" not in elem.pg and MARKER_TOKEN not in elem.pg:
                    t = self.create_domain(owner, d, t.pg, t, ddl)
        return scope.add(Sym(d.name, "type", t)), ddl

    def create_domain(self, owner: Owner, d: A.TypeDecl, base: str, t: PgType, ddl: list[Ddl]) -> PgType:
        """The domain <package>.<name> over `base`; its CREATE DOMAIN added to `ddl`."""
        if not self.ctx.enabled("plsql.package"):
            return t  # the type itself, inline, as a local declaration's
        self.ctx.applied("plsql.package")
        name = sql(derived(owner, d.name))
        check = ""
        if (n := t.coll.limit if t.coll is not None else None) is not None:
            check = f" CHECK (cardinality(VALUE) <= {n})"  # Oracle: SUBSCRIPT_OUTSIDE_LIMIT past it
        ddl.append(f"DROP DOMAIN IF EXISTS {name} CASCADE;\nCREATE DOMAIN {name} AS {base}{check};")
        return PgType(name, t.ora, coll=t.coll, fields=t.fields, base=base)

    def create_record_type(
        self,
        pgname: str,
        d: A.TypeDecl,
        scope: Scope,
        resolve: TypeResolve,
        ddl: list[Ddl],
        colls: dict[str, PgType] | None = None,
    ) -> dict[str, str]:
        """The record's composite type, after what its fields' types need, added to `ddl`;
        returns its fields' Oracle types (and puts the collection-typed fields' types in `colls`)."""
        fields: list[str] = []
        oras: dict[str, str] = {}
        deferred: dict[int, tuple[str, list[str]]] = {}  # field index -> (name, anchor's relation and column)
        for fname, ftype in d.fields:
            ft, needs = resolve(ftype, scope)
            ddl += needs
            if ft.ora:
                oras[fname] = ft.ora
            if ft.coll is not None and colls is not None:
                colls[fname] = ft
            column = self.unknown_column_anchor(ftype, scope)
            if "%" in ft.pg and column is not None and self.ctx.enabled("plsql.record_field_anchor"):
                self.ctx.applied("plsql.record_field_anchor")
                deferred[len(fields)] = (fname, column)
                fields.append("")
            elif "%" in ft.pg:
                self.ctx.unconverted(
                    "record field type", f"cannot resolve {type_text(ftype.toks)} for a composite type", d.line
                )
                fields.append(f"{quote_ident(fname)} {unconverted_marker('record field type', type_text(ftype.toks))}")
            else:
                fields.append(f"{quote_ident(fname)} {ft.pg}")
        if deferred:
            ddl.append(f"DROP TYPE IF EXISTS {pgname} CASCADE;\n" + deferred_record_type(pgname, fields, deferred))
            return oras
        ddl.append(
            f"DROP TYPE IF EXISTS {pgname} CASCADE;\nCREATE TYPE {pgname} AS (\n    " + ",\n    ".join(fields) + "\n);"
        )
        return oras

    def unknown_column_anchor(self, tref: A.TypeRef, scope: Scope) -> list[str] | None:
        """`[schema.]relation.column%TYPE` naming no variable, record or package item: the
        relation's and column's plain names, for a column the catalog does not hold (a view
        created at deploy time, another schema's table, a dictionary view)."""
        toks = tref.toks
        if not (len(toks) >= 5 and toks[-2].is_op("%") and toks[-1].is_word("TYPE")):
            return None
        body = toks[:-2]
        if not all(t.kind in ("word", "qident") if k % 2 == 0 else t.is_op(".") for k, t in enumerate(body)):
            return None
        name = [norm_name(t) for t in body if not t.is_op(".")]
        if len(name) not in (2, 3) or scope.get(name[0]) is not None or self.package_ref(name) is not None:
            return None
        return self.dictionary_owner(name)


# ---- signatures ------------------------------------------------------------------------------------------
def signature(
    res: Resolver,
    r: A.Routine,
    target: tuple[str, str],
    parent: Scope,
    owner: Owner,
    resolve: TypeResolve | None = None,
) -> tuple[RoutineSig, list[Ddl]]:
    """`r`'s converted signature, its parameter types resolved in a child of `parent` (by
    `resolve`, by default `res` in `owner`: the routine whose code names `r`), and the DDL those
    types need."""
    resolve = resolve or (lambda tref, s: res.resolve_type(tref, s, owner))
    scope = parent.child()
    params, ddl = [], []
    for p in r.params:
        t, needs = resolve(p.type, scope)
        ddl += needs
        scope.add(Sym(p.name, "param", t))
        scalar = t.coll is None and not t.composite and not t.refcursor
        params.append(ParamSig(p.name, p.mode, t.pg, t.ora if scalar else "", p.default is not None))
    ret = None
    if r.kind == "FUNCTION" and r.returns is not None:
        ret, needs = resolve(r.returns, scope)
        ddl += needs
    return RoutineSig(r.kind, target, tuple(params), ret.pg if ret else "", ret.ora if ret else ""), ddl


def sparse_type(t: PgType) -> PgType:
    """A nested table that DELETE(i) makes sparse, held as a jsonb map index → element (as an
    INDEX BY table: Oracle's COUNT, FIRST, NEXT, EXISTS skip deleted elements); `array_pg` is its
    dense array type, for whole-value uses (`emit_collections.sparse_to_array`)."""
    c = t.coll
    assert c is not None
    return PgType("jsonb", t.ora, coll=Coll("assoc", c.elem_pg, c.elem_ora, True, c.elem_composite), array_pg=t.pg)


def distinct(sigs: list[RoutineSig]) -> list[RoutineSig]:
    """One signature per routine PostgreSQL gets: a spec and a body may spell one member's types
    differently (`emp.id%TYPE` and `NUMBER(10)`), and they convert to the same function. Overloads
    whose parameters differ only in their names are kept apart (named calls tell them apart in
    Oracle; `emit_routine.overload_tag` in PostgreSQL)."""
    seen, out = set(), []
    for sig in sigs:
        key = (sig.kind, tuple((p.name, base_type(p.pg)) for p in sig.params))
        if key not in seen:
            seen.add(key)
            out.append(sig)
    return out


def deferred_record_type(pgname: str, fields: list[str], deferred: dict[int, tuple[str, list[str]]]) -> str:
    """CREATE TYPE for a record whose fields are anchored (`rel.col%TYPE`) on columns only the
    database knows: a DO block reads each column's type from pg_attribute when the unit is
    deployed, as Oracle reads it when the unit is compiled, and fails naming the column when it
    does not exist there (as Oracle's compilation does, PLS-00302)."""
    lines = ["DECLARE", "    cols text[] := '{}';", "    typ text;", "BEGIN"]
    for k, text in enumerate(fields):
        if k not in deferred:
            lines.append(f"    cols := cols || {pg_string(text)}::text;")
            continue
        fname, name = deferred[k]
        rel, col = sql(tuple(name[:-1])), name[-1]
        lines += [
            "    SELECT format_type(a.atttypid, a.atttypmod) INTO typ FROM pg_attribute a",
            f"     WHERE a.attrelid = to_regclass({pg_string(rel)}) AND a.attname = {pg_string(col)}",
            "       AND a.attnum > 0 AND NOT a.attisdropped;",
            "    IF typ IS NULL THEN",
            "        RAISE EXCEPTION USING ERRCODE = '42703', MESSAGE ="
            f" {pg_string('record field ' + fname + ': ' + rel + '.' + col + '%TYPE names no column')};",
            "    END IF;",
            f"    cols := cols || ({pg_string(quote_ident(fname) + ' ')} || typ);",
        ]
    lines += [
        f"    EXECUTE format('CREATE TYPE %s AS (%s)', {pg_string(pgname)}, array_to_string(cols, ', '));",
        "END;",
    ]
    body = "\n".join(lines)
    tag = dollar_tag(body)
    return f"DO {tag}\n{body}\n{tag};"
