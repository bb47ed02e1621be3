"""Names in expressions and assignment targets: package state, collections, cursor attributes."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.quoting import quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql.naming import derived, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import PgType
from migrator.source.lexer import LexError, matching_paren, split_top_level

_COLL_METHODS = {"COUNT", "FIRST", "LAST", "EXISTS", "NEXT", "PRIOR", "LIMIT"}


@dataclass
class LValue:
    target: str  # PL/pgSQL assignment target
    setup: list[str] = field(default_factory=list)  # statements before the assignment
    finish: list[str] = field(default_factory=list)  # statements after it (write-backs)
    type: PgType | None = None


class ValueMixin:
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
            and len(parts) == 1
            and not (j < len(toks) and toks[j].is_op("("))
        ):
            return self.sparse_to_array(quote_ident(parts[0]), sym.type), j, ""
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
        entry = self.lookup(key)
        return entry.info.get("plsql_methods", {}) if entry is not None else {}

    def method_call(self, key: tuple[str, str], obj: str, method: str, toks, j, scope):
        """obj.method(args) → <type>__<method>(obj, args): methods become functions taking SELF."""
        args = []
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
        if len(parts) == 1 and self.trigger is not None and u in ("INSERTING", "UPDATING", "DELETING"):
            return self.trigger_predicate(u, toks, j)
        ref = self.package_ref(parts)
        if ref is not None:
            pkg, sym, rest = ref
            if sym.kind == "type" and j < len(toks) and toks[j].is_op("("):
                return self.constructor(sym.type, toks, j, scope)
            if sym.kind in ("pkgvar", "pkgconst"):
                text, j, ptype = self.access(f"{sym.getter}()", sym.type, rest, toks, j, scope)
                return text, j, (ptype.ora if ptype else "")
            return None
        if len(parts) <= 2 and j < len(toks) and toks[j].is_op("("):
            styp = self.schema_collection_type(parts)
            if styp is not None:
                return self.constructor(styp, toks, j, scope)
        return None

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
                base, ptype = self.coll_method(base, coll, rest.pop(0).upper(), arg), None
                continue
            if rest:
                base, ptype = f"({base}).{quote_ident(rest.pop(0))}", None
                continue
            if coll is not None and j < len(toks) and toks[j].is_op("("):
                inner, j = self.paren_at(toks, j)
                base, ptype = self.element(base, coll, self.expr(inner, scope))
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

    def sparse_to_array(self, base: str, t: PgType) -> str:
        c = t.coll
        value = (
            f"jsonb_populate_record(NULL::{c.elem_pg}, e.value)"
            if c.elem_composite
            else f"(e.value #>> '{{}}')::{self.castable(c.elem_pg)}"
        )
        return f"ARRAY(SELECT {value} FROM jsonb_each({base}) AS e ORDER BY e.key::numeric)"

    def key_text(self, coll, key: str) -> str:
        return f"(({key})::bigint)::text" if coll.numeric_keys else f"({key})::text"

    def element(self, base: str, coll, idx: str):
        elem = PgType(coll.elem_pg, coll.elem_ora, composite=coll.elem_composite)
        if coll.kind == "array":
            return f"{base}[{idx}]", elem
        raw = f"oracompat.aa_get({base}, {self.key_text(coll, idx)})"
        if coll.elem_composite:
            return f"jsonb_populate_record(NULL::{coll.elem_pg}, {raw})", elem
        return f"({raw} #>> '{{}}')::{self.castable(coll.elem_pg)}", elem

    def castable(self, pg: str) -> str:
        """A type usable in a SQL cast (a %TYPE reference is not)."""
        if "%" in pg:
            return "text"
        return pg

    def coll_method(self, base: str, coll, method: str, arg: str | None) -> str:
        if (off := self.rule_off("plsql.collections", f"collection {method}", f"{base}.{method}")) is not None:
            return off
        self.ctx.applied("plsql.collections")
        if coll.kind == "assoc":
            suffix = "n" if coll.numeric_keys else "s"
            if method == "COUNT":
                return f"oracompat.aa_count({base})"
            if method == "EXISTS":
                return f"oracompat.aa_exists({base}, {self.key_text(coll, arg)})"
            if method in ("FIRST", "LAST"):
                return f"oracompat.aa_{method.lower()}_{suffix}({base})"
            if method in ("NEXT", "PRIOR"):
                return f"oracompat.aa_{method.lower()}_{suffix}({base}, {arg})"
            return "NULL"  # LIMIT of an associative array is NULL in Oracle
        n = f"coalesce(cardinality({base}), 0)"
        if method == "COUNT":
            return n
        if method == "FIRST":
            return f"(CASE WHEN {n} > 0 THEN 1 END)"
        if method == "LAST":
            return f"nullif({n}, 0)"
        if method == "EXISTS":
            return f"coalesce(({arg}) BETWEEN 1 AND {n}, false)"
        if method == "NEXT":
            return f"oracompat.arr_next({n}, {arg})"
        if method == "PRIOR":
            return f"oracompat.arr_prior({n}, {arg})"
        return str(coll.limit) if getattr(coll, "limit", None) else "NULL"

    def constructor(self, ptype: PgType, toks, j, scope):
        inner, j2 = self.paren_at(toks, j)
        args = [self.expr(a, scope) for a in split_top_level(inner)] if inner else []
        if (off := self.rule_off("plsql.collections", "constructor", ptype.ora or ptype.pg, toks[j])) is not None:
            return off, j2, ""
        self.ctx.applied("plsql.collections")
        if ptype.coll is None:  # object type constructor
            return f"ROW({', '.join(args)})::{ptype.pg}", j2, ""
        if ptype.coll.kind == "assoc":
            self.unconverted("associative array constructor", "qualified expressions for INDEX BY tables", toks[j])
            return unconverted_marker("associative array constructor"), j2, ""
        if not args:
            return f"'{{}}'::{self.castable(ptype.pg)}", j2, ""
        return f"ARRAY[{', '.join(args)}]::{self.castable(ptype.pg)}", j2, ""

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

    def sqlcode_text(self) -> str:
        if (off := self.rule_off("plsql.exceptions", "SQLCODE", "SQLCODE")) is not None:
            return off
        self.ctx.applied("plsql.exceptions")
        return "oracompat.sqlcode(SQLSTATE)" if self.in_handler else "0"

    def sqlerrm_text(self, toks, j, scope):
        if (off := self.rule_off("plsql.exceptions", "SQLERRM", "SQLERRM")) is not None:
            return off, (self.paren_at(toks, j)[1] if j < len(toks) and toks[j].is_op("(") else j), "VARCHAR2"
        self.ctx.applied("plsql.exceptions")
        if j < len(toks) and toks[j].is_op("("):
            inner, j = self.paren_at(toks, j)
            if not (self.in_handler and len(inner) == 1 and inner[0].is_word("SQLCODE")):
                return f"oracompat.sqlerrm_of({self.expr(inner, scope)})", j, "VARCHAR2"
            # SQLERRM(SQLCODE) in a handler is the current error's message, like SQLERRM
        if self.in_handler:
            return self.diag_sqlerrm() or "oracompat.sqlerrm(SQLSTATE, SQLERRM)", j, "VARCHAR2"
        return "'ORA-0000: normal, successful completion'", j, "VARCHAR2"
