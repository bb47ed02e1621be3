"""Nested subprograms: lifted to top-level routines named ``<outer>__<inner>``.

A lifted routine cannot see its parent's variables, so a nested subprogram that reads or writes
them is marked unconverted (listing the names) instead of being lifted with a changed meaning.
"""

from __future__ import annotations

import dataclasses

from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.naming import Owner, derived, label, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.prepare_sigs import distinct, signature
from migrator.convert.plsql.state import EmitterState
from migrator.convert.plsql.symbols import Scope, Sym
from migrator.source.lexer import Token

_LOCAL_KINDS = ("var", "const", "param", "cursor", "loopvar")


def words_in(node, acc: set[str]) -> set[str]:
    """Every identifier (plain name) occurring anywhere in a subtree."""
    if isinstance(node, Token):
        if node.kind in ("word", "qident"):
            acc.add(norm_name(node))
    elif isinstance(node, (list, tuple)):
        for x in node:
            words_in(x, acc)
    elif dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            words_in(getattr(node, f.name), acc)
    return acc


def outer_locals(scope: Scope) -> set[str]:
    names: set[str] = set()
    s: Scope | None = scope
    while s is not None:
        names |= {n for n, sym in s.names.items() if sym.kind in _LOCAL_KINDS}
        s = s.parent
    return names


class NestedMixin(EmitterState):
    def nested_routine(self, r: A.Routine, scope: Scope, owner: Owner) -> None:
        lifted = derived(owner, r.name)
        sym = scope.names.get(r.name)
        if sym is None or sym.kind != "routine":
            sym = scope.add(Sym(r.name, "routine", routine=lifted))
        if not any(len(x.params) == len(r.params) and x.block is not None for x in sym.sigs):
            sym.sigs = [x for x in sym.sigs if x.block is not None or len(x.params) != len(r.params)] + [r]
        # calls in expressions and SQL bind to it like calls to the catalog's routines
        self.ctx.local_routines[lifted] = distinct([signature(self, x, lifted, scope) for x in sym.sigs])
        if r.block is None:
            return  # forward declaration
        own = {p.name for p in r.params} | {getattr(d, "name", "") for d in r.block.decls}
        used = words_in(r.block, set()) - own
        clash = sorted(used & outer_locals(scope))
        if clash:
            self.unconverted(
                "nested subprogram",
                f"{r.name} uses the enclosing routine's variables "
                f"{', '.join(clash)}; it cannot be lifted to {label(lifted)}",
                r.line,
            )
            self.pre.append(unconverted_marker("nested subprogram", r.name) + ";")
            return
        self.pre.append(self.lift(r, lifted, scope))
        self.ctx.note(f"nested {r.kind.lower()} {r.name} lifted to {sql(lifted)}")

    def lift(self, r: A.Routine, lifted: tuple[str, str], scope: Scope) -> str:
        from migrator.convert.plsql.emit_routine import RoutineEmitter

        with self.routine_frame(lifted):
            return RoutineEmitter(self).routine(r, lifted, scope, lifted, self.lift_guard())

    def lift_guard(self) -> list[str]:
        return [f"PERFORM {sql((self.pkg, 'initialize__'))}();"] if self.pkg else []
