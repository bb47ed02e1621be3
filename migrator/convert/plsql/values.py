"""Names in expressions that only PL/SQL knows: package variables and constants (their getters),
object attributes and methods, collection elements and methods (`emit_collections`), cursor and
SQL% attributes, SQLCODE/SQLERRM (`emit_exceptions`), trigger predicates (`emit_trigger`)."""

from __future__ import annotations

from harness.quoting import quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql.naming import derived, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.state import EmitterState
from migrator.convert.plsql.symbols import PgType
from migrator.source.lexer import LexError, matching_paren

_COLL_METHODS = {"COUNT", "FIRST", "LAST", "EXISTS", "NEXT", "PRIOR", "LIMIT"}


class ValueMixin(EmitterState):
    # ---- reading ---------------------------------------------------------------------------
    def resolve_value(self, parts, toks, j, scope, ph, types):
        """(pg text, next token index, oracle type) for a PL/SQL-only name, or None."""
        sym = scope.get(parts[0])
        if sym is None:
            return self.resolve_global(parts, toks, j, scope, ph, types)
        if sym.kind == "nullparam":
            return f"{sym.type.pg}", j, sym.type.ora
        if sym.kind == "selfattr":
            base, ptype, rest = f"self.{quote_ident(parts[0])}", sym.type, parts[1:]
        elif (
            sym.type is not None
            and sym.type.object_key
            and len(parts) == 2
            and parts[1] in self.object_methods(sym.type.object_key)
        ):
            return self.method_call(sym.type.object_key, parts[0], parts[1], toks, j, scope)
        elif sym.kind in ("pkgvar", "pkgconst"):
            base, ptype, rest = f"{sym.getter}()", sym.type, parts[1:]
        elif sym.kind == "type" and sym.type is not None and j < len(toks) and toks[j].is_op("("):
            return self.constructor(sym.type, toks, j, scope)
        elif (
            sym.type is not None
            and sym.type.array_pg
            and sym.type.coll is not None
            and len(parts) == 1
            and not (j < len(toks) and toks[j].is_op("("))
        ):
            return self.sparse_to_array(quote_ident(parts[0]), sym.type.coll), j, ""
        elif (
            sym.type is not None
            and sym.type.coll is not None
            and ((j < len(toks) and toks[j].is_op("(")) or (len(parts) > 1 and parts[1].upper() in _COLL_METHODS))
        ):
            base, ptype, rest = quote_ident(parts[0]), sym.type, parts[1:]
        else:
            return None
        text, j, ptype = self.access(base, ptype, rest, toks, j, scope)
        return text, j, (ptype.ora if ptype else "")

    def object_methods(self, key: tuple[str, str]) -> dict:
        return self.resolver.object_methods(key)

    def method_call(self, key: tuple[str, str], obj: str, method: str, toks, j, scope):
        """obj.method(args) → <type>__<method>(obj, args): methods become functions taking SELF."""
        args: list[str] = []
        if j < len(toks) and toks[j].is_op("("):
            inner, j = self.paren_at(toks, j)
            args = self.call_args(inner, scope) if inner else []
        return f"{sql(derived(key, method))}({', '.join([quote_ident(obj)] + args)})", j, ""

    def resolve_global(self, parts, toks, j, scope, ph, types):
        u = parts[0].upper()
        if len(parts) == 1 and u == "SQLCODE":
            return self.sqlcode_text(), j, "NUMBER"
        if len(parts) == 1 and u == "SQLERRM":
            return self.sqlerrm_text(toks, j, scope)
        if len(parts) == 1 and self.frame.trigger is not None and u in ("INSERTING", "UPDATING", "DELETING"):
            return self.trigger_predicate(u, toks, j)
        if (supplied := self.supplied_value(parts, toks, j, scope)) is not None:  # emit_supplied
            return supplied
        ref = self.package_ref(parts)
        if ref is not None:
            pkg, sym, rest = ref
            if sym.kind == "type" and j < len(toks) and toks[j].is_op("("):
                return self.constructor(sym.type, toks, j, scope)
            if sym.kind in ("pkgvar", "pkgconst"):
                text, j, ptype = self.access(f"{sym.getter}()", sym.type, rest, toks, j, scope)
                return text, j, (ptype.ora if ptype else "")
            return None
        if len(parts) == 2 and (static := self.static_method(parts, toks, j, scope)) is not None:
            return static
        if len(parts) <= 2 and j < len(toks) and toks[j].is_op("("):
            styp = self.resolver.schema_collection_type(parts)
            if styp is not None:
                return self.constructor(styp, toks, j, scope)
        return None

    def static_method(self, parts, toks, j, scope):
        """type.method(args) for a STATIC method of a schema-level object type → <type>__<method>(args)."""
        entry = self.lookup(parts[:1])
        if entry is None or entry.plsql_type is None:
            return None
        sigs = self.object_methods((entry.schema, entry.name)).get(parts[1], [])
        if not any(r.flavour == "STATIC" for r in sigs):
            return None
        args: list[str] = []
        if j < len(toks) and toks[j].is_op("("):
            inner, j = self.paren_at(toks, j)
            args = self.call_args(inner, scope) if inner else []
        return f"{sql(derived((entry.schema, entry.name), parts[1]))}({', '.join(args)})", j, ""

    def access(self, base: str, ptype: PgType | None, rest: list[str], toks, j, scope):
        """Apply `(index)`, `.field` and `.METHOD` accessors to a value."""
        rest = list(rest)
        while True:
            coll = ptype.coll if ptype is not None else None
            if rest and coll is not None and rest[0].upper() in _COLL_METHODS:
                arg = None
                if j < len(toks) and toks[j].is_op("(") and rest[0].upper() in ("EXISTS", "NEXT", "PRIOR"):
                    inner, j = self.paren_at(toks, j)
                    arg = self.expr(inner, scope)
                method = rest.pop(0).upper()
                base, ptype = self.coll_method(base, coll, method, arg), _method_type(coll, method)
                continue
            key = ptype.object_key if ptype is not None else None
            if rest and key is not None and rest[0] in self.object_methods(key):  # coll(i).method(...)
                method = rest.pop(0)
                args: list[str] = []
                if j < len(toks) and toks[j].is_op("("):
                    inner, j = self.paren_at(toks, j)
                    args = self.call_args(inner, scope) if inner else []
                base, ptype = f"{sql(derived(key, method))}({', '.join([base] + args)})", None
                continue
            if rest:
                base, ptype = f"({base}).{quote_ident(rest.pop(0))}", None
                continue
            if coll is not None and j < len(toks) and toks[j].is_op("("):
                inner, j = self.paren_at(toks, j)
                base, ptype = self.element(base, coll, self.expr(inner, scope), checked=True)
                while j + 1 < len(toks) and toks[j].is_op(".") and toks[j + 1].kind in ("word", "qident"):
                    rest.append(norm_name(toks[j + 1]))
                    j += 2
                if rest:
                    continue
            return base, j, ptype

    def paren_at(self, toks, j):
        """(tokens inside the '(' at toks[j], index after its ')'); an unclosed one runs to the end."""
        try:
            k = matching_paren(toks, j)
        except LexError:
            return toks[j + 1 :], len(toks)
        return toks[j + 1 : k], k + 1

    # ---- cursor attributes, SQLCODE/SQLERRM ----------------------------------------------------
    def cursor_attr(self, parts, attr: str, scope, tok) -> str:
        name = sql(tuple(parts))
        if len(parts) == 1 and tok.kind == "word" and parts[0] == "sql":
            self.uses_sql_rowcount = True
            return {
                "ROWCOUNT": "sql__rowcount",
                "FOUND": "(sql__rowcount > 0)",
                "NOTFOUND": "(sql__rowcount = 0)",
                "ISOPEN": "false",
            }.get(attr) or self.mark_attr(name, attr, tok)
        sym = scope.get(parts[0])
        if attr == "ISOPEN":
            return f"oracompat.cursor_isopen({name})"
        if sym is None or sym.kind not in ("cursor", "var", "param"):
            return self.mark_attr(name, attr, tok)
        self.tracked_cursors.add(parts[0])
        found, rowcount = quote_ident(f"{parts[0]}__found"), quote_ident(f"{parts[0]}__rowcount")
        return {"FOUND": found, "NOTFOUND": f"(NOT {found})", "ROWCOUNT": rowcount}.get(attr) or self.mark_attr(
            name, attr, tok
        )

    def mark_attr(self, name, attr, tok) -> str:
        self.unconverted(f"%{attr}", f"{name}%{attr} has no converted equivalent", tok)
        return unconverted_marker(f"%{attr}", f"{name}%{attr}")


def _method_type(coll, method: str) -> PgType | None:
    """The type of a collection method's result (emit_collections.coll_method): COUNT and an
    array's indexes are integers, an INDEX BY table's keys numbers or strings."""
    if method == "COUNT" or method in ("FIRST", "LAST", "NEXT", "PRIOR") and coll.kind == "array":
        return PgType("integer", "PLS_INTEGER")
    if method in ("FIRST", "LAST", "NEXT", "PRIOR"):
        return PgType("numeric", "NUMBER") if coll.numeric_keys else PgType("text", "VARCHAR2")
    return None
