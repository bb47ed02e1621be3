"""CREATE TYPE: object types → composite types; nested tables and VARRAYs → domains over arrays.

A nested table or VARRAY of y becomes ``CREATE DOMAIN x AS y[]``: a named type whose values
are arrays (1-based like Oracle collections), and a VARRAY's size limit is kept as a CHECK on
``cardinality(VALUE)``. Object type MEMBER/STATIC methods are PL/SQL
implemented by the TYPE BODY as functions (noted here), CONSTRUCTOR functions as <type>__new;
a MAP/ORDER method also defines the composite's comparison operators (created by the TYPE BODY).
"""

from __future__ import annotations

from harness.quoting import comment_text, qualified, quote_ident
from migrator.convert import type_hierarchy as hier
from migrator.convert.context import ConversionContext
from migrator.convert.datatypes import map_type
from migrator.convert.ddl.common import unconverted
from migrator.convert.ddl.tokens import Name, ident, read_name, source
from migrator.convert.schema_model import CollectionType, ObjectType, SchemaType
from migrator.source.lexer import LexError, Token, matching_paren, split_top_level, tokenize

_METHOD_WORDS = {"MEMBER", "STATIC", "MAP", "ORDER", "CONSTRUCTOR", "FINAL", "INSTANTIABLE", "NOT", "OVERRIDING"}


def parse_type(text: str) -> tuple[Name, SchemaType | str, list[Token], int]:
    """→ (name, shape, tokens, index after AS/IS). The shape is the declared object or collection
    type, or for the forms this module does not create a word naming the form: "incomplete" (a
    forward declaration), "subtype" (UNDER), "ref_cursor", "other"."""
    toks = tokenize(text)
    i = 1
    while toks[i].is_word("OR", "REPLACE", "EDITIONABLE", "NONEDITIONABLE"):
        i += 1
    name, i = read_name(toks, i + 1)  # TYPE name
    while i < len(toks) and toks[i].is_word("FORCE", "AUTHID", "CURRENT_USER", "DEFINER", "OID"):
        i += 1
    if i >= len(toks):
        return name, "incomplete", toks, i
    if toks[i].is_word("UNDER"):
        return name, _subtype(text, toks, i), toks, i
    i += 1  # AS | IS
    if toks[i].is_word("OBJECT"):
        final, instantiable = _modifiers(toks[matching_paren(toks, i + 1) + 1 :])
        attrs, methods = _attributes(text, toks, i + 1), _method_names(toks, i + 1)
        return name, ObjectType(attrs, final=final, instantiable=instantiable, methods=methods), toks, i
    if toks[i].is_word("TABLE"):
        return name, CollectionType(False, source(text, _element(toks, i + 2))), toks, i
    if toks[i].is_word("VARRAY", "VARYING"):
        j = i + 2 if toks[i].is_word("VARYING") else i + 1
        end = matching_paren(toks, j)
        return name, CollectionType(True, source(text, _element(toks, end + 2)), int(toks[j + 1].text)), toks, i
    if toks[i].is_word("REF"):
        return name, "ref_cursor", toks, i
    return name, "other", toks, i


def declared_type(text: str) -> SchemaType | None:
    """The object or collection type the statement declares, for the schema model (None for a
    forward declaration and the forms `convert_type` refuses); an UNDER subtype's with its
    supertype and its own attributes."""
    _, shape, _, _ = parse_type(text)
    return None if isinstance(shape, str) else shape


def _subtype(text: str, toks: list[Token], i: int) -> ObjectType:
    """``UNDER supertype [(own attributes and methods)] [[NOT] FINAL] [[NOT] INSTANTIABLE]``."""
    supertype, j = read_name(toks, i + 1)
    has_list = j < len(toks) and toks[j].is_op("(")
    tail = toks[matching_paren(toks, j) + 1 :] if has_list else toks[j:]
    final, instantiable = _modifiers(tail)
    attrs = _attributes(text, toks, j) if has_list else {}
    methods = _method_names(toks, j) if has_list else ()
    return ObjectType(attrs, supertype=tuple(supertype), final=final, instantiable=instantiable, methods=methods)


def _method_names(toks: list[Token], i: int) -> tuple[str, ...]:
    """The names of the methods declared in the list at toks[i] (constructors excluded)."""
    names: list[str] = []
    for el in split_top_level(toks[i + 1 : matching_paren(toks, i)]):
        if not el[0].is_word(*_METHOD_WORDS) or any(t.is_word("CONSTRUCTOR") for t in el):
            continue
        k = next((n for n, t in enumerate(el) if t.is_word("FUNCTION", "PROCEDURE")), None)
        if k is not None and k + 1 < len(el):
            names.append(ident(el[k + 1]))
    return tuple(names)


def _modifiers(tail: list[Token]) -> tuple[bool, bool]:
    """(FINAL, INSTANTIABLE) from the words after an object type's attribute list (both by default)."""
    words = [t.text.upper() for t in tail]
    pairs = set(zip(words, words[1:]))
    return ("NOT", "FINAL") not in pairs, ("NOT", "INSTANTIABLE") not in pairs


def _element(toks: list[Token], i: int) -> list[Token]:
    """Element type tokens up to NOT NULL (kept separately) or the end."""
    j = i
    while j < len(toks) and not toks[j].is_word("NOT"):
        j += 1
    return toks[i:j]


def _attributes(text: str, toks: list[Token], i: int) -> dict[str, str]:
    end = matching_paren(toks, i)
    attrs: dict[str, str] = {}
    for el in split_top_level(toks[i + 1 : end]):
        if not el or el[0].is_word(*_METHOD_WORDS):
            continue
        attrs[ident(el[0])] = source(text, el[1:])
    return attrs


def convert_type(text: str, ctx: ConversionContext) -> str:
    try:
        name, shape, toks, i = parse_type(text)
    except (LexError, IndexError, ValueError) as exc:
        return unconverted(ctx, "CREATE TYPE", f"could not read the type: {exc}", text)
    if isinstance(shape, ObjectType) and shape.supertype is not None:
        return _subtype_domain(text, name, shape, ctx)
    if isinstance(shape, ObjectType):
        return _object(text, name, shape, toks, i, ctx)
    if isinstance(shape, CollectionType):
        return _collection(name, shape, toks, ctx)
    if shape == "incomplete":
        ctx.note(f"forward declaration of type {name}: nothing to create in PostgreSQL")
        return f"-- forward declaration of type {comment_text(name.sql)} (created by its full definition)"
    return unconverted(ctx, "CREATE TYPE", f"type form {shape!r} has no PostgreSQL equivalent", text)


def _object(text: str, name: Name, shape: ObjectType, toks: list[Token], i: int, ctx: ConversionContext) -> str:
    if not ctx.enabled("ddl.object_type"):
        return unconverted(ctx, "CREATE TYPE AS OBJECT", "rule ddl.object_type is disabled", text)
    key = _key(name, ctx)
    columns = dict(shape.attributes)
    hierarchy = key is not None and hier.in_hierarchy(ctx.catalog, key)
    if hierarchy and not ctx.enabled("ddl.object_type_hierarchy"):
        return unconverted(ctx, "CREATE TYPE NOT FINAL", "rule ddl.object_type_hierarchy is disabled", text)
    if hierarchy:  # the root of a hierarchy: every subtype's attributes and the tag
        assert key is not None
        columns = hier.layout(ctx.catalog, key) | {hier.TAG: "VARCHAR2(128)"}
        inner = hier.self_typed(ctx.catalog, key)
        if inner:
            box = hier.boxed(ctx.catalog, key)
            columns = {a: ("" if a in box else t) for a, t in columns.items()}
            ctx.note(
                f"attribute(s) {', '.join(inner)} of the hierarchy of {name} have a type of the same hierarchy: "
                "held as the value's text form (a composite cannot contain itself), read back through a cast "
                "to the attribute's type"
            )
        ctx.applied("ddl.object_type_hierarchy")
        ctx.note(f"{name} is NOT FINAL: one composite for its hierarchy, its subtypes' attributes and a type tag")
    attrs = ",\n    ".join(f"{quote_ident(a)} {map_type(t, ctx) if t else hier.BOX}" for a, t in columns.items())
    ctx.applied("ddl.object_type")
    out = f"CREATE TYPE {name.sql} AS (\n    {attrs}\n);"
    end = matching_paren(toks, i + 1)
    methods = [el for el in split_top_level(toks[i + 2 : end]) if el[0].is_word(*_METHOD_WORDS)]
    # MEMBER/STATIC methods are implemented by the TYPE BODY unit as functions <type>__<method>
    # taking SELF first, CONSTRUCTOR functions as <type>__new (migrator.convert.plsql); MAP/ORDER
    # methods (the type's ordering) also give the type its comparison operators.
    special = [m for m in methods if any(t.is_word("MAP", "ORDER") for t in m)]
    constructors = [m for m in methods if any(t.is_word("CONSTRUCTOR") for t in m)]
    if len(methods) > len(special) + len(constructors):
        ctx.note(
            f"{len(methods) - len(special) - len(constructors)} MEMBER/STATIC method(s) of {name} become "
            f"functions {name}__<method>(self {name}, ...) created by the TYPE BODY"
        )
    if constructors:
        ctx.note(
            f"{len(constructors)} CONSTRUCTOR function(s) of {name} become {name}__new(...), created by the TYPE BODY"
        )
    if special:
        ctx.note(
            f"the MAP/ORDER method of {name} becomes a function {name}__<method> and the type's comparison "
            "operators over it, created by the TYPE BODY"
        )
    tail = [t.text.upper() for t in toks[end + 1 :]]
    if tail and not hierarchy:
        ctx.note(f"type modifiers dropped: {' '.join(tail)} (no inheritance in composite types)")
    return out


def _key(name: Name, ctx: ConversionContext) -> tuple[str, str] | None:
    entry = ctx.catalog.lookup(*name[-2:])
    return (entry.schema, entry.name) if entry is not None else None


def _subtype_domain(text: str, name: Name, shape: ObjectType, ctx: ConversionContext) -> str:
    """``CREATE TYPE sub UNDER super (...)`` → a domain over the hierarchy's composite (created
    with the root, `type_hierarchy.layout`) admitting the tags of sub and its descendants."""
    if not ctx.enabled("ddl.object_type_hierarchy"):
        return unconverted(ctx, "CREATE TYPE UNDER", "rule ddl.object_type_hierarchy is disabled", text)
    key = _key(name, ctx)
    sup = hier.supertype(ctx.catalog, key) if key is not None else None
    if key is None or sup is None:
        return unconverted(
            ctx, "CREATE TYPE UNDER", f"the supertype {'.'.join(shape.supertype or ())} is not in the export", text
        )
    root = ctx.catalog.entries[hier.root(ctx.catalog, key)]
    tags = ", ".join(f"'{hier.tag(k)}'" for k in hier.subtree(ctx.catalog, key))
    ctx.applied("ddl.object_type_hierarchy")
    ctx.note(f"subtype {name} → domain over the composite of its hierarchy root {root.name}, checked by its type tag")
    tagcol = f"(VALUE).{quote_ident(hier.TAG)}"
    base = qualified(root.schema, root.name) if len(name) > 1 else quote_ident(root.name)
    return f"CREATE DOMAIN {name.sql} AS {base} CHECK ({tagcol} IS NULL OR {tagcol} IN ({tags}));"


def _collection(name: Name, shape: CollectionType, toks: list[Token], ctx: ConversionContext) -> str:
    if not ctx.enabled("ddl.collection_type"):
        return unconverted(ctx, "CREATE TYPE collection", "rule ddl.collection_type is disabled", "")
    element = map_type(shape.element, ctx)
    ctx.applied("ddl.collection_type")
    check = ""
    if shape.varray:
        check = f" CHECK (cardinality(VALUE) <= {shape.limit})"
    if any(t.is_word("NOT") for t in toks):
        ctx.note(f"{name}: NOT NULL on collection elements is not enforced by the array domain")
    ctx.note(f"collection type {name} → domain over {element}[] (1-based arrays)")
    return f"CREATE DOMAIN {name.sql} AS {element}[]{check};"
