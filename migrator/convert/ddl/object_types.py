"""CREATE TYPE: object types → composite types; nested tables and VARRAYs → domains over arrays.

A nested table or VARRAY of y becomes ``CREATE DOMAIN x AS y[]``: a named type whose values
are arrays (1-based like Oracle collections), and a VARRAY's size limit is kept as a CHECK on
``cardinality(VALUE)``. Object type MEMBER/STATIC methods are PL/SQL
implemented by the TYPE BODY as functions (noted here), CONSTRUCTOR functions as <type>__new;
MAP/ORDER declarations are reported as unconverted (the composite type itself is still created).
"""

from __future__ import annotations

from harness.quoting import comment_text, quote_ident
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
        return name, "subtype", toks, i
    i += 1  # AS | IS
    if toks[i].is_word("OBJECT"):
        final, instantiable = _modifiers(toks[matching_paren(toks, i + 1) + 1 :])
        return name, ObjectType(_attributes(text, toks, i + 1), final=final, instantiable=instantiable), toks, i
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
    forward declaration and the forms `convert_type` refuses). Of an UNDER subtype only its
    supertype and modifiers are read: nothing converts a subtype's own attributes yet."""
    _, shape, toks, i = parse_type(text)
    if shape == "subtype":
        supertype, j = read_name(toks, i + 1)
        tail = toks[matching_paren(toks, j) + 1 :] if j < len(toks) and toks[j].is_op("(") else toks[j:]
        final, instantiable = _modifiers(tail)
        return ObjectType(supertype=tuple(supertype), final=final, instantiable=instantiable)
    return None if isinstance(shape, str) else shape


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
        if el[0].is_word(*_METHOD_WORDS):
            continue
        attrs[ident(el[0])] = source(text, el[1:])
    return attrs


def convert_type(text: str, ctx: ConversionContext) -> str:
    try:
        name, shape, toks, i = parse_type(text)
    except (LexError, IndexError, ValueError) as exc:
        return unconverted(ctx, "CREATE TYPE", f"could not read the type: {exc}", text)
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
    attrs = ",\n    ".join(f"{quote_ident(a)} {map_type(t, ctx)}" for a, t in shape.attributes.items())
    ctx.applied("ddl.object_type")
    out = f"CREATE TYPE {name.sql} AS (\n    {attrs}\n);"
    end = matching_paren(toks, i + 1)
    methods = [el for el in split_top_level(toks[i + 2 : end]) if el[0].is_word(*_METHOD_WORDS)]
    # MEMBER/STATIC methods are implemented by the TYPE BODY unit as functions <type>__<method>
    # taking SELF first, CONSTRUCTOR functions as <type>__new (migrator.convert.plsql); MAP/ORDER
    # methods (the type's ordering) have no such equivalent.
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
        spec = "\n".join(source(text, m) for m in special)
        out += "\n" + unconverted(
            ctx,
            "object type methods",
            f"{len(special)} MAP/ORDER method declaration(s) of {name}: "
            "PostgreSQL composite types have no such methods",
            spec,
        )
    tail = [t.text.upper() for t in toks[end + 1 :]]
    if tail:
        ctx.note(f"type modifiers dropped: {' '.join(tail)} (no inheritance in composite types)")
    return out


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
