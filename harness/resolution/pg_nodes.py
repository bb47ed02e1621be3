"""Typed reads of pglast nodes for the reference resolver.

pglast's stubs type every node field as optional: a node built by hand may leave any field
unset, and an empty list (PostgreSQL's NIL) reads as None. These helpers read the two shapes the
resolver needs — the parts of a dotted name and the text of a string literal — with the types
its callers rely on, so that "nothing there" is never confused with a name.
"""

from __future__ import annotations

from collections.abc import Iterable

from pglast import ast


def strings(items: Iterable[object] | None) -> list[str]:
    """The values of the String nodes among `items`: the parts of a dotted name (`*` and
    subscripts are no String and are left out). None, an empty list, gives []."""
    return [i.sval for i in items or () if isinstance(i, ast.String) and i.sval is not None]


def string_constant(node: object) -> str | None:
    """The text of a string literal ('...'); None for any other node."""
    if isinstance(node, ast.A_Const) and isinstance(node.val, ast.String):
        return node.val.sval
    return None
