"""Whole-schema pass after `prepare`: the converted signature of every standalone routine and
package member (`migrator.convert.signatures`), its parameter types resolved in the callee's own
context — its schema, its package's types, the `%TYPE` anchors of its parameters — exactly as its
own conversion resolves them, so a call site can convert its arguments to them.

Catalog `info` written here: ``info["pg_sigs"] = [RoutineSig, ...]`` on a routine's entry, and
``info["plsql_package"]["pg_members"] = {member: [RoutineSig, ...]}`` on a package's.
"""

from __future__ import annotations

from migrator.convert.context import Catalog, ConversionContext
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.prepare import parsed
from migrator.convert.plsql.symbols import Scope, Sym
from migrator.convert.signatures import ParamSig, RoutineSig, base_type
from migrator.source.units import Unit, UnitKind

_KINDS = (UnitKind.FUNCTION, UnitKind.PROCEDURE, UnitKind.PACKAGE_SPEC, UnitKind.PACKAGE_BODY)


def prepare_signatures(units: list[Unit], whole: ConversionContext) -> None:
    from migrator.convert.plsql.emitter import Emitter  # the emitter's type resolution, nothing emitted

    catalog = whole.catalog
    # a scratch log (nothing here is reported) over the run's catalog, compilation and parses
    ctx = ConversionContext(catalog=catalog, memo=None, compilation=whole.compilation, parses=whole.parses)
    for unit in units:
        if unit.kind not in _KINDS:
            continue
        try:
            pu = parsed(unit, ctx)
        except Exception:  # this unit's own conversion reports it
            continue
        tree = pu.tree
        try:
            if isinstance(tree, A.Routine):
                entry = catalog.entries.get((unit.schema, unit.name))
                if entry is not None and entry.unit_id == unit.id:
                    em = Emitter(ctx, unit.schema, pu.parser.text, pu.parser.toks)
                    em.suppress_pre = True
                    entry.info["pg_sigs"] = [signature(em, tree, (unit.schema, tree.name), Scope())]
            elif isinstance(tree, A.Package):  # spec and body members are listed together already
                _package(catalog, unit, tree, pu, ctx, Emitter)
        except Exception:  # an unresolvable type: the callee's own conversion reports it
            continue


def _package(catalog: Catalog, unit: Unit, tree, pu, ctx: ConversionContext, emitter) -> None:
    entry = catalog.entries.get((unit.schema, unit.name))
    info = entry.info.get("plsql_package") if entry is not None else None
    if info is None or "pg_members" in info or not isinstance(tree, A.Package):
        return
    em = emitter(ctx, unit.schema, pu.parser.text, pu.parser.toks, pkg=tree.name)
    em.suppress_pre = True
    scope = em.pkg_scope((tree.name,))
    info["pg_members"] = {
        name: distinct([signature(em, r, (tree.name, name), scope) for r in routines])
        for name, routines in info["members"].items()
    }


def distinct(sigs: list[RoutineSig]) -> list[RoutineSig]:
    """One signature per routine PostgreSQL gets: a spec and a body may spell one member's types
    differently (`emp.id%TYPE` and `NUMBER(10)`), and they convert to the same function."""
    seen, out = set(), []
    for sig in sigs:
        key = (sig.kind, tuple(base_type(p.pg) for p in sig.params))
        if key not in seen:
            seen.add(key)
            out.append(sig)
    return out


def signature(em, r: A.Routine, target: tuple[str, str], parent: Scope) -> RoutineSig:
    """`r`'s converted signature; its parameter types resolved by `em` in a child of `parent`."""
    scope = parent.child()
    params = []
    for p in r.params:
        t = em.resolve_type(p.type, scope)
        scope.add(Sym(p.name, "param", t))
        scalar = t.coll is None and not t.composite and not t.refcursor
        params.append(ParamSig(p.name, p.mode, t.pg, t.ora if scalar else "", p.default is not None))
    ret = em.resolve_type(r.returns, scope) if r.kind == "FUNCTION" and r.returns is not None else None
    return RoutineSig(r.kind, target, tuple(params), ret.pg if ret else "", ret.ora if ret else "")
