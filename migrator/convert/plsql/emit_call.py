"""Procedure-call statements: calls of standalone, package and lifted routines (CALL or PERFORM,
OUT arguments written back, defaults moved to call sites), object methods, DBMS_OUTPUT (rule
plsql.dbms_output); other Oracle-supplied packages are `emit_supplied`. RAISE_APPLICATION_ERROR is `emit_exceptions`; collection
EXTEND/DELETE/TRIM are `emit_collections`."""

from __future__ import annotations

import re

from harness.quoting import quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.emit_routine import dropped_defaults
from migrator.convert.plsql.naming import derived, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.state import EmitterState
from migrator.source.lexer import split_top_level

IND = "    "
# A converted named argument: `name => value`, the name as `quote_ident` writes it.
_NAMED_ARG = re.compile(r'("(?:[^"]|"")*"|[a-z_][a-z0-9_$]*) => ')


class CallMixin(EmitterState):
    def st_call(self, st: A.Call, scope, ind):
        parts = [norm_name(t) for t in st.name if not t.is_op(".")]
        up = tuple(p.upper() for p in parts)  # built-ins compared part by part ('.' may be in a name)
        if len(up) == 2 and up[0] == "DBMS_OUTPUT":
            return self.dbms_output(up[1], st, scope, ind)
        if up == ("RAISE_APPLICATION_ERROR",):
            return self.raise_app_error(st, scope, ind)
        if (supplied := self.supplied_call(parts, st, scope, ind)) is not None:  # DBMS_LOB ... (emit_supplied)
            return supplied
        if (nested := self.nested_call(parts, st, scope, ind)) is not None:  # enclosing variables (emit_nested)
            return nested
        sym = scope.get(parts[0])
        if (
            len(parts) == 2
            and sym is not None
            and sym.type is not None
            and sym.type.object_key
            and parts[1] in self.object_methods(sym.type.object_key)
        ):
            args = [quote_ident(parts[0])] + self.call_args(st.args, scope)
            return [f"{ind}CALL {sql(derived(sym.type.object_key, parts[1]))}({', '.join(args)});"]
        coll = self.coll_statement(parts, st, scope, ind)
        if coll is not None:
            return coll
        return self.procedure_call(parts, st, scope, ind)

    def procedure_call(self, parts, st, scope, ind):
        target, kind, sigs = self.resolve_routine(parts, scope)
        args = self.call_args(st.args, scope)
        pre, post = self.out_binds(sigs, args, st.args, scope) if kind == "PROCEDURE" else ([], [])
        args = ", ".join(args + self.moved_defaults(sigs, args, scope))
        if kind == "FUNCTION":
            return [f"{ind}PERFORM {target}({args});"]
        if self.ctx.enabled("plsql.procedure"):  # the definitions are what the rule converts
            self.ctx.applied("plsql.procedure")
        return [f"{ind}{s}" for s in pre + [f"CALL {target}({args});"] + post]

    def out_binds(self, sigs: list, args: list[str], toks, scope) -> tuple[list[str], list[str]]:
        """PL/pgSQL's CALL writes OUT/INOUT results only into variables: an argument such as a
        collection element or a package variable goes through its assignment target (a temporary
        with write-back), replacing args[k] in place; returns the statements before/after the CALL."""
        fits = [r for r in sigs if len(r.params) >= len(args)]
        if len(fits) != 1 or not toks:
            return [], []
        params = {p.name: p for p in fits[0].params}
        pre, post = [], []
        for k, arg in enumerate(split_top_level(toks)):
            named = len(arg) > 2 and arg[1].is_op("=>")
            p = params.get(norm_name(arg[0])) if named else (fits[0].params[k] if k < len(fits[0].params) else None)
            value = arg[2:] if named else arg
            if p is None or p.mode == "IN":
                continue
            lv = self.lvalue(value, scope, into=True)
            if lv.target.startswith("aa:") or not (lv.setup or lv.finish):
                continue  # a plain variable (or a whole sparse table, left as is) is writable
            if p.mode == "INOUT" and not lv.setup:
                pre.append(f"{lv.target} := {self.expr(value, scope)};")
            pre += lv.setup
            post += lv.finish
            args[k] = f"{quote_ident(p.name)} => {lv.target}" if named else lv.target
        return pre, post

    def resolve_routine(self, parts, scope) -> tuple[str, str | None, list]:
        """Qualified PostgreSQL name (SQL text) of a called routine, procedure/function, and its
        signatures."""
        sym = scope.get(parts[0]) if len(parts) == 1 else None
        if sym is not None and sym.kind == "routine":
            return sql(sym.routine), sym.sigs[0].kind, sym.sigs
        if self.pkg and len(parts) == 1:
            sigs = self.pkg_members((self.pkg,)).get(parts[0])
            if sigs:
                return sql((self.pkg, parts[0])), sigs[0].kind, sigs
        ref = self.package_member(parts)
        if ref is not None:
            pkg, member, sigs = ref
            return sql((pkg, member)), sigs[0].kind if sigs else None, sigs or []
        entry = self.lookup(parts)
        if entry is not None and entry.info.get("plsql_sigs"):
            sigs = entry.info["plsql_sigs"]
            return sql((entry.schema, entry.name)), sigs[0].kind, sigs
        return sql(tuple(parts)), None, []

    def moved_defaults(self, sigs: list, args: list[str], scope) -> list[str]:
        """Named arguments for defaults that moved from the callee's signature to its call sites."""
        named = {m.group(1) for a in args if (m := _NAMED_ARG.match(a))}  # as quote_ident wrote them
        positional = len(args) - len(named)
        fits = [
            r
            for r in sigs
            if len(r.params) >= len(args) and all(n in {quote_ident(p.name) for p in r.params} for n in named)
        ]
        if len(fits) != 1:
            return []
        r = fits[0]
        extra = []
        for k in sorted(dropped_defaults(r)):
            p = r.params[k]
            if k >= positional and quote_ident(p.name) not in named:
                extra.append(f"{quote_ident(p.name)} => {self.expr(p.default, scope)}")
        return extra

    # ---- DBMS_OUTPUT / RAISE_APPLICATION_ERROR --------------------------------------------------
    def dbms_output(self, member: str, st, scope, ind):
        if not self.ctx.enabled("plsql.dbms_output"):
            self.unconverted("DBMS_OUTPUT", "rule plsql.dbms_output disabled", st.line)
            return [f"{ind}{unconverted_marker('DBMS_OUTPUT', member)};"]
        self.ctx.applied("plsql.dbms_output")
        args = self.call_args(st.args, scope)
        if member == "PUT_LINE":
            # an autonomous body runs in a dblink session whose NOTICEs are lost: put_line goes
            # through the session's notice sink, which brings the line back to the caller
            autonomous = self.frame.autonomous and self.ctx.enabled("plsql.autonomous_output")
            if self.uses_put or autonomous:
                return [f"{ind}PERFORM oracompat.put_line({args[0]});"]
            value = args[0]
            if not (st.args and len(st.args) == 1 and st.args[0].kind == "string" and st.args[0].text != "''"):
                value = f"coalesce(({value})::text, '')"  # Oracle prints NULL as an empty line
            return [f"{ind}RAISE NOTICE '%', {value};"]
        if member == "PUT":
            return [f"{ind}PERFORM oracompat.put({args[0]});"]
        if member == "NEW_LINE":
            return [f"{ind}PERFORM oracompat.new_line();"]
        if member in ("ENABLE", "DISABLE"):
            self.ctx.note(f"DBMS_OUTPUT.{member}: output is always on as NOTICE messages")
            return [f"{ind}NULL;  -- DBMS_OUTPUT.{member}: NOTICE output needs no buffer"]
        self.unconverted(f"DBMS_OUTPUT.{member}", "reading the output buffer is not supported", st.line)
        return [f"{ind}{unconverted_marker('DBMS_OUTPUT.' + member)};"]

    # ---- collection methods used as statements ---------------------------------------------------
