"""Assignment targets: what `x := ...`, `SELECT ... INTO x`, `FETCH ... INTO x` and OUT arguments
write into.

A plain variable is written as is. A package variable has no PL/pgSQL variable: the value goes
into a temporary and is written back with the package's setter. An INDEX BY element (a jsonb map)
is set with `oracompat.aa_set`; an element's field through a temporary of the element type. Each
target is an `LValue`: the text to assign to and the statements to run before and after.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.quoting import quote_ident
from migrator.convert.plsql import emit_collections as coll_
from migrator.convert.plsql import emit_package as package_
from migrator.convert.plsql import emit_trigger as trigger_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import values as values_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import target_text
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import PgType, Scope
from migrator.source.lexer import Token


@dataclass
class LValue:
    target: str  # PL/pgSQL assignment target
    setup: list[str] = field(default_factory=list)  # statements before the assignment
    finish: list[str] = field(default_factory=list)  # statements after it (write-backs)
    type: PgType | None = None


def temp(em: Emitter, pg_type: str) -> str:
    em.temp_counter += 1
    name = f"tmp__{em.temp_counter}"
    em.frame.extra_decls.append(f"{name} {pg_type};")
    return name


def lvalue(em: Emitter, toks: list[Token], scope: Scope, into: bool = False) -> LValue:
    if toks and toks[0].kind == "bind" and em.frame.trigger is not None:
        alias = trigger_.trigger_alias(em, toks[0].text[1:].upper())
        if alias:
            return LValue(alias + target_text(toks[1:]))
    parts, j = exprs_.chain(em, toks, 0)
    sym = scope.get(parts[0])
    rest = parts[1:]
    setup, finish = [], []
    ptype: PgType | None
    if sym is None:
        ref = package_.package_ref(em, parts)
        if ref is not None and ref[1].kind == "pkgvar":
            sym, rest = ref[1], ref[2]
    if sym is not None and sym.kind == "pkgvar" and sym.type is not None:  # a package variable has a type
        if not rest and j >= len(toks) and sym.size_state is not None:  # a sparse nested table
            tmp = temp(em, sym.type.pg)
            return LValue(
                f"aa:{tmp} := oracompat.arr_to_aa({{value}})",
                finish=[
                    f"PERFORM {sym.setter}({tmp});",
                    f"PERFORM {sym.size_state[1]}(coalesce(oracompat.aa_last_n({tmp}), 0)::integer);",
                ],
            )
        if not rest and j >= len(toks):
            tmp = temp(em, sym.type.pg)
            return LValue(tmp, [], [f"PERFORM {sym.setter}({tmp});"], sym.type)
        tmp = temp(em, sym.type.pg)
        setup.append(f"{tmp} := {sym.getter}();")
        finish.append(f"PERFORM {sym.setter}({tmp});")
        base, ptype = tmp, sym.type
    elif sym is not None and sym.kind == "selfattr":
        base, ptype = f"self.{quote_ident(parts[0])}", sym.type
    elif sym is not None and sym.type is not None and sym.type.array_pg and not rest and j >= len(toks):
        var, size = quote_ident(parts[0]), quote_ident(f"{parts[0]}__size")
        return LValue(
            f"aa:{var} := oracompat.arr_to_aa({{value}})",
            finish=[f"{size} := coalesce(oracompat.aa_last_n({var}), 0);"],
        )
    elif sym is not None:
        base, ptype = quote_ident(parts[0]), sym.type
    else:
        return LValue(plain_target(em, toks))
    return lvalue_access(em, base, ptype, rest, toks, j, scope, setup, finish, into)


def plain_target(em: Emitter, toks) -> str:
    return target_text(toks)


def lvalue_access(em: Emitter, base, ptype, rest, toks, j, scope, setup, finish, into):
    target = base
    for part in rest:
        target = f"{target}.{quote_ident(part)}"
        boxed = ptype is not None and ptype.object_key and em.resolver.boxed_attribute(ptype.object_key, part)
        ptype = None if boxed else values_.field_type(em, ptype, part, scope)
    while j < len(toks) and toks[j].is_op("(") and ptype is not None and ptype.coll is not None:
        inner, j = values_.paren_at(em, toks, j)
        idx = exprs_.expr(em, inner, scope)
        coll = ptype.coll
        fields = target_text(toks[j:])
        if coll.kind == "array":
            elem = coll.elem_type
            if elem is not None and elem.coll is not None and j < len(toks) and toks[j].is_op("("):
                # a(i)(k): PostgreSQL subscripts an array of arrays one level at a time, so the
                # element goes through a temporary, written back after (inner ones first)
                tmp = temp(em, elem.pg)
                setup = setup + [f"{tmp} := {target}[{idx}];"]
                finish = [f"{target}[{idx}] := {tmp};"] + finish
                target, ptype = tmp, elem
                continue
            names, k = _field_names(toks, j)
            if names and elem is not None and k < len(toks) and toks[k].is_op("("):
                # a(i).f(k): PostgreSQL assigns into a field's element in place (14 and later)
                target = f"{target}[{idx}]"
                ptype = elem
                for name in names:
                    target = f"{target}.{quote_ident(name)}"
                    ptype = values_.field_type(em, ptype, name, scope) if ptype is not None else None
                j = k
                continue
            return LValue(f"{target}[{idx}]{fields}", setup, finish)
        key = coll_.key_text(em, coll, idx)
        if fields or into:
            tmp = temp(em, coll.elem_pg)
            read, _ = coll_.element(em, target, coll, idx)
            pre = [f"{tmp} := {read};"] if fields else []
            return LValue(
                f"{tmp}{fields}",
                setup + pre,
                [f"{target} := oracompat.aa_set({target}, {key}, {tmp});"] + finish,
                None if fields else PgType(coll.elem_pg, coll.elem_ora),
            )
        cast = coll_.castable(em, coll.elem_pg)
        value = "({value})" if cast == "text" and "%" in coll.elem_pg else "({value})::" + cast
        return LValue(f"aa:{target} := oracompat.aa_set({target}, {key}, {value})", setup, finish)
    return LValue(target + target_text(toks[j:]), setup, finish, ptype if j >= len(toks) else None)


def _field_names(toks, j) -> tuple[list[str], int]:
    """`.a.b` at toks[j]: the names and the index after them."""
    names = []
    while j + 1 < len(toks) and toks[j].is_op(".") and toks[j + 1].kind in ("word", "qident"):
        names.append(norm_name(toks[j + 1]))
        j += 2
    return names, j


def into_targets(em: Emitter, targets: list[list[Token]], scope) -> tuple[list[str], list[str], list[str]]:
    names, setup, finish, _ = typed_into_targets(em, targets, scope)
    return names, setup, finish


def typed_into_targets(
    em: Emitter, targets: list[list[Token]], scope
) -> tuple[list[str], list[str], list[str], list[PgType | None]]:
    """`into_targets` with each target's type, where known."""
    names, setup, finish, types = [], [], [], []
    for t in targets:
        lv = lvalue(em, t, scope, into=True)
        names.append(lv.target)
        setup += lv.setup
        finish += lv.finish
        types.append(lv.type)
    return names, setup, finish, types
