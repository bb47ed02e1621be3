"""Whole-schema pass after `prepare`: the converted signature of every standalone routine and
package member (`migrator.convert.signatures`), its parameter types resolved in the callee's own
context — its schema, its package's types, the `%TYPE` anchors of its parameters — by the same
resolver (`resolver.Resolver`) as its own conversion resolves them, so a call site can convert its
arguments to them. The DDL those types need is the callee's conversion's: dropped here.

Schema model fields written here (`migrator.convert.schema_model`): ``signatures`` = [RoutineSig, ...]
of a routine's catalog entry, and ``package.signatures`` = {member: [RoutineSig, ...]} of a package's.
"""

from __future__ import annotations

from migrator.convert.context import Catalog, ConversionContext
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.prepare import parsed
from migrator.convert.plsql.resolver import Resolver, distinct, signature
from migrator.convert.plsql.symbols import Scope
from migrator.source.units import Unit, UnitKind

_KINDS = (UnitKind.FUNCTION, UnitKind.PROCEDURE, UnitKind.PACKAGE_SPEC, UnitKind.PACKAGE_BODY)


def prepare_signatures(units: list[Unit], whole: ConversionContext) -> None:
    catalog = whole.catalog
    # a scratch log (nothing here is reported) over the run's catalog, compilation and parses
    ctx = ConversionContext(catalog=catalog, memo=None, compilation=whole.compilation, parses=whole.parses)
    for unit in units:
        if unit.kind not in _KINDS:
            continue
        try:
            tree = parsed(unit, ctx).tree
        except Exception:  # this unit's own conversion reports it
            continue
        owner = (unit.schema,)  # a top-level routine's types are named from the unit's level
        try:
            if isinstance(tree, A.Routine):
                entry = catalog.entries.get((unit.schema, unit.name))
                if entry is not None and entry.unit_id == unit.id:
                    res = Resolver(ctx, unit.schema)
                    entry.signatures = [signature(res, tree, (unit.schema, tree.name), Scope(), owner)[0]]
            elif isinstance(tree, A.Package):  # spec and body members are listed together already
                _package(catalog, unit, tree, ctx)
        except Exception:  # an unresolvable type: the callee's own conversion reports it
            continue


def _package(catalog: Catalog, unit: Unit, tree: A.Package, ctx: ConversionContext) -> None:
    entry = catalog.entries.get((unit.schema, unit.name))
    info = entry.package if entry is not None else None
    if info is None or info.signatures is not None:
        return
    res = Resolver(ctx, unit.schema, pkg=tree.name)
    scope = res.pkg_scope((tree.name,))
    owner = (unit.schema,)
    info.signatures = {
        name: distinct([signature(res, r, (tree.name, name), scope, owner)[0] for r in routines])
        for name, routines in info.routines.items()
    }
