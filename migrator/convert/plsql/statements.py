"""Which function emits each PL/SQL statement class: a registry filled by the `@emits(A.If)`
decorator on the emitter functions (as pglast's `@node_printer` registers its printers).

A second registration for one class is refused when its module is imported, so two emitters can
never silently compete for one construct; `tests/migrator/convert/test_plsql_emitter.py` checks
that every statement class of `ast.py` has exactly one. The emitter modules register when they are
imported; the package's `__init__` imports each of them, so the table is complete before any unit
is converted. The table is filled at import time only and read-only to everyone else.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from migrator.convert.plsql import ast as A

if TYPE_CHECKING:
    from migrator.convert.plsql.emitter import Emitter
    from migrator.convert.plsql.output import Out
    from migrator.convert.plsql.symbols import Scope

# An emitter takes (em, statement, scope, out) and writes the statement's lines to `out`; each is
# typed with its own statement class, hence Any for the statement here.
StatementEmitter = Callable[["Emitter", Any, "Scope", "Out"], None]

_EMITTERS: dict[type[A.Stmt], StatementEmitter] = {}
STATEMENTS: Mapping[type[A.Stmt], StatementEmitter] = MappingProxyType(_EMITTERS)


def emits(cls: type[A.Stmt]) -> Callable[[StatementEmitter], StatementEmitter]:
    """Register the decorated function as the emitter of statement class `cls`."""

    def register(fn: StatementEmitter) -> StatementEmitter:
        if cls in _EMITTERS:
            held = _EMITTERS[cls]
            raise TypeError(f"{cls.__name__} already has an emitter: {held.__module__}.{held.__qualname__}")
        _EMITTERS[cls] = fn
        return fn

    return register


def stmt(em: Emitter, st: A.Stmt, scope: Scope, out: Out) -> None:
    """Write one statement, by the emitter registered for its class. What its expressions hoist
    (calls of functions with OUT parameters, `emit_outfunc`) is written before it."""
    saved, em.frame.hoisted = em.frame.hoisted, []
    mark = len(out.lines)
    try:
        _EMITTERS[type(st)](em, st, scope, out)
        if em.frame.hoisted:
            out.lines[mark:mark] = [out.indent + line for line in em.frame.hoisted]
    finally:
        em.frame.hoisted = saved
