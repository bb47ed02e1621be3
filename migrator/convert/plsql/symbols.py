"""Symbols and types: what a name in PL/SQL code is, and its PostgreSQL type.

Collections: nested tables and VARRAYs become PostgreSQL arrays (1-based, dense — Oracle's
``DELETE(i)`` on a nested table is marked unconverted); associative arrays (INDEX BY) become
``jsonb`` objects keyed by the index's text form, which keeps sparse keys and Oracle's FIRST/NEXT
order (numeric order for integer keys, binary order for VARCHAR2 keys) through `oracompat.aa_*`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from migrator.convert.datatypes import map_type
from migrator.source.lexer import Token


@dataclass
class Coll:
    kind: str  # array | assoc
    elem_pg: str
    elem_ora: str = ""
    numeric_keys: bool = True
    elem_composite: bool = False
    elem_object: tuple[str, str] | None = None  # elements of a schema-level object type (its methods)
    limit: int | None = None  # a VARRAY's declared size (a nested table has none)
    # the element's own description where an element read goes on with accessors: a record's
    # fields and collection fields, a collection's elements (`a(i)(j)`, `a(i).f(j)`)
    elem_type: PgType | None = None


@dataclass
class PgType:
    pg: str
    ora: str = ""  # Oracle spelling (for date arithmetic in the SQL converter)
    coll: Coll | None = None
    composite: bool = False  # a record/row type (fields addressable)
    refcursor: bool = False
    object_key: tuple[str, str] | None = None  # schema-level object type: (schema, name) (for its methods)
    array_pg: str | None = None  # a nested table made sparse by DELETE(i), held as jsonb: its array type
    fields: dict[str, str] | None = None  # record: field → Oracle type, where known
    base: str = ""  # a domain (a package SUBTYPE or collection type): the PostgreSQL type it is over
    colls: dict[str, PgType] | None = None  # record: field → its collection type (element reads, methods)
    boxed: bool = False  # an object attribute held as text (type_hierarchy.boxed): read through ::pg

    @property
    def plain_pg(self) -> str:
        """The PostgreSQL type with a domain taken back to its base (varchar(30), numeric ...)."""
        return self.base or self.pg


@dataclass
class Sym:
    name: str
    kind: str  # var | param | const | cursor | exception | type | pkgvar | pkgconst | loopvar
    type: PgType | None = None
    getter: str | None = None  # package variable: qualified getter function (SQL text)
    setter: str | None = None
    routine: tuple[str, str] | None = None  # lifted nested subprogram: its (schema, name), plain
    sqlstate: str | None = None  # exception
    conditions: tuple[str, ...] = ()
    cursor_params: list = field(default_factory=list)
    sigs: list = field(default_factory=list)  # lifted nested subprograms: their A.Routine(s)
    extras: tuple[str, ...] = ()  # lifted nested subprogram: the enclosing variables it takes first
    written: tuple[str, ...] = ()  # lifted nested function: those of `extras` it writes (INOUT)
    # a sparse package nested table (PgType.array_pg): the getter and setter of its internal size
    size_state: tuple[str, str] | None = None

    @property
    def typed(self) -> PgType:
        """The type of a symbol that has one (variables, parameters, package state, types)."""
        if self.type is None:
            raise TypeError(f"{self.kind} {self.name} has no type")
        return self.type


class Scope:
    """Nested name scopes (routine → blocks → loops); lookups walk outwards."""

    def __init__(self, parent: Scope | None = None):
        self.parent = parent
        self.names: dict[str, Sym] = {}

    def add(self, sym: Sym) -> Sym:
        self.names[sym.name] = sym
        return sym

    def get(self, name: str) -> Sym | None:
        s: Scope | None = self
        while s is not None:
            hit = s.names.get(name)
            if hit is not None:
                return hit
            s = s.parent
        return None

    def child(self) -> Scope:
        return Scope(self)

    def types_map(self) -> dict[str, str]:
        """var name → Oracle type spelling, for the SQL converter's date arithmetic."""
        out: dict[str, str] = {}
        chain = []
        s: Scope | None = self
        while s is not None:
            chain.append(s)
            s = s.parent
        for sc in reversed(chain):
            for n, sym in sc.names.items():
                if sym.type is None or sym.kind not in ("var", "param", "const", "loopvar"):
                    continue
                if sym.type.ora:
                    out[n] = sym.type.ora
                for f, ora in (sym.type.fields or {}).items():  # the SQL layer reads "rec.field"
                    out[f"{n}.{f}"] = ora
        return out


def type_text(toks: list[Token]) -> str:
    """Oracle type spelling from tokens (spaces only where words meet)."""
    out = ""
    prev = None
    for t in toks:
        if prev is not None and prev.kind in ("word", "number", "qident") and t.kind in ("word", "number", "qident"):
            out += " "
        out += t.text
        prev = t
    return out


def builtin(ora: str, ctx=None) -> PgType:
    """A built-in Oracle type in PL/SQL. With the conversion context its type rule is honoured
    (switched off, the Oracle spelling stays and PostgreSQL refuses it) and recorded."""
    pg = map_type(ora, ctx)
    if ora.upper() == "SYS_REFCURSOR" and pg == "refcursor":
        return PgType("refcursor", ora, refcursor=True)
    return PgType(pg, ora)
