"""Declarations: types (%TYPE/%ROWTYPE, records, collection types), variables, cursors, pragmas.
Exceptions and EXCEPTION_INIT are `emit_exceptions`; nested subprograms `emit_nested`. Types are
resolved by `resolver.Resolver`; the DDL it returns with them is put before the unit here (`take`)."""

from __future__ import annotations

from functools import partial

from harness.quoting import quote_ident
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_autonomous as autonomous_
from migrator.convert.plsql import emit_collections as coll_
from migrator.convert.plsql import emit_exceptions as exc_
from migrator.convert.plsql import emit_nested as nested_
from migrator.convert.plsql import emit_sql as sql_
from migrator.convert.plsql import emit_stmt as stmt_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import rowfields
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import Owner
from migrator.convert.plsql.resolver import Ddl, distinct, signature, sparse_type
from migrator.convert.plsql.symbols import Coll, PgType, Scope, Sym
from migrator.convert.signatures import RoutineSig
from migrator.oracle_types import RANGED_SUBTYPES, Family, parse


def resolve_type(em: Emitter, tref: A.TypeRef, scope: Scope) -> PgType:
    t, ddl = em.resolver.resolve_type(tref, scope, em.frame.owner)
    take(em, ddl)
    return t


def resolving(em: Emitter, tref: A.TypeRef, scope: Scope) -> tuple[PgType, list[Ddl]]:
    """`resolve_type` as the resolver's declarations resolve their parts (`TypeResolve`): each
    part's DDL put before the unit at once, nothing left to return."""
    return resolve_type(em, tref, scope), []


def type_decl(em: Emitter, d: A.TypeDecl, scope: Scope, owner: Owner) -> Sym:
    sym, ddl = em.resolver.type_decl(d, scope, owner, partial(resolving, em))
    take(em, ddl)
    return sym


def local_signatures(em: Emitter, routines: list[A.Routine], target: tuple[str, str], scope: Scope) -> list[RoutineSig]:
    """The converted signatures of a nested subprogram's declarations, as calls bind to them."""
    sigs = []
    for r in routines:
        sig, ddl = signature(em.resolver, r, target, scope, em.frame.owner, partial(resolving, em))
        take(em, ddl)
        sigs.append(sig)
    return distinct(sigs)


def take(em: Emitter, ddl: list[Ddl]) -> None:
    """Puts the DDL a resolved type needs before the unit, in order; a cursor row type's view
    once per unit (its query converted here, its parameters as typed NULLs)."""
    for item in ddl:
        if isinstance(item, str):
            em.pre.append(item)
            continue
        if item.name in em.created_views:
            continue
        nscope = item.scope.child()
        # the query may read the enclosing routine's parameters and variables (Oracle binds them
        # when the cursor opens): in the view that only gives the row type they are typed NULLs too
        s: Scope | None = item.scope
        while s is not None:
            for name, sym in s.names.items():
                if (
                    sym.kind in ("var", "param", "const", "loopvar")
                    and sym.type is not None
                    and nscope.get(name) is sym
                ):
                    if sym.type.coll is None and not sym.type.refcursor:
                        nscope.add(
                            Sym(name, "nullparam", PgType(f"NULL::{coll_.castable(em, sym.type.pg)}", sym.type.ora))
                        )
            s = s.parent
        for p in item.cursor.params:
            pt = resolve_type(em, p.type, item.scope)
            nscope.add(Sym(p.name, "nullparam", PgType(f"NULL::{coll_.castable(em, pt.pg)}", pt.ora)))
        em.created_views.add(item.name)
        em.pre.append(f"CREATE OR REPLACE VIEW {item.name} AS\n{sql_.query_text(em, item.cursor.query, nscope)};")


def query_fields(em: Emitter, toks) -> dict[str, str]:
    return rowfields.query_fields(toks or [], em.resolver.table_columns)


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
    parts.append(t.pg if d.name in em.argument_names else ranged_type(em, t))
    if d.not_null:
        parts.append("NOT NULL")
    if d.default:
        parts.append(":= " + stmt_.value_expr(em, d.default, scope, t.ora))  # emit_stmt: CHAR, RAW
    elif t.coll is not None and t.coll.kind == "assoc":
        parts.append(":= '{}'::jsonb")  # an INDEX BY table starts empty, never NULL
    return " ".join(parts) + ";"


# PL/SQL's constrained integer subtypes with a range domain in oracompat (rule plsql.number_range)
_RANGED = RANGED_SUBTYPES


def ranged_type(em: Emitter, t: PgType) -> str:
    """A variable's type with Oracle's range kept: NUMBER(p) (scale 0, p <= 18) maps to an integer
    type that would take any value of its width, POSITIVE / NATURAL to integer; a domain of
    oracompat over the same type raises VALUE_ERROR outside the range (rule plsql.number_range)."""
    if t.coll is not None or t.composite or t.base or not em.ctx.enabled("plsql.number_range"):
        return t.pg
    parsed = parse(t.ora) if t.ora else None
    if parsed is None:
        return t.pg
    if parsed.name in _RANGED:
        em.ctx.applied("plsql.number_range")
        return _RANGED[parsed.name]
    if (
        parsed.family is Family.DECIMAL
        and isinstance(parsed.precision, int)
        and parsed.precision <= 18
        and not parsed.scale
        and t.pg in ("smallint", "integer", "bigint")
    ):
        em.ctx.applied("plsql.number_range")
        return f"oracompat.number_{parsed.precision}"
    return t.pg


def sparse_var_line(em: Emitter, d: A.VarDecl, t: PgType, c: Coll, scope: Scope) -> str:
    """A nested table that DELETE(i) makes sparse is held as a jsonb map index → element (like
    an INDEX BY table); whole-value uses convert to/from the dense array type."""
    em.ctx.note(f"{d.name}: nested table with DELETE(i) held as jsonb; compacted to {t.pg} when used whole")
    st = sparse_type(t)
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


def pragma(em: Emitter, d: A.Pragma) -> None:
    if d.name == "AUTONOMOUS_TRANSACTION":
        autonomous_.autonomous_pragma(em, d)
    elif d.name in ("RESTRICT_REFERENCES", "INLINE", "SERIALLY_REUSABLE", "UDF", "DEPRECATED"):
        em.ctx.note(f"PRAGMA {d.name} only guides the Oracle compiler; not needed in PostgreSQL")
    elif d.name != "EXCEPTION_INIT":
        em.unconverted(f"PRAGMA {d.name}", "unknown pragma", d.line)
