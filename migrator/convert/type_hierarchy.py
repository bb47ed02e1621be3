"""Object type hierarchies (CREATE TYPE ... NOT FINAL, CREATE TYPE sub UNDER super): the
representation shared by the DDL converter and the PL/SQL emitter.

One composite per hierarchy: the root's ``CREATE TYPE`` holds the root's attributes, then every
subtype's own attributes (each subtype in catalog order), then a tag column `TAG` naming the
instance's most specific type. A subtype is a domain over the root's composite whose CHECK admits
its own tag and its descendants' — so a subtype value is a root value (substitutable in a supertype
variable, parameter or collection without conversion) and the tag carries Oracle's dynamic type.

Methods: the TYPE BODY of T emits its implementation of method m as ``T__m__own(self T, ...)`` and
for every type A of the hierarchy that sees m a dispatcher ``A__m(self root, ...)`` that calls the
implementation the tag selects (the nearest type above the instance's type that implements m).
Call sites keep calling ``<static type>__m(obj, ...)`` as for final types, so a call through a
supertype variable or collection element dispatches dynamically. See docs/ARCHITECTURE.md.
"""

from __future__ import annotations

from migrator.convert.context import Catalog, CatalogEntry
from migrator.convert.schema_model import ObjectType

TAG = "$type"  # the tag column: no Oracle attribute can be named so unquoted

Key = tuple[str, str]


def _declared(entry: CatalogEntry | None) -> ObjectType | None:
    info = entry.declared_type if entry is not None else None
    return info if isinstance(info, ObjectType) else None


def supertype(catalog: Catalog, key: Key) -> Key | None:
    info = _declared(catalog.entries.get(key))
    if info is None or not info.supertype:
        return None
    entry = catalog.lookup(*info.supertype[-2:])
    return (entry.schema, entry.name) if entry is not None else None


def in_hierarchy(catalog: Catalog, key: Key) -> bool:
    """Is the type a NOT FINAL object type or a subtype (represented as a tagged composite)?"""
    info = _declared(catalog.entries.get(key))
    return info is not None and (not info.final or bool(info.supertype))


def chain(catalog: Catalog, key: Key) -> list[Key]:
    """The root, ..., the type itself."""
    out = [key]
    while (sup := supertype(catalog, out[0])) is not None and sup not in out:
        out.insert(0, sup)
    return out


def root(catalog: Catalog, key: Key) -> Key:
    return chain(catalog, key)[0]


def subtree(catalog: Catalog, key: Key) -> list[Key]:
    """The type and its descendants, in catalog order (the type first)."""
    out = [key]
    for k in catalog.entries:
        if k != key and key in chain(catalog, k)[:-1] and _declared(catalog.entries.get(k)) is not None:
            out.append(k)
    return out


def own_attributes(catalog: Catalog, key: Key) -> dict[str, str]:
    info = _declared(catalog.entries.get(key))
    return dict(info.attributes) if info is not None else {}


def attributes(catalog: Catalog, key: Key) -> dict[str, str]:
    """Inherited and own attributes (name → Oracle type), the root's first, as Oracle orders them."""
    out: dict[str, str] = {}
    for k in chain(catalog, key):
        out.update(own_attributes(catalog, k))
    return out


def layout(catalog: Catalog, key: Key) -> dict[str, str]:
    """The hierarchy composite's attributes without the tag: the root's, then each subtype's own."""
    out: dict[str, str] = {}
    for k in subtree(catalog, root(catalog, key)):
        for name, ora in own_attributes(catalog, k).items():
            out.setdefault(name, ora)
    return out


def _names_member(catalog: Catalog, ora: str, members: set[Key]) -> bool:
    """Does the Oracle type spelling `ora` name a type of `members`, directly or as a collection's
    element?"""
    entry = catalog.lookup(*[p.strip('"').lower() for p in ora.split(".")][-2:]) if "(" not in ora else None
    info = entry.declared_type if entry is not None else None
    if info is not None and not isinstance(info, ObjectType):  # a collection: its element
        elem = info.element
        entry = catalog.lookup(*[p.strip('"').lower() for p in elem.split(".")][-2:]) if "(" not in elem else None
    return entry is not None and (entry.schema, entry.name) in members


def self_typed(catalog: Catalog, key: Key) -> list[str]:
    """`type.attribute` of the hierarchy's attributes whose type is itself one of the hierarchy
    (directly or as a collection's element): the one composite would contain itself."""
    members = set(subtree(catalog, root(catalog, key)))
    out = []
    for k in members:
        for name, ora in own_attributes(catalog, k).items():
            if _names_member(catalog, ora, members):
                out.append(f"{k[1]}.{name}")
    return sorted(out)


def boxed(catalog: Catalog, key: Key) -> frozenset[str]:
    """The attributes of the hierarchy of `key` held in their text form (see BOX).

    Oracle lets a subtype's attribute be of another type of its own hierarchy (a comparator node
    holding a partial-version node, both under one AST root) or a collection of them; one
    PostgreSQL composite per hierarchy would then contain itself, which PostgreSQL refuses (also
    through arrays). Such an attribute is stored as the composite's text form (`record_out`, the
    exact, lossless external representation, NULL staying NULL): a write needs nothing (PostgreSQL
    turns a composite into text by I/O conversion in assignment context, and a ROW(...)::t
    constructor), a read is cast back to the attribute's declared type, whose domain CHECK
    re-checks the tag. Values keep Oracle's copy semantics (an attribute holds a value, not a
    reference), dispatch still reads the inner value's tag, and nesting is unbounded."""
    members = set(subtree(catalog, root(catalog, key)))
    return frozenset(
        name
        for k in members
        for name, ora in own_attributes(catalog, k).items()
        if _names_member(catalog, ora, members)
    )


BOX = "text"  # the PostgreSQL type of a boxed attribute's column


def tag(key: Key) -> str:
    return key[1].upper()


def instantiable(catalog: Catalog, key: Key) -> bool:
    info = _declared(catalog.entries.get(key))
    return info is None or info.instantiable


def row_values(catalog: Catalog, key: Key, args: list[str]) -> list[str] | None:
    """The composite's fields for the attribute-value constructor ``key(args)``: each argument at
    its attribute's place, NULL for other subtypes' attributes, the tag last (None: wrong arity)."""
    own = list(attributes(catalog, key))
    if len(args) != len(own):
        return None
    given = dict(zip(own, args))
    return [given.get(a, "NULL") for a in layout(catalog, key)] + [f"'{tag(key)}'"]


def declares(catalog: Catalog, key: Key, method: str) -> bool:
    """Is `method` declared (in the spec) or implemented (in the body) by the type itself?"""
    entry = catalog.entries.get(key)
    info = _declared(entry)
    return entry is not None and (method in entry.methods or (info is not None and method in info.methods))


def sees(catalog: Catalog, key: Key, method: str) -> bool:
    return any(declares(catalog, k, method) for k in chain(catalog, key))


def implementer(catalog: Catalog, key: Key, method: str) -> Key | None:
    """The type whose body implements `method` for an instance of type `key` (None: abstract)."""
    for k in reversed(chain(catalog, key)):
        entry = catalog.entries.get(k)
        if entry is not None and any(r.block is not None for r in entry.methods.get(method, [])):
            return k
    return None


def dispatch_table(catalog: Catalog, key: Key, method: str) -> list[tuple[str, Key | None]]:
    """(tag, implementing type) for every instantiable type an instance of `key` may have."""
    return [(tag(k), implementer(catalog, k, method)) for k in subtree(catalog, key) if instantiable(catalog, k)]


def methods(catalog: Catalog, key: Key) -> dict:
    """Every method the type sees (name → its routines, the nearest type's first): its own body's,
    then its supertypes'; a method only declared (NOT INSTANTIABLE) takes a subtype's routines,
    whose signature is the declaration's."""
    out: dict = {}
    for k in reversed(chain(catalog, key)):
        entry = catalog.entries.get(k)
        for name, rs in (entry.methods if entry is not None else {}).items():
            out.setdefault(name, list(rs))
    for k in chain(catalog, key):
        info = _declared(catalog.entries.get(k))
        for name in info.methods if info is not None else ():
            if name not in out:
                found = [
                    catalog.entries[s].methods[name] for s in subtree(catalog, k) if name in catalog.entries[s].methods
                ]
                if found:
                    out[name] = list(found[0])
    return out
