"""Names in expressions that only PL/SQL knows: package variables and constants (their getters),
object attributes and methods, collection elements and methods (`emit_collections`), cursor and
SQL% attributes, SQLCODE/SQLERRM (`emit_exceptions`), trigger predicates (`emit_trigger`)."""

from __future__ import annotations

import dataclasses

from harness.quoting import quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import emit_collections as coll_
from migrator.convert.plsql import emit_exceptions as exc_
from migrator.convert.plsql import emit_method_out as method_out_
from migrator.convert.plsql import emit_package as package_
from migrator.convert.plsql import emit_stmt as stmt_
from migrator.convert.plsql import emit_supplied as supplied_
from migrator.convert.plsql import emit_trigger as trigger_
from migrator.convert.plsql import emit_xml as xml_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import derived, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import PgType
from migrator.source.lexer import LexError, matching_paren

_COLL_METHODS = {"COUNT", "FIRST", "LAST", "EXISTS", "NEXT", "PRIOR", "LIMIT"}


def resolve_value(em: Emitter, parts, toks, j, scope, ph, types):
    """(pg text, next token index, oracle type) for a PL/SQL-only name, or None."""
    sym = scope.get(parts[0])
    if sym is None:
        return resolve_global(em, parts, toks, j, scope, ph, types)
    if sym.kind == "nullparam":
        return f"{sym.type.pg}", j, sym.type.ora
    if sym.kind == "selfattr":
        ptype, rest = _schema_typed(em, sym.type), parts[1:]
        base = (
            unbox(f"self.{quote_ident(parts[0])}", ptype)
            if sym.type and sym.type.boxed
            else f"self.{quote_ident(parts[0])}"
        )
    elif (
        sym.type is not None
        and (sym.type.object_key or sym.type.composite)
        and (sym.type.fields or sym.type.colls)
        and len(parts) >= 2
        and (parts[1] in (sym.type.fields or {}) or parts[1] in (sym.type.colls or {}))
        and (sym.type.object_key or field_type(em, sym.type, parts[1], scope) is not None)
        and (
            len(parts) > 2
            or (j < len(toks) and toks[j].is_op("("))
            or em.resolver.boxed_attribute(sym.type.object_key, parts[1])
        )
    ):  # obj.attr(i)..., obj.attr.method(...), a boxed obj.attr: the attribute's own type carries on
        base, ptype, rest = quote_ident(parts[0]), sym.type, parts[1:]
    elif (
        sym.type is not None
        and sym.type.object_key
        and len(parts) == 2
        and parts[1] in object_methods(em, sym.type.object_key)
    ):
        # a package variable is read through its getter (a member function's SELF is IN); where
        # SELF is IN OUT the object is written back after the call (emit_method_out)
        if sym.kind in ("pkgvar", "pkgconst") and sym.getter:
            obj = f"{sym.getter}()"
            back = f"PERFORM {sym.setter}({{value}});" if sym.kind == "pkgvar" and sym.setter else None
        else:
            obj = quote_ident(parts[0])
            back = f"{obj} := {{value}};" if sym.kind in ("var", "param", "loopvar") else None
        changed = method_out_.member_out_call(em, sym.type.object_key, obj, back, parts[1], toks, j, scope)
        if changed is not None:
            return changed[0], changed[1], ""
        return method_call(em, sym.type.object_key, obj, parts[1], toks, j, scope)
    elif sym.type is not None and xml_.is_xml(sym.type) and len(parts) >= 2:  # XMLTYPE members
        text, j, ptype = xml_.chain(em, quote_ident(parts[0]), sym.type, parts[1:], toks, j, scope)
        return text, j, (ptype.ora if ptype else "")
    elif (
        sym.kind == "pkgvar"
        and sym.type is not None
        and sym.type.array_pg
        and sym.type.coll is not None
        and len(parts) == 1
        and not (j < len(toks) and toks[j].is_op("("))
    ):  # a sparse package nested table used whole: its elements as the dense array
        return coll_.sparse_to_array(em, f"{sym.getter}()", sym.type.coll), j, ""
    elif sym.kind in ("pkgvar", "pkgconst"):
        base, ptype, rest = f"{sym.getter}()", sym.type, parts[1:]
    elif sym.kind == "type" and sym.type is not None and j < len(toks) and toks[j].is_op("("):
        return coll_.constructor(em, sym.type, toks, j, scope)
    elif (
        sym.type is not None
        and sym.type.array_pg
        and sym.type.coll is not None
        and len(parts) == 1
        and not (j < len(toks) and toks[j].is_op("("))
    ):
        return coll_.sparse_to_array(em, quote_ident(parts[0]), sym.type.coll), j, ""
    elif (
        sym.type is not None
        and sym.type.coll is not None
        and ((j < len(toks) and toks[j].is_op("(")) or (len(parts) > 1 and parts[1].upper() in _COLL_METHODS))
    ):
        base, ptype, rest = quote_ident(parts[0]), sym.type, parts[1:]
    else:
        return None
    text, j, ptype = access(em, base, ptype, rest, toks, j, scope)
    return text, j, (ptype.ora if ptype else "")


def object_methods(em: Emitter, key: tuple[str, str]) -> dict:
    return em.resolver.object_methods(key)


def method_call(em: Emitter, key: tuple[str, str], obj: str, method: str, toks, j, scope):
    """obj.method(args) → <type>__<method>(obj, args): methods become functions taking SELF
    (`obj` is the object's SQL text: a quoted variable, or a package variable's getter call)."""
    args: list[str] = []
    if j < len(toks) and toks[j].is_op("("):
        inner, j = paren_at(em, toks, j)
        args = stmt_.call_args(em, inner, scope) if inner else []
    return f"{sql(derived(key, method))}({', '.join([obj] + args)})", j, ""


def resolve_global(em: Emitter, parts, toks, j, scope, ph, types):
    u = parts[0].upper()
    if len(parts) == 1 and u == "SQLCODE":
        return exc_.sqlcode_text(em), j, "NUMBER"
    if len(parts) == 1 and u == "SQLERRM":
        return exc_.sqlerrm_text(em, toks, j, scope)
    if len(parts) == 1 and em.frame.trigger is not None and u in ("INSERTING", "UPDATING", "DELETING"):
        return trigger_.trigger_predicate(em, u, toks, j)
    if xml_.is_constructor(parts) and (made := xml_.constructor(em, parts, toks, j, scope)) is not None:
        return made  # XMLTYPE(text): emit_xml
    if (supplied := supplied_.supplied_value(em, parts, toks, j, scope)) is not None:  # emit_supplied
        return supplied
    ref = package_.package_ref(em, parts)
    if ref is not None:
        pkg, sym, rest = ref
        if sym.kind == "type" and j < len(toks) and toks[j].is_op("("):
            return coll_.constructor(em, sym.type, toks, j, scope)
        if sym.kind in ("pkgvar", "pkgconst"):
            text, j, ptype = access(em, f"{sym.getter}()", sym.type, rest, toks, j, scope)
            return text, j, (ptype.ora if ptype else "")
        return None
    if len(parts) == 2 and (static := static_method(em, parts, toks, j, scope)) is not None:
        return static
    if len(parts) <= 2 and j < len(toks) and toks[j].is_op("("):
        styp = em.resolver.schema_collection_type(parts)
        if styp is not None:
            return coll_.constructor(em, styp, toks, j, scope)
    return None


def static_method(em: Emitter, parts, toks, j, scope):
    """type.method(args) for a STATIC method of a schema-level object type → <type>__<method>(args)."""
    entry = package_.lookup(em, parts[:1])
    if entry is None or entry.plsql_type is None:
        return None
    sigs = object_methods(em, (entry.schema, entry.name)).get(parts[1], [])
    if not any(r.flavour == "STATIC" for r in sigs):
        return None
    args: list[str] = []
    if j < len(toks) and toks[j].is_op("("):
        inner, j = paren_at(em, toks, j)
        args = stmt_.call_args(em, inner, scope) if inner else []
    return f"{sql(derived((entry.schema, entry.name), parts[1]))}({', '.join(args)})", j, ""


def access(em: Emitter, base: str, ptype: PgType | None, rest: list[str], toks, j, scope):
    """Apply `(index)`, `.field` and `.METHOD` accessors to a value."""
    rest = list(rest)
    while True:
        if xml_.is_xml(ptype):  # an XMLTYPE attribute, element or package variable: its members
            return xml_.chain(em, base, ptype, rest, toks, j, scope)
        coll = ptype.coll if ptype is not None else None
        if rest and coll is not None and rest[0].upper() in _COLL_METHODS:
            arg = None
            if j < len(toks) and toks[j].is_op("(") and rest[0].upper() in ("EXISTS", "NEXT", "PRIOR"):
                inner, j = paren_at(em, toks, j)
                arg = exprs_.expr(em, inner, scope)
            elif j + 1 < len(toks) and toks[j].is_op("(") and toks[j + 1].is_op(")"):
                j += 2  # COUNT(), FIRST() ...: Oracle accepts the empty argument list
            method = rest.pop(0).upper()
            base, ptype = coll_.coll_method(em, base, coll, method, arg), _method_type(coll, method)
            continue
        key = ptype.object_key if ptype is not None else None
        if rest and key is not None and rest[0] in object_methods(em, key):  # coll(i).method(...)
            method = rest.pop(0)
            changed = method_out_.member_out_call(em, key, base, None, method, toks, j, scope)
            if changed is not None:  # SELF IN OUT on a value with no variable: reported there
                base, j = changed
                ptype = None
                continue
            args: list[str] = []
            if j < len(toks) and toks[j].is_op("("):
                inner, j = paren_at(em, toks, j)
                args = stmt_.call_args(em, inner, scope) if inner else []
            base, ptype = f"{sql(derived(key, method))}({', '.join([base] + args)})", None
            continue
        if rest:
            field = rest.pop(0)
            key = ptype.object_key if ptype is not None else None
            ftype = field_type(em, ptype, field, scope)
            base = f"({base}).{quote_ident(field)}"
            if key is not None and em.resolver.boxed_attribute(key, field):
                base = unbox(base, ftype)
            ptype = ftype
            continue
        if coll is not None and j < len(toks) and toks[j].is_op("("):
            inner, j = paren_at(em, toks, j)
            base, ptype = coll_.element(em, base, coll, exprs_.expr(em, inner, scope), checked=True)
            while j + 1 < len(toks) and toks[j].is_op(".") and toks[j + 1].kind in ("word", "qident"):
                rest.append(norm_name(toks[j + 1]))
                j += 2
            if rest or (ptype is not None and ptype.coll is not None and j < len(toks) and toks[j].is_op("(")):
                continue  # .field, .METHOD or the element's own element: a(i)(j)
        return base, j, ptype


def field_type(em: Emitter, ptype: PgType | None, field: str, scope) -> PgType | None:
    """The type of field `field` of an object or record value: an object attribute's schema-level
    type; a record field's collection type (a package's or the unit's own TYPE, or a schema-level
    one), which its element reads and collection methods need. None where it is not known (a
    record's scalar field: nothing to convert)."""
    if ptype is not None and ptype.object_key and not ptype.fields:  # a collection's element: its type's attributes
        ptype = em.resolver.schema_collection_type(list(ptype.object_key)) or ptype
    if ptype is not None and ptype.colls and field in ptype.colls:
        return ptype.colls[field]
    ora = (ptype.fields or {}).get(field) if ptype is not None else None
    if not ora or ptype is None:
        return None
    if ptype.object_key:
        return _schema_typed(em, PgType("", ora))
    if "(" in ora or "%" in ora:
        return None
    parts = [p.strip('"').lower() for p in ora.split(".")]
    sym = scope.get(parts[0]) if len(parts) == 1 else None
    if sym is not None and sym.kind == "type" and sym.type is not None:
        return sym.type if sym.type.coll is not None else None
    ref = package_.package_ref(em, parts) if len(parts) > 1 else None
    if ref is not None and ref[1].kind == "type" and ref[1].type is not None and not ref[2]:
        return ref[1].type if ref[1].type.coll is not None else None
    found = _schema_typed(em, PgType("", ora))
    return found if found is not None and found.coll is not None else None


def follow(em: Emitter, base: str, ptype: PgType | None, toks, j, scope):
    """`.attr`, `.method(...)` and `(i)` accessors written after a value's expression (a TREAT, a
    call's result), one name at a time: (text, next token index, type)."""
    while ptype is not None and j + 1 < len(toks) and toks[j].is_op(".") and toks[j + 1].kind in ("word", "qident"):
        base, j, ptype = access(em, base, ptype, [norm_name(toks[j + 1])], toks, j + 2, scope)
    return base, j, ptype


def unbox(text: str, ptype: PgType | None) -> str:
    """A boxed attribute's text form read back as its declared type (`type_hierarchy.boxed`)."""
    return f"({text})::{ptype.pg}" if ptype is not None and ptype.pg else text


def _schema_typed(em: Emitter, ptype: PgType | None) -> PgType | None:
    """An attribute's type: a schema-level object or collection type's full description (its
    fields, elements and methods), else as it is."""
    if ptype is None or not ptype.ora or "(" in ptype.ora:
        return ptype
    found = em.resolver.schema_collection_type([p.lower() for p in ptype.ora.split(".")])
    if found is None:
        return ptype
    return found if found.ora else dataclasses.replace(found, ora=ptype.ora)


def paren_at(em: Emitter, toks, j):
    """(tokens inside the '(' at toks[j], index after its ')'); an unclosed one runs to the end."""
    try:
        k = matching_paren(toks, j)
    except LexError:
        return toks[j + 1 :], len(toks)
    return toks[j + 1 : k], k + 1


# ---- cursor attributes, SQLCODE/SQLERRM ----------------------------------------------------
def cursor_attr(em: Emitter, parts, attr: str, scope, tok) -> str:
    name = sql(tuple(parts))
    if len(parts) == 1 and tok.kind == "word" and parts[0] == "sql":
        em.uses_sql_rowcount = True
        return {
            "ROWCOUNT": "sql__rowcount",
            "FOUND": "(sql__rowcount > 0)",
            "NOTFOUND": "(sql__rowcount = 0)",
            "ISOPEN": "false",
        }.get(attr) or mark_attr(em, name, attr, tok)
    sym = scope.get(parts[0])
    if attr == "ISOPEN":
        return f"oracompat.cursor_isopen({name})"
    if sym is None or sym.kind not in ("cursor", "var", "param"):
        return mark_attr(em, name, attr, tok)
    em.tracked_cursors.add(parts[0])
    found, rowcount = quote_ident(f"{parts[0]}__found"), quote_ident(f"{parts[0]}__rowcount")
    return {"FOUND": found, "NOTFOUND": f"(NOT {found})", "ROWCOUNT": rowcount}.get(attr) or mark_attr(
        em, name, attr, tok
    )


def mark_attr(em: Emitter, name, attr, tok) -> str:
    em.unconverted(f"%{attr}", f"{name}%{attr} has no converted equivalent", tok)
    return unconverted_marker(f"%{attr}", f"{name}%{attr}")


def _method_type(coll, method: str) -> PgType | None:
    """The type of a collection method's result (emit_collections.coll_method): COUNT and an
    array's indexes are integers, an INDEX BY table's keys numbers or strings."""
    if method == "COUNT" or method in ("FIRST", "LAST", "NEXT", "PRIOR") and coll.kind == "array":
        return PgType("integer", "PLS_INTEGER")
    if method in ("FIRST", "LAST", "NEXT", "PRIOR"):
        return PgType("numeric", "NUMBER") if coll.numeric_keys else PgType("text", "VARCHAR2")
    return None
