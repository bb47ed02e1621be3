"""Declarations: types (%TYPE/%ROWTYPE, records, collection types), variables, cursors, pragmas.
Exceptions and EXCEPTION_INIT are `emit_exceptions`; nested subprograms `emit_nested`."""

from __future__ import annotations

from functools import partial

from harness.quoting import quote_ident
from migrator.convert.context import MARKER_TOKEN, unconverted_marker
from migrator.convert.datatypes import map_type
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_autonomous as autonomous_
from migrator.convert.plsql import emit_collections as coll_
from migrator.convert.plsql import emit_exceptions as exc_
from migrator.convert.plsql import emit_nested as nested_
from migrator.convert.plsql import emit_package as package_
from migrator.convert.plsql import emit_sql as sql_
from migrator.convert.plsql import emit_stmt as stmt_
from migrator.convert.plsql import emit_supplied as supplied_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import rowfields
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import Owner, derived, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import Coll, PgType, Scope, Sym, builtin, type_text


def resolve_type(em: Emitter, tref: A.TypeRef, scope: Scope) -> PgType:
    toks = tref.toks
    if len(toks) >= 3 and toks[-2].is_op("%") and toks[-1].is_word("TYPE", "ROWTYPE"):
        name = [norm_name(t) for t in toks[:-2] if not t.is_op(".")]
        return anchored(em, name, toks[-1].upper, scope)
    text = type_text(toks)
    if toks and toks[0].kind in ("word", "qident") and (len(toks) == 1 or toks[1].is_op(".")):
        parts = [norm_name(t) for t in toks if not t.is_op(".")]
        sym = scope.get(parts[0]) if len(parts) == 1 else None
        if sym is not None and sym.kind == "type":
            return sym.typed
        ref = package_.package_ref(em, parts) if len(parts) > 1 else None
        if ref is not None and ref[1].kind == "type":
            return ref[1].typed
        if len(parts) == 1 and em.pkg:
            psym = package_.pkg_scope(em, (em.pkg,)).names.get(parts[0])
            if psym is not None and psym.kind == "type":
                return psym.typed
        st = schema_collection_type(em, parts)
        if st is not None:
            return st
        supplied = supplied_.supplied_type(em, parts, text)  # DBMS_SQL.VARCHAR2_TABLE, UTL_FILE.FILE_TYPE ...
        if supplied is not None:
            return supplied
    return builtin(text, em.ctx)


def anchored(em: Emitter, name: list[str], which: str, scope: Scope) -> PgType:
    if which == "ROWTYPE":
        sym = scope.get(name[0]) if len(name) == 1 else None
        if sym is not None and sym.kind == "cursor":
            return cursor_rowtype(em, name[0], sym)
        return PgType(sql(tuple(name)), composite=True, fields=table_columns(em, tuple(name)))
    if len(name) == 1:
        sym = scope.get(name[0])
        if sym is not None and sym.type is not None:
            return sym.type
    ref = package_.package_ref(em, name) if len(name) > 1 else None
    if ref is not None and ref[1].type is not None:
        if not ref[2]:
            return ref[1].type
        field = field_type(em, ref[1].type, ref[2])  # pkg.rec_var.field%TYPE
        if field is not None:
            return field
    if len(name) == 2:
        sym = scope.get(name[0])
        if sym is not None and sym.kind in ("var", "param"):
            field = field_type(em, sym.type, name[1:]) if sym.type is not None else None
            return field or PgType(f"{sql(tuple(name))}%TYPE")
    col = column_type(em, name)
    if col is not None:
        return PgType(map_type(col, em.ctx), col)
    return PgType(f"{sql(tuple(name))}%TYPE")


def field_type(em: Emitter, t: PgType, path: list[str]) -> PgType | None:
    """The type of a record's field (one level), from the Oracle types the record keeps."""
    ora = (t.fields or {}).get(path[0]) if len(path) == 1 else None
    return builtin(ora, em.ctx) if ora else None


def table_columns(em: Emitter, name: tuple[str, ...]) -> dict | None:
    """Columns of the table named by plain parts."""
    entry = package_.lookup(em, name)
    return entry.info.get("plsql_columns") if entry is not None else None


def query_fields(em: Emitter, toks) -> dict[str, str]:
    return rowfields.query_fields(toks or [], partial(table_columns, em))


def column_type(em: Emitter, name: list[str]) -> str | None:
    if len(name) < 2:
        return None
    entry = package_.lookup(em, name[:-1])
    if entry is None:
        return None
    cols = entry.info.get("plsql_columns") or {}
    return cols.get(name[-1])


def schema_collection_type(em: Emitter, parts) -> PgType | None:
    entry = package_.lookup(em, parts)
    if entry is None or "plsql_type" not in entry.info:
        return None
    info = entry.info["plsql_type"]
    pgname = sql((entry.schema, entry.name))
    if info["kind"] == "object":
        fields = dict(info.get("attrs") or {})
        return PgType(pgname, composite=True, object_key=(entry.schema, entry.name), fields=fields)
    elem = schema_collection_type(em, info["elem"].split(".")) if "(" not in info["elem"] else None
    if elem is None or elem.coll is not None:
        elem = builtin(info["elem"], em.ctx)
    coll = Coll("array", elem.pg, info["elem"], elem_composite=elem.composite, elem_object=elem.object_key)
    coll.limit = info.get("limit")
    return PgType(pgname, coll=coll)


def type_decl(em: Emitter, d: A.TypeDecl, scope: Scope, owner: Owner) -> Sym:
    """A local/package TYPE → symbol; record types are created as composite types first, and a
    package's SUBTYPEs of scalar types and its nested table / VARRAY types as domains in the
    package's schema (so other units name the same type)."""
    package_level = len(owner) == 1
    if d.kind == "refcursor":
        t = PgType("refcursor", refcursor=True)
    elif d.kind == "subtype":
        t = resolve_type(em, d.element, scope)
        if package_level and domain_base(t):
            t = create_domain(em, owner, d, t.pg, t)
    elif d.kind == "record":
        t = PgType(sql(derived(owner, d.name)), composite=True)
        t.fields = create_record_type(em, t.pg, d, scope)
    else:
        elem = resolve_type(em, d.element, scope)
        if d.kind == "assoc":
            idx = type_text(d.index.toks if d.index is not None else []).upper()
            numeric = not idx.startswith(("VARCHAR", "STRING", "NVARCHAR", "CHAR", "LONG"))
            t = PgType("jsonb", coll=Coll("assoc", elem.pg, elem.ora, numeric, elem.composite))
        else:
            coll = Coll("array", elem.pg, elem.ora, elem_composite=elem.composite, elem_object=elem.object_key)
            if d.kind == "varray" and d.limit is not None:
                coll.limit = exc_.int_arg(em, d.limit)
            t = PgType(f"{elem.pg}[]", coll=coll)
            if package_level and "%" not in elem.pg and MARKER_TOKEN not in elem.pg:
                t = create_domain(em, owner, d, t.pg, t)
    return scope.add(Sym(d.name, "type", t))


def domain_base(t: PgType) -> bool:
    """A type a SUBTYPE can be a domain over: a scalar one (records, collections and cursors
    stay what they are)."""
    return not (t.coll or t.composite or t.refcursor or "%" in t.pg or MARKER_TOKEN in t.pg or t.base)


def create_domain(em: Emitter, owner: Owner, d: A.TypeDecl, base: str, t: PgType) -> PgType:
    """CREATE DOMAIN <package>.<name> AS <base> (unless only the scope is being built)."""
    if not em.ctx.enabled("plsql.package"):
        return t  # the type itself, inline, as a local declaration's
    em.ctx.applied("plsql.package")
    name = sql(derived(owner, d.name))
    check = ""
    if (n := t.coll.limit if t.coll is not None else None) is not None:
        check = f" CHECK (cardinality(VALUE) <= {n})"  # Oracle: SUBSCRIPT_OUTSIDE_LIMIT past it
    if not em.suppress_pre:
        em.pre.append(f"DROP DOMAIN IF EXISTS {name} CASCADE;\nCREATE DOMAIN {name} AS {base}{check};")
    return PgType(name, t.ora, coll=t.coll, fields=t.fields, base=base)


def create_record_type(em: Emitter, pgname: str, d: A.TypeDecl, scope: Scope) -> dict[str, str]:
    """Creates the composite type (unless suppressed); returns its fields' Oracle types."""
    fields, oras = [], {}
    for fname, ftype in d.fields:
        ft = resolve_type(em, ftype, scope)
        if ft.ora:
            oras[fname] = ft.ora
        if "%" in ft.pg:
            em.unconverted("record field type", f"cannot resolve {type_text(ftype.toks)} for a composite type", d.line)
            fields.append(f"{quote_ident(fname)} {unconverted_marker('record field type', type_text(ftype.toks))}")
        else:
            fields.append(f"{quote_ident(fname)} {ft.pg}")
    if not em.suppress_pre:
        em.pre.append(
            f"DROP TYPE IF EXISTS {pgname} CASCADE;\nCREATE TYPE {pgname} AS (\n    " + ",\n    ".join(fields) + "\n);"
        )
    return oras


# ---- declarations in a block -----------------------------------------------------------------
def declarations(em: Emitter, decls: list, scope: Scope, owner: Owner) -> list[str]:
    """PL/pgSQL DECLARE lines for a block's declarations (types/exceptions become symbols)."""
    lines: list[str] = []
    inits = [d for d in decls if isinstance(d, A.Pragma) and d.name == "EXCEPTION_INIT"]
    for d in decls:
        if isinstance(d, A.TypeDecl):
            type_decl(em, d, scope, owner)
        elif isinstance(d, A.ExceptionDecl):
            exc_.exception_sym(em, d.name, scope, owner, inits)
        elif isinstance(d, A.VarDecl):
            lines.append(var_line(em, d, scope))
        elif isinstance(d, A.CursorDecl):
            lines.append(cursor_line(em, d, scope))
        elif isinstance(d, A.Pragma):
            pragma(em, d)
        elif isinstance(d, A.Routine):
            nested_.nested_routine(em, d, scope, owner)
    return lines


def var_line(em: Emitter, d: A.VarDecl, scope: Scope) -> str:
    t = resolve_type(em, d.type, scope)
    if d.name in em.sparse_names and t.coll is not None and t.coll.kind == "array":
        return sparse_var_line(em, d, t, t.coll, scope)
    scope.add(Sym(d.name, "const" if d.constant else "var", t))
    parts = [quote_ident(d.name)]
    if d.constant:
        parts.append("CONSTANT")
    parts.append(t.pg)
    if d.not_null:
        parts.append("NOT NULL")
    if d.default:
        parts.append(":= " + stmt_.value_expr(em, d.default, scope, t.ora))  # emit_stmt: CHAR, RAW
    elif t.coll is not None and t.coll.kind == "assoc":
        parts.append(":= '{}'::jsonb")  # an INDEX BY table starts empty, never NULL
    return " ".join(parts) + ";"


def sparse_var_line(em: Emitter, d: A.VarDecl, t: PgType, c: Coll, scope: Scope) -> str:
    """A nested table that DELETE(i) makes sparse is held as a jsonb map index → element (like
    an INDEX BY table); whole-value uses convert to/from the dense array type."""
    em.ctx.note(f"{d.name}: nested table with DELETE(i) held as jsonb; compacted to {t.pg} when used whole")
    st = PgType("jsonb", t.ora, coll=Coll("assoc", c.elem_pg, c.elem_ora, True, c.elem_composite), array_pg=t.pg)
    init = f"oracompat.arr_to_aa({exprs_.expr(em, d.default, scope)})" if d.default else "'{}'::jsonb"
    scope.add(Sym(d.name, "var", st))
    name, size = quote_ident(d.name), quote_ident(f"{d.name}__size")
    # Oracle keeps placeholders for deleted elements: EXTEND appends after the internal size
    return f"{name} jsonb := {init}; {size} integer := coalesce(oracompat.aa_last_n({name}), 0);"


def cursor_line(em: Emitter, d: A.CursorDecl, scope: Scope) -> str:
    cscope = scope.child()
    params = []
    for p in d.params:
        pt = resolve_type(em, p.type, scope)
        cscope.add(Sym(p.name, "param", pt))
        if p.default:
            em.unconverted(
                "cursor parameter default",
                f"cursor {d.name}: PostgreSQL cursor parameters have no defaults",
                d.line,
            )
        params.append(f"{quote_ident(p.name)} {pt.pg}")
    query = sql_.query_text(em, d.query, cscope)
    scope.add(Sym(d.name, "cursor", PgType("refcursor", refcursor=True), cursor_params=d.params, sigs=[(d, scope)]))
    args = f" ({', '.join(params)})" if params else ""
    return f"{quote_ident(d.name)} CURSOR{args} FOR {query};"


def cursor_rowtype(em: Emitter, name: str, sym: Sym) -> PgType:
    """c%ROWTYPE: PostgreSQL has no cursor row types, but a view over the cursor's query (its
    parameters as typed NULLs) has exactly that row type — created before the routine."""
    if not sym.sigs:
        return PgType("record", composite=True)
    d, scope = sym.sigs[0]
    view = sql(derived(em.frame.owner, f"{name}_row"))
    fields = query_fields(em, d.query)
    if em.suppress_pre or view in em.created_views:
        return PgType(view, composite=True, fields=fields)
    nscope = scope.child()
    for p in d.params:
        pt = resolve_type(em, p.type, scope)
        nscope.add(Sym(p.name, "nullparam", PgType(f"NULL::{coll_.castable(em, pt.pg)}", pt.ora)))
    em.created_views.add(view)
    em.pre.append(f"CREATE OR REPLACE VIEW {view} AS\n{sql_.query_text(em, d.query, nscope)};")
    return PgType(view, composite=True, fields=fields)


def pragma(em: Emitter, d: A.Pragma) -> None:
    if d.name == "AUTONOMOUS_TRANSACTION":
        autonomous_.autonomous_pragma(em, d)
    elif d.name in ("RESTRICT_REFERENCES", "INLINE", "SERIALLY_REUSABLE", "UDF", "DEPRECATED"):
        em.ctx.note(f"PRAGMA {d.name} only guides the Oracle compiler; not needed in PostgreSQL")
    elif d.name != "EXCEPTION_INIT":
        em.unconverted(f"PRAGMA {d.name}", "unknown pragma", d.line)
