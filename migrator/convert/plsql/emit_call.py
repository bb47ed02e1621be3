"""Procedure-call statements: calls of standalone, package and lifted routines (CALL or PERFORM,
OUT arguments written back), each bound to the callee's converted signature as Oracle binds it and
its arguments converted where PostgreSQL would not pass them (rule plsql.call_conversion; calls in
expressions are `sql/implicit.py`), object methods, DBMS_OUTPUT (rule plsql.dbms_output); other
Oracle-supplied packages are `emit_supplied`. RAISE_APPLICATION_ERROR is `emit_exceptions`; collection
EXTEND/DELETE/TRIM are `emit_collections`."""

from __future__ import annotations

from harness.quoting import quote_ident
from migrator.convert import signatures
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.naming import derived, label, sql
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.resolver import target_type
from migrator.convert.plsql.state import EmitterState
from migrator.convert.plsql.symbols import PgType
from migrator.convert.signatures import Arg, Binding, ParamSig, RoutineSig
from migrator.convert.sql.implicit import convert_text
from migrator.source.lexer import split_top_level

IND = "    "


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
        pieces = [
            (norm_name(a[0]), a[2:]) if len(a) > 2 and a[1].is_op("=>") else (None, a)
            for a in (split_top_level(st.args) if st.args else [])
        ]
        found = self.call_signatures(parts, scope) or []
        typed = [self.expr_typed(value, scope, name, typed=bool(found)) for name, value in pieces]
        binding = self.bind_call(parts, found, [arg for _, arg in typed], st.line)
        if isinstance(binding, str):
            return [f"{ind}{binding};"]
        pre: list[str] = []
        post: list[str] = []
        args = []
        for k, ((name, value), (text, arg)) in enumerate(zip(pieces, typed)):
            param = binding.params[k] if binding is not None else None
            if param is not None and param.mode != "IN" and kind == "PROCEDURE":
                text = self.out_argument(value, param, scope, pre, post) or text
            elif param is not None:
                text = self.in_argument(text, arg, param, len(found) > 1)
            args.append(f"{quote_ident(name)} => {text}" if name is not None else text)
        if kind == "FUNCTION":
            return [f"{ind}PERFORM {target}({', '.join(args)});"]
        if self.ctx.enabled("plsql.procedure"):  # the definitions are what the rule converts
            self.ctx.applied("plsql.procedure")
        return [f"{ind}{s}" for s in pre + [f"CALL {target}({', '.join(args)});"] + post]

    # ---- binding a call to the callee's converted signature (rule plsql.call_conversion) -------
    def call_signatures(self, parts: list[str], scope) -> list[RoutineSig] | None:
        """The converted signatures of the routine `parts` names: a lifted nested subprogram, a
        member of the package being converted, or a routine of the catalog."""
        sym = scope.get(parts[0]) if len(parts) == 1 else None
        if sym is not None and sym.kind == "routine" and sym.routine is not None:
            return self.local_signatures(sym.sigs, sym.routine, scope)
        if self.pkg and len(parts) == 1 and parts[0] in self.pkg_members((self.pkg,)):
            return signatures.lookup(self.catalog, (self.pkg, parts[0]), self.schema)
        return signatures.lookup(self.catalog, tuple(parts), self.schema)

    def bind_call(self, parts: list[str], found: list[RoutineSig], args: list[Arg], line: int) -> Binding | str | None:
        """The signature of `found` Oracle binds the call to (None: an unknown callee, or overloads
        PostgreSQL is left to tell apart); a call Oracle would refuse is reported and its marker
        returned."""
        if not found or not self.ctx.enabled("plsql.call_conversion"):
            return None
        chosen = signatures.choose(found, args, "PROCEDURE")
        if isinstance(chosen, str):
            self.unconverted("call of a converted routine", f"{label(tuple(parts))}: {chosen}", line)
            return unconverted_marker("call of a converted routine", f"{label(tuple(parts))}: {chosen}")
        if chosen is None:
            self.ctx.note(f"call of {label(tuple(parts))}: overload left to PostgreSQL (argument types unknown)")
        return chosen

    def in_argument(self, text: str, arg: Arg, param: ParamSig, overloaded: bool) -> str:
        """An IN argument converted where PostgreSQL would not pass it to `param` as Oracle does."""
        how = signatures.conversion(arg, param)
        if how is None and signatures.pins_overload(arg, param, overloaded):
            how = "cast"  # PostgreSQL must pick the overload Oracle picked
        if how is None:
            return text
        self.ctx.applied("plsql.call_conversion")
        return convert_text(text, how, param, self.ctx, arg.kind)

    def out_argument(self, value, param: ParamSig, scope, pre: list[str], post: list[str]) -> str | None:
        """An OUT/IN OUT argument: PL/pgSQL's CALL writes results only into variables, and since
        PostgreSQL 14 their types choose the procedure too. A target that is no plain variable (a
        collection element, a package variable), or whose type PostgreSQL would not pass to the
        parameter, goes through a temporary of the parameter's type, written back after the CALL.
        Returns the argument's text, or None to keep the converted expression."""
        lv = self.lvalue(value, scope, into=True)
        if lv.target.startswith("aa:"):
            return None  # a whole sparse nested table: left as is
        have = (lv.type or target_type(value, scope) or PgType("")).pg or None
        convert = (
            self.ctx.enabled("plsql.call_conversion")
            and not signatures.resolves(have, param.pg)
            and "%" not in param.pg
        )
        if not convert and not (lv.setup or lv.finish):
            return None  # a plain variable PostgreSQL passes as it is
        pre += lv.setup
        if convert:
            tmp = self.temp(param.pg)
            if param.mode == "INOUT":
                pre.append(f"{tmp} := {lv.target if lv.setup else self.expr(value, scope)};")
            post.append(f"{lv.target} := {tmp};")
            self.ctx.applied("plsql.call_conversion")
        else:
            tmp = lv.target
            if param.mode == "INOUT" and not lv.setup:
                pre.append(f"{tmp} := {self.expr(value, scope)};")
        post += lv.finish
        return tmp

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
        if entry is not None and entry.routines:
            sigs = entry.routines
            return sql((entry.schema, entry.name)), sigs[0].kind, sigs
        return sql(tuple(parts)), None, []

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
