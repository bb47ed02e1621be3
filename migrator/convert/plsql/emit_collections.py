"""Collections (rule plsql.collections): nested tables, VARRAYs and INDEX BY tables — their
constructors, elements, methods (COUNT, FIRST, LAST, EXISTS, NEXT, PRIOR, LIMIT) and the
EXTEND/DELETE/TRIM procedures. Bulk binds (BULK COLLECT, FORALL) are `emit_bulk`; collection
type declarations are `emit_decl.type_decl`.

Nested tables and VARRAYs are PostgreSQL arrays (1-based, dense); INDEX BY tables are jsonb maps
keyed by the index's text, read and written through `oracompat.aa_*` so sparse keys and Oracle's
FIRST/NEXT order survive. A nested table on which DELETE(i) is called is held as such a map too
(`emit_decl.sparse_var_line`) and compacted to an array where it is used whole.
"""

from __future__ import annotations

from harness.quoting import quote_ident
from migrator.convert import signatures
from migrator.convert import type_hierarchy as hier
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_call as call_
from migrator.convert.plsql import emit_decl as decl_
from migrator.convert.plsql import emit_package as package_
from migrator.convert.plsql import emit_stmt as stmt_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import targets as targets_
from migrator.convert.plsql import values as values_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import derived, oracle_tokens, sql
from migrator.convert.plsql.output import Out
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import Coll, PgType, Scope, Sym
from migrator.convert.schema_model import ObjectType
from migrator.source.lexer import Token, split_top_level

# Words after TABLE(...) that are no alias of it.
_NOT_ALIAS = ("WHERE", "JOIN", "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "ON", "GROUP", "ORDER", "UNION",
              "MINUS", "INTERSECT", "CONNECT", "START", "HAVING", "FOR", "FETCH", "OFFSET", "LOOP", "INTO")  # fmt: skip


def sparse_to_array(em: Emitter, base: str, c: Coll) -> str:
    value = (
        f"jsonb_populate_record(NULL::{c.elem_pg}, e.value)"
        if c.elem_composite
        else f"(e.value #>> '{{}}')::{castable(em, c.elem_pg)}"
    )
    return f"ARRAY(SELECT {value} FROM jsonb_each({base}) AS e ORDER BY e.key::numeric)"


def key_text(em: Emitter, coll, key: str) -> str:
    return f"(({key})::bigint)::text" if coll.numeric_keys else f"({key})::text"


def element(em: Emitter, base: str, coll, idx: str, *, checked: bool = False):
    """An element's value (and type). `checked`: a read, which raises as Oracle's does where the
    subscript is out of range (PostgreSQL would read NULL); an assignment target is unchecked."""
    elem = coll.elem_type or PgType(
        coll.elem_pg, coll.elem_ora, composite=coll.elem_composite, object_key=coll.elem_object
    )
    if coll.kind == "array":
        if checked:
            limit = f", {coll.limit}" if coll.limit is not None else ""
            return f"oracompat.arr_get({base}, {idx}{limit})", elem
        return f"{base}[{idx}]", elem
    raw = f"oracompat.aa_get({base}, {key_text(em, coll, idx)})"
    if coll.elem_composite:
        return f"jsonb_populate_record(NULL::{coll.elem_pg}, {raw})", elem
    return f"({raw} #>> '{{}}')::{castable(em, coll.elem_pg)}", elem


def castable(em: Emitter, pg: str) -> str:
    """A type usable in a SQL cast (a %TYPE reference is not)."""
    if "%" in pg:
        return "text"
    return pg


def coll_method(em: Emitter, base: str, coll: Coll, method: str, arg: str | None) -> str:
    if (off := em.rule_off("plsql.collections", f"collection {method}", f"{base}.{method}")) is not None:
        return off
    if method in ("EXISTS", "NEXT", "PRIOR"):
        if arg is None:  # Oracle refuses these without an index: PLS-00306
            em.unconverted(f"collection {method}", f"{method} needs an index argument")
            return unconverted_marker(f"collection {method}", f"{base}.{method}")
        em.ctx.applied("plsql.collections")
        return indexed_method(em, base, coll, method, arg)
    em.ctx.applied("plsql.collections")
    if coll.kind == "assoc":
        if method == "COUNT":
            return f"oracompat.aa_count({base})"
        if method in ("FIRST", "LAST"):
            return f"oracompat.aa_{method.lower()}_{'n' if coll.numeric_keys else 's'}({base})"
        return "NULL"  # LIMIT of an associative array is NULL in Oracle
    n = f"coalesce(cardinality({base}), 0)"
    if method == "COUNT":
        return n
    if method == "FIRST":
        return f"(CASE WHEN {n} > 0 THEN 1 END)"
    if method == "LAST":
        return f"nullif({n}, 0)"
    # LIMIT: a VARRAY's declared size; a nested table's is NULL
    return str(coll.limit) if coll.limit is not None else "NULL"


def indexed_method(em: Emitter, base: str, coll: Coll, method: str, arg: str) -> str:
    """EXISTS(i), NEXT(i), PRIOR(i)."""
    if coll.kind == "assoc":
        if method == "EXISTS":
            return f"oracompat.aa_exists({base}, {key_text(em, coll, arg)})"
        return f"oracompat.aa_{method.lower()}_{'n' if coll.numeric_keys else 's'}({base}, {arg})"
    n = f"coalesce(cardinality({base}), 0)"
    if method == "EXISTS":
        return f"coalesce(({arg}) BETWEEN 1 AND {n}, false)"
    return f"oracompat.arr_{method.lower()}({n}, {arg})"


def constructor(em: Emitter, ptype: PgType, toks, j, scope):
    inner, j2 = values_.paren_at(em, toks, j)
    if ptype.coll is not None and ptype.coll.kind == "assoc":
        return assoc_constructor(em, ptype, inner, toks[j], j2, scope)
    pieces = [
        (norm_name(a[0]), a[2:]) if len(a) > 2 and a[1].is_op("=>") else (None, a)
        for a in (split_top_level(inner) if inner else [])
    ]
    typed = [exprs_.expr_typed(em, a, scope, n, typed=ptype.coll is None) for n, a in pieces]
    args = [text for text, _ in typed]
    if (off := em.rule_off("plsql.collections", "constructor", ptype.ora or ptype.pg, toks[j])) is not None:
        return off, j2, ""
    em.ctx.applied("plsql.collections")
    names = [n for n, _ in pieces if n is not None]
    if ptype.coll is None:  # object type constructor: a user-defined one these arguments bind to, or the attributes
        positional = len(pieces) - len(names)
        if any(n is None for n, _ in pieces[positional:]):
            return _bad_constructor(em, ptype, "a positional argument after a named one", toks[j], j2)
        key = ptype.object_key
        ctors = (
            [r for r in values_.object_methods(em, key).get(key[1], []) if r.flavour == "CONSTRUCTOR"]
            if key is not None
            else []
        )
        structured = {k for k, (n, a) in enumerate(pieces) if n is None and _structured(em, a, scope)}
        user = constructor_binding(em, key, ctors, typed, structured) if key is not None else None
        if (
            key is not None
            and any(binds(r.params, positional, names) for r in ctors)
            and not (user == "types" and _attribute_count(em, key) == len(args) and not names)
        ):  # (Oracle takes the attribute-value constructor where no user-defined one takes the types)
            args = constructor_arguments(em, key, ctors, typed)
            texts = [t if n is None else f"{quote_ident(n)} => {t}" for (n, _), t in zip(pieces, args)]
            return f"{sql(derived(key, 'new'))}({', '.join(texts)})", j2, ""
        if names:  # the attribute-value constructor in named notation: the attributes' order
            entry = em.resolver.lookup(ptype.object_key) if ptype.object_key is not None else None
            info = entry.plsql_type if entry is not None else None
            attrs = list(info.attributes) if isinstance(info, ObjectType) else []
            by_name = dict(zip(names, args[positional:]))
            if not attrs or len(args) != len(attrs) or set(names) != set(attrs[positional:]):
                return _bad_constructor(
                    em, ptype, f"named arguments {', '.join(names)} match no constructor", toks[j], j2
                )
            args = args[:positional] + [by_name[a] for a in attrs[positional:]]
        if ptype.object_key is not None and hier.in_hierarchy(em.ctx.catalog, ptype.object_key):
            fields = hier.row_values(em.ctx.catalog, ptype.object_key, args)
            if fields is None:
                em.unconverted(
                    "object type constructor", f"{ptype.ora or ptype.pg}: wrong number of arguments", toks[j]
                )
                return unconverted_marker("object type constructor"), j2, ""
            args = fields  # the hierarchy's composite: other subtypes' attributes NULL, the type tag
        return f"ROW({', '.join(args)})::{ptype.pg}", j2, ""
    if not args:
        return f"'{{}}'::{castable(em, ptype.pg)}", j2, ""
    return f"ARRAY[{', '.join(args)}]::{castable(em, ptype.pg)}", j2, ""


def constructor_binding(
    em: Emitter, key: tuple[str, str], ctors: list, typed, structured: frozenset[int] | set[int] = frozenset()
) -> signatures.Binding | str | None:
    """The user-defined constructor Oracle binds these arguments to; "types" when one takes their
    number but none their types (a collection where a VARCHAR2 is declared); None when unknown."""
    if not ctors:
        return None
    sigs = decl_.local_signatures(em, ctors, derived(key, "new"), Scope())
    if structured:  # a collection or object variable never goes to a scalar parameter
        sigs = [sig for sig in sigs if not any(k < len(sig.params) and sig.params[k].ora for k in structured)]
        if not sigs:
            return "types"
    chosen = signatures.choose(sigs, [arg for _, arg in typed], "FUNCTION")
    if isinstance(chosen, str):
        return "types" if "types" in chosen else None
    return chosen


def _structured(em: Emitter, toks, scope) -> bool:
    """A variable (or field) holding a collection, a record or an object."""
    if not toks or toks[0].kind not in ("word", "qident"):
        return False
    parts, k = exprs_.chain(em, toks, 0)
    t = value_type(em, parts, scope) if k == len(toks) else None
    return t is not None and (t.coll is not None or t.composite or t.object_key is not None)


def _attribute_count(em: Emitter, key: tuple[str, str]) -> int:
    entry = em.resolver.lookup(key)
    info = entry.plsql_type if entry is not None else None
    return len(info.attributes) if isinstance(info, ObjectType) else -1


def constructor_arguments(em: Emitter, key: tuple[str, str], ctors: list, typed) -> list[str]:
    """The arguments of a user-defined constructor call, converted where PostgreSQL would not
    pass them to the parameter Oracle binds them to (its implicit conversions, rule
    plsql.call_conversion): ``t(p.code)`` with a VARCHAR2 field into a NUMBER parameter."""
    args = [text for text, _ in typed]
    if not em.ctx.enabled("plsql.call_conversion"):
        return args
    chosen = constructor_binding(em, key, ctors, typed)
    if not isinstance(chosen, signatures.Binding):
        return args
    return [call_.in_argument(em, text, arg, param, len(ctors) > 1) for (text, arg), param in zip(typed, chosen.params)]


def assoc_constructor(em: Emitter, ptype: PgType, inner, tok, j2, scope):
    """An INDEX BY table's qualified expression (Oracle 18c): ``t(k1 => v1, k2 => v2)``, each
    index an expression of the key type, in order → the map built element by element as
    ``oracompat.aa_set`` does for ``x(k) := v`` (a later equal index replaces an earlier one, as
    assignments would); ``t()`` is the empty table."""
    coll = ptype.coll
    assert coll is not None
    if (
        off := em.rule_off("plsql.collections", "associative array constructor", ptype.ora or ptype.pg, tok)
    ) is not None:
        return off, j2, ""
    value = "'{}'::jsonb"
    cast = castable(em, coll.elem_pg)
    for el in split_top_level(inner) if inner else []:
        arrow = next((k for k, t in enumerate(el) if t.is_op("=>")), None)
        if not arrow:  # positional elements (or an iterator choice) name no index
            em.unconverted("associative array constructor", "an element without an index => in an INDEX BY table", tok)
            return unconverted_marker("associative array constructor"), j2, ""
        key = key_text(em, coll, exprs_.expr(em, el[:arrow], scope))
        elem = exprs_.expr(em, el[arrow + 1 :], scope)
        elem = f"({elem})" if cast == "text" and "%" in coll.elem_pg else f"({elem})::{cast}"
        value = f"oracompat.aa_set({value}, {key}, {elem})"
    em.ctx.applied("plsql.collections")
    return value, j2, ""


def binds(params, positional: int, names: list[str]) -> bool:
    """Whether a call with `positional` leading arguments and then `names` binds to `params` as
    Oracle binds it: no parameter twice, every name a parameter, each parameter left out defaulted."""
    pnames = [p.name for p in params]
    if positional > len(pnames) or any(n not in pnames[positional:] for n in names) or len(set(names)) < len(names):
        return False
    given = set(pnames[:positional]) | set(names)
    return all(p.name in given or p.default is not None for p in params)


def _bad_constructor(em: Emitter, ptype: PgType, why: str, tok, j2):
    em.unconverted("constructor", f"{ptype.ora or ptype.pg}: {why}", tok)
    return unconverted_marker("constructor", ptype.ora or ptype.pg), j2, ""


# ---- TABLE(collection) in a query ------------------------------------------------------------------
def table_collection(em: Emitter, toks, i, scope, ph, types):
    """``TABLE(coll)`` / ``TABLE(f(...))`` in a FROM clause → a derived table (LATERAL, since the
    collection may come from an earlier FROM item) whose rows are the elements: a scalar
    element is the column COLUMN_VALUE, a record's or object's fields are columns. A
    PIPELINED function is read as the set it returns, any other collection through unnest."""
    inner, j = values_.paren_at(em, toks, i + 1)
    found = collection_of(em, inner, scope)
    if found is None:
        return None
    coll, setof = found
    if (off := em.rule_off("plsql.collections", "TABLE()", "TABLE(...)", toks[i])) is not None:
        return exprs_.placeholder(em, off, ph, types), j
    em.ctx.applied("plsql.collections")
    value = exprs_.expr(em, inner, scope)
    source = value if setof else f"unnest({value})"
    em.temp_counter += 1
    if coll.elem_composite:
        text = f"LATERAL (SELECT * FROM {source})"
    else:
        text = f"LATERAL (SELECT u.column_value FROM {source} AS u(column_value))"
    nxt = toks[j] if j < len(toks) else None
    if nxt is None or not (nxt.kind in ("word", "qident") and not nxt.is_word(*_NOT_ALIAS)):
        text += f" AS table__{em.temp_counter}"  # PostgreSQL before 16 needs an alias
    return exprs_.placeholder(em, text, ph, types), j


def collection_of(em: Emitter, inner, scope) -> tuple[Coll, bool] | None:
    """(the collection's element description, whether it is a PIPELINED function's set) for the
    argument of TABLE(), when it is a collection variable or a call of a routine returning one."""
    if not inner or inner[0].kind not in ("word", "qident"):
        return None
    if inner[0].is_word("CAST") and len(inner) > 3 and inner[1].is_op("(") and inner[-1].is_op(")"):
        # TABLE(CAST(x AS coll_type)): the rows of x read as that collection type (a MULTISET is not
        # a collection value here)
        body = inner[2:-1]
        as_at = [i for i, t in enumerate(body) if t.is_word("AS") and _depth(body, i) == 0]
        if len(as_at) != 1 or (body and body[0].is_word("MULTISET")):
            return None
        cast = decl_.resolve_type(em, A.TypeRef(body[as_at[0] + 1 :]), scope)
        return (cast.coll, False) if cast.coll is not None and cast.coll.kind == "array" else None
    parts, k = exprs_.chain(em, inner, 0)
    if k == len(inner):  # a variable, or a function called without parentheses
        t = value_type(em, parts, scope)
        if t is not None:
            return (t.coll, False) if t.coll is not None and t.coll.kind == "array" else None
    elif not inner[k].is_op("("):
        return None
    _, kind, sigs = call_.resolve_routine(em, parts, scope)
    if kind != "FUNCTION" or not sigs or sigs[0].returns is None:
        return None
    r = sigs[0]
    t = routine_type(em, parts, r.returns, scope)
    return (t.coll, bool(r.pipelined)) if t.coll is not None and t.coll.kind == "array" else None


def _depth(toks, i: int) -> int:
    """Parenthesis depth at toks[i]."""
    return sum(1 if t.is_op("(") else -1 if t.is_op(")") else 0 for t in toks[:i])


def routine_type(em: Emitter, parts, tref, scope) -> PgType:
    """A type named in a called routine's signature, resolved where the routine is declared
    (a package's own types are unqualified there)."""
    ref = package_.package_member(em, parts)
    if ref is None:
        return decl_.resolve_type(em, tref, scope if len(parts) == 1 else Scope())
    hit = em.resolver.split_pkg(parts)  # the package as named: owner.pkg names another schema's
    pkg = hit[0] if hit is not None else (ref[0],)
    saved, em.pkg = em.pkg, ref[0]
    try:
        return decl_.resolve_type(em, tref, Scope(package_.pkg_scope(em, pkg)))
    finally:
        em.pkg = saved


# ---- EXTEND, DELETE, TRIM as statements ----------------------------------------------------------
def coll_statement(em: Emitter, parts, st, scope, out: Out) -> bool:
    """EXTEND, DELETE or TRIM called on a collection (False: not one, nothing written)."""
    if len(parts) < 2 or parts[-1].upper() not in ("EXTEND", "DELETE", "TRIM"):
        return False
    base_toks = name_toks(em, parts[:-1])
    typ = value_type(em, parts[:-1], scope)
    if typ is None or typ.coll is None:
        return False
    if off := em.rule_off("plsql.collections", f"collection {parts[-1].upper()}", ".".join(parts), st.line):
        out.line(f"{off};")
        return True
    em.ctx.applied("plsql.collections")
    lv = targets_.lvalue(em, base_toks, scope)
    size = ""
    state = package_state(em, parts[:-1], scope)
    if state is not None and state.size_state is not None:
        # a sparse package nested table: its map and its internal size through their getters and
        # setters, worked on in temporaries
        v, size = targets_.temp(em, "jsonb"), targets_.temp(em, "integer")
        lv = targets_.LValue(
            v,
            [f"{v} := {state.getter}();", f"{size} := {state.size_state[0]}();"],
            [f"PERFORM {state.setter}({v});", f"PERFORM {state.size_state[1]}({size});"],
        )
    elif state is not None and state.type is not None:
        # a package variable: EXTEND, TRIM and DELETE work on its current value (the assignment
        # target alone would start from NULL), written back with the setter
        v = targets_.temp(em, state.type.pg)
        lv = targets_.LValue(v, [f"{v} := {state.getter}();"], [f"PERFORM {state.setter}({v});"])
    elif lv.target.startswith("aa:"):  # a sparse nested table, addressed as its jsonb variable
        lv = targets_.LValue(sql(tuple(parts[:-1])))
    v, method = lv.target, parts[-1].upper()
    if not size:
        size = quote_ident(f"{parts[-2]}__size") if len(parts) == 2 else f"{v}__size"
    args = stmt_.call_args(em, st.args, scope)
    if typ.array_pg and (method in ("EXTEND", "TRIM") or not args):
        n = args[0] if args else "1"
        sign = {"EXTEND": "+", "TRIM": "-"}.get(method)
        body = (
            [f"{v} := oracompat.aa_{method.lower()}_at({v}, {size}, {n});", f"{size} := {size} {sign} {n};"]
            if sign
            else [f"{v} := '{{}}'::jsonb;", f"{size} := 0;"]
        )
    elif typ.coll.kind == "assoc":
        if method == "DELETE" and not args:
            body = [f"{v} := '{{}}'::jsonb;"]
        elif method == "DELETE" and len(args) == 1:
            body = [f"{v} := {v} - {key_text(em, typ.coll, args[0])};"]
        else:
            em.unconverted(f"collection {method}", f"{method} with these arguments on an INDEX BY table", st.line)
            body = [f"{unconverted_marker('collection ' + method)};"]
    elif method == "EXTEND":
        n = args[0] if args else "1"
        body = (
            [f"FOR extend__i IN 1..{n} LOOP {v} := array_append({v}, NULL); END LOOP;"]
            if args
            else [f"{v} := array_append({v}, NULL);"]
        )
    elif method == "TRIM":
        n = args[0] if args else "1"
        body = [f"{v} := {v}[1:coalesce(cardinality({v}), 0) - ({n})];"]
    elif not args:
        body = [f"{v} := '{{}}';"]
    else:
        em.unconverted("nested table DELETE(i)", "would make a dense PostgreSQL array sparse", st.line)
        body = [f"{unconverted_marker('nested table DELETE(i)')};"]
    out.each(lv.setup + body + lv.finish)
    return True


def package_state(em: Emitter, parts, scope) -> Sym | None:
    """The package variable `parts` names (in its package or qualified), else None."""
    sym = scope.get(parts[0]) if len(parts) == 1 else None
    if sym is None and len(parts) > 1:
        ref = package_.package_ref(em, list(parts))
        sym = ref[1] if ref is not None and not ref[2] else None
    return sym if sym is not None and sym.kind == "pkgvar" else None


def name_toks(em: Emitter, parts) -> list[Token]:
    return oracle_tokens(parts)


def value_type(em: Emitter, parts, scope) -> PgType | None:
    return em.resolver.value_type(parts, scope)
