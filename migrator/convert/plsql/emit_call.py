"""Procedure-call statements: calls of standalone, package and lifted routines (CALL or PERFORM,
OUT arguments written back), each bound to the callee's converted signature as Oracle binds it and
its arguments converted where PostgreSQL would not pass them (rule plsql.call_conversion; calls in
expressions are `sql/implicit.py`), object methods, DBMS_OUTPUT (rule plsql.dbms_output); other
Oracle-supplied packages are `emit_supplied`. RAISE_APPLICATION_ERROR is `emit_exceptions`; collection
EXTEND/DELETE/TRIM are `emit_collections`."""

from __future__ import annotations

import dataclasses

from harness.quoting import quote_ident
from migrator.convert import signatures
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_collections as coll_
from migrator.convert.plsql import emit_decl as decl_
from migrator.convert.plsql import emit_exceptions as exc_
from migrator.convert.plsql import emit_method_out as method_out_
from migrator.convert.plsql import emit_nested as nested_
from migrator.convert.plsql import emit_package as package_
from migrator.convert.plsql import emit_stmt as stmt_
from migrator.convert.plsql import emit_supplied as supplied_
from migrator.convert.plsql import emit_utplsql as utplsql_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import targets as targets_
from migrator.convert.plsql import values as values_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import label, sql
from migrator.convert.plsql.output import Out
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.resolver import target_type
from migrator.convert.plsql.statements import emits
from migrator.convert.plsql.symbols import PgType, Scope
from migrator.convert.signatures import Arg, Binding, ParamSig, RoutineSig
from migrator.convert.sql.implicit import convert_text
from migrator.source.lexer import split_top_level


@emits(A.Call)
def st_call(em: Emitter, st: A.Call, scope: Scope, out: Out) -> None:
    parts = [norm_name(t) for t in st.name if not t.is_op(".")]
    up = tuple(p.upper() for p in parts)  # built-ins compared part by part ('.' may be in a name)
    if len(up) == 2 and up[0] == "DBMS_OUTPUT":
        dbms_output(em, up[1], st, scope, out)
        return
    if up == ("RAISE_APPLICATION_ERROR",):
        exc_.raise_app_error(em, st, scope, out)
        return
    if utplsql_.utplsql_call(em, st, scope, out):  # ut.expect(x).to_equal(y) (emit_utplsql)
        return
    if supplied_.supplied_call(em, parts, st, scope, out):  # DBMS_LOB ... (emit_supplied)
        return
    key = method_out_.own_type(scope, parts)  # a bare call of a MEMBER procedure of SELF's type
    if key is not None and any(s.kind == "PROCEDURE" for s in method_out_.member_signatures(em, key, parts[0])):
        given = stmt_.call_args(em, st.args, scope)
        target = method_out_.procedure_name(em, key, parts[0], len(given))
        out.line(f"CALL {target}({', '.join(['self'] + given)});")
        return
    sym = scope.get(parts[0])
    if (
        len(parts) == 2
        and sym is not None
        and sym.type is not None
        and sym.type.object_key
        and parts[1] in values_.object_methods(em, sym.type.object_key)
    ):
        self_arg, after = out.ident(parts[0]), []
        if sym.kind == "pkgvar" and sym.getter and sym.setter:
            # a package variable lives behind its getter and setter: the method (SELF IN OUT)
            # works on a local copy, written back after the call
            self_arg = targets_.temp(em, sym.type.pg)
            out.line(f"{self_arg} := {sym.getter}();")
            after = [f"PERFORM {sym.setter}({self_arg});"]
        given = stmt_.call_args(em, st.args, scope)
        target = method_out_.procedure_name(em, sym.type.object_key, parts[1], len(given))
        out.line(f"CALL {target}({', '.join([self_arg] + given)});")
        out.each(after)
        return
    if coll_.coll_statement(em, parts, st, scope, out):
        return
    procedure_call(em, parts, st, scope, out)


def procedure_call(em: Emitter, parts, st, scope, out: Out) -> None:
    target, kind, sigs = resolve_routine(em, parts, scope)
    pieces = [
        (norm_name(a[0]), a[2:]) if len(a) > 2 and a[1].is_op("=>") else (None, a)
        for a in (split_top_level(st.args) if st.args else [])
    ]
    found = call_signatures(em, parts, scope) or []
    local = scope.get(parts[0]) if len(parts) == 1 else None
    if local is not None and local.kind == "routine" and local.extras and local.routine is not None:
        # the enclosing variables (a member's SELF) are passed first by nested_call_args, not by
        # the caller: the call binds to the remaining parameters
        found = [dataclasses.replace(s, params=tuple(p for p in s.params if p.name not in local.extras)) for s in found]
    typed = [exprs_.expr_typed(em, value, scope, name, typed=bool(found)) for name, value in pieces]
    binding = bind_call(em, parts, found, [arg for _, arg in typed], st.line)
    if isinstance(binding, str):
        out.line(f"{binding};")
        return
    if binding is not None and binding.sig.kind == "PROCEDURE":  # a function of the name too
        kind = "PROCEDURE"
        own = signatures.procedure_name(found, binding.sig)
        old = quote_ident(binding.sig.target[1])
        if own != binding.sig.target[1] and target.endswith(old):
            target = target[: len(target) - len(old)] + quote_ident(own)
    pre: list[str] = []
    post: list[str] = []
    args = []
    for k, ((name, value), (text, arg)) in enumerate(zip(pieces, typed)):
        param = binding.params[k] if binding is not None else None
        if param is not None and param.mode != "IN" and kind == "PROCEDURE":
            text = out_argument(em, value, param, scope, pre, post) or text
        elif param is not None:
            text = in_argument(em, text, arg, param, len(found) > 1)
        args.append(f"{quote_ident(name)} => {text}" if name is not None else text)
    if local is not None and local.kind == "routine" and local.extras and local.routine is not None:
        # a lifted nested subprogram takes the enclosing variables it uses first (emit_nested);
        # its own arguments are bound to its signature as any call's are
        args = nested_.nested_call_args(em, local, args)
    if kind == "FUNCTION":
        out.line(f"PERFORM {target}({', '.join(args)});")
        return
    if em.ctx.enabled("plsql.procedure"):  # the definitions are what the rule converts
        em.ctx.applied("plsql.procedure")
    out.each(pre + [f"CALL {target}({', '.join(args)});"] + post)


# ---- binding a call to the callee's converted signature (rule plsql.call_conversion) -------
def call_signatures(em: Emitter, parts: list[str], scope) -> list[RoutineSig] | None:
    """The converted signatures of the routine `parts` names: a lifted nested subprogram, a
    member of the package being converted, or a routine of the catalog."""
    sym = scope.get(parts[0]) if len(parts) == 1 else None
    if sym is not None and sym.kind == "routine" and sym.routine is not None:
        return decl_.local_signatures(em, sym.sigs, sym.routine, scope)
    if em.pkg and len(parts) == 1 and parts[0] in package_.pkg_members(em, (em.pkg,)):
        return signatures.lookup(em.catalog, (em.pkg, parts[0]), em.schema)
    return signatures.lookup(em.catalog, tuple(parts), em.schema)


def bind_call(
    em: Emitter, parts: list[str], found: list[RoutineSig], args: list[Arg], line: int
) -> Binding | str | None:
    """The signature of `found` Oracle binds the call to (None: an unknown callee, or overloads
    PostgreSQL is left to tell apart); a call Oracle would refuse is reported and its marker
    returned."""
    if not found or not em.ctx.enabled("plsql.call_conversion"):
        return None
    chosen = signatures.choose(found, args, "PROCEDURE")
    if isinstance(chosen, str):
        em.unconverted("call of a converted routine", f"{label(tuple(parts))}: {chosen}", line)
        return unconverted_marker("call of a converted routine", f"{label(tuple(parts))}: {chosen}")
    if chosen is None:
        em.ctx.note(f"call of {label(tuple(parts))}: overload left to PostgreSQL (argument types unknown)")
    return chosen


def in_argument(em: Emitter, text: str, arg: Arg, param: ParamSig, overloaded: bool) -> str:
    """An IN argument converted where PostgreSQL would not pass it to `param` as Oracle does."""
    how = signatures.conversion(arg, param)
    if how is None and signatures.pins_overload(arg, param, overloaded):
        how = "cast"  # PostgreSQL must pick the overload Oracle picked
    if how is None:
        return text
    em.ctx.applied("plsql.call_conversion")
    return convert_text(text, how, param, em.ctx, arg.kind)


def out_argument(em: Emitter, value, param: ParamSig, scope, pre: list[str], post: list[str]) -> str | None:
    """An OUT/IN OUT argument: PL/pgSQL's CALL writes results only into variables, and since
    PostgreSQL 14 their types choose the procedure too. A target that is no plain variable (a
    collection element, a package variable), or whose type PostgreSQL would not pass to the
    parameter, goes through a temporary of the parameter's type, written back after the CALL.
    Returns the argument's text, or None to keep the converted expression."""
    lv = targets_.lvalue(em, value, scope, into=True)
    if lv.target.startswith("aa:"):
        return None  # a whole sparse nested table: left as is
    have = (lv.type or target_type(value, scope) or PgType("")).pg or None
    convert = (
        em.ctx.enabled("plsql.call_conversion") and not signatures.resolves(have, param.pg) and "%" not in param.pg
    )
    if not convert and not (lv.setup or lv.finish):
        return None  # a plain variable PostgreSQL passes as it is
    pre += lv.setup
    if convert:
        tmp = targets_.temp(em, param.pg)
        if param.mode == "INOUT":
            pre.append(f"{tmp} := {lv.target if lv.setup else exprs_.expr(em, value, scope)};")
        post.append(f"{lv.target} := {tmp};")
        em.ctx.applied("plsql.call_conversion")
    else:
        tmp = lv.target
        if param.mode == "INOUT" and not lv.setup:
            pre.append(f"{tmp} := {exprs_.expr(em, value, scope)};")
    post += lv.finish
    return tmp


def resolve_routine(em: Emitter, parts, scope) -> tuple[str, str | None, list]:
    """Qualified PostgreSQL name (SQL text) of a called routine, procedure/function, and its
    signatures."""
    sym = scope.get(parts[0]) if len(parts) == 1 else None
    if sym is not None and sym.kind == "routine":
        return sql(sym.routine), sym.sigs[0].kind, sym.sigs
    if em.pkg and len(parts) == 1:
        sigs = package_.pkg_members(em, (em.pkg,)).get(parts[0])
        if sigs:
            return sql((em.pkg, parts[0])), sigs[0].kind, sigs
    ref = package_.package_member(em, parts)
    if ref is not None:
        pkg, member, sigs = ref
        return sql((pkg, member)), sigs[0].kind if sigs else None, sigs or []
    entry = package_.lookup(em, parts)
    if entry is not None and entry.routines:
        sigs = entry.routines
        return sql((entry.schema, entry.name)), sigs[0].kind, sigs
    return sql(tuple(parts)), None, []


# ---- DBMS_OUTPUT / RAISE_APPLICATION_ERROR --------------------------------------------------
def dbms_output(em: Emitter, member: str, st, scope, out: Out) -> None:
    if not em.ctx.enabled("plsql.dbms_output"):
        em.unconverted("DBMS_OUTPUT", "rule plsql.dbms_output disabled", st.line)
        out.line(f"{unconverted_marker('DBMS_OUTPUT', member)};")
        return
    em.ctx.applied("plsql.dbms_output")
    args = stmt_.call_args(em, st.args, scope)
    if member == "PUT_LINE":
        # an autonomous body runs in a dblink session whose NOTICEs are lost: put_line goes
        # through the session's notice sink, which brings the line back to the caller
        autonomous = em.frame.autonomous and em.ctx.enabled("plsql.autonomous_output")
        if em.uses_put or autonomous:
            out.line(f"PERFORM oracompat.put_line({args[0]});")
            return
        value = args[0]
        if not (st.args and len(st.args) == 1 and st.args[0].kind == "string" and st.args[0].text != "''"):
            value = f"coalesce(({value})::text, '')"  # Oracle prints NULL as an empty line
        out.line(f"RAISE NOTICE '%', {value};")
    elif member == "PUT":
        out.line(f"PERFORM oracompat.put({args[0]});")
    elif member == "NEW_LINE":
        out.line("PERFORM oracompat.new_line();")
    elif member in ("ENABLE", "DISABLE"):
        em.ctx.note(f"DBMS_OUTPUT.{member}: output is always on as NOTICE messages")
        out.line(f"NULL;  -- DBMS_OUTPUT.{member}: NOTICE output needs no buffer")
    else:
        em.unconverted(f"DBMS_OUTPUT.{member}", "reading the output buffer is not supported", st.line)
        out.line(f"{unconverted_marker('DBMS_OUTPUT.' + member)};")
