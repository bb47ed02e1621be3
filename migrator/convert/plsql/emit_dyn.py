"""EXECUTE IMMEDIATE, FORALL, assignment targets and temporaries."""

from __future__ import annotations

from harness.quoting import quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.exprs import render
from migrator.convert.plsql.naming import target_text
from migrator.convert.plsql.symbols import PgType, Scope
from migrator.convert.plsql.values import LValue
from migrator.source.lexer import LexError, Token, string_value, tokenize

IND = "    "


class DynMixin:
    # ---- EXECUTE IMMEDIATE -----------------------------------------------------------------
    def st_execimmediate(self, st: A.ExecImmediate, scope, ind):
        sql = self.dynamic_sql(st.sql, scope)
        if any(mode != "IN" for mode, _ in st.using):
            self.unconverted("EXECUTE IMMEDIATE USING OUT", "OUT binds of dynamic SQL", st.line)
            return [f"{ind}{unconverted_marker('EXECUTE IMMEDIATE USING OUT', sql)};"]
        using = ", ".join(self.expr(a, scope) for _, a in st.using)
        into = st.into or st.returning
        text = f"EXECUTE {sql}"
        setup, finish = [], []
        if st.bulk:
            self.unconverted("EXECUTE IMMEDIATE BULK COLLECT", "dynamic BULK COLLECT", st.line)
            return [f"{ind}{unconverted_marker('EXECUTE IMMEDIATE BULK COLLECT', sql)};"]
        if into:
            names, setup, finish = self.into_targets(into, scope)
            # Oracle raises NO_DATA_FOUND / TOO_MANY_ROWS for a dynamic single-row query too
            text += f" INTO {'STRICT ' if st.into else ''}{', '.join(names)}"
        if using:
            text += f" USING {using}"
        return (
            [f"{ind}{s}" for s in setup] + [f"{ind}{text};"] + self.rowcount_lines(ind) + [f"{ind}{s}" for s in finish]
        )

    def dynamic_sql(self, toks, scope) -> str:
        """A literal statement is converted like static SQL, with :binds → $n in order of
        appearance (Oracle binds dynamic SQL by position); other strings are built at run time,
        so only their placeholders can be rewritten (by oracompat.bind_positional)."""
        if len(toks) == 1 and toks[0].kind == "string":
            value = string_value(toks[0])
            return self.literal_dynamic(value, toks[0])
        self.ctx.note("dynamic SQL text built at run time is executed as is: its Oracle-specific SQL is not converted")
        return f"oracompat.bind_positional({self.expr(toks, scope)})"

    def literal_dynamic(self, value: str, tok) -> str:
        try:
            inner = tokenize(value)
        except LexError:
            self.unconverted("dynamic SQL", "cannot tokenize the statement text", tok)
            return unconverted_marker("dynamic SQL", value)
        if inner and inner[-1].is_op(";"):
            inner = inner[:-1]
        if inner and inner[0].is_word("BEGIN", "DECLARE"):
            self.unconverted("dynamic PL/SQL block", "an anonymous block executed dynamically", tok)
            return unconverted_marker("dynamic PL/SQL block", value)
        ph: dict[str, str] = {}
        n = 0
        walked = []
        for t in inner:
            if t.kind == "bind":
                n += 1
                name = f"plx__b{n}"
                ph[name] = f"${n}"
                walked.append(Token("ph", name, 0, 0))
            else:
                walked.append(t)
        head = inner[0].upper if inner else ""
        if head in ("SELECT", "WITH", "INSERT", "UPDATE", "DELETE", "MERGE"):
            from migrator.convert.plsql import sqlconv

            out = sqlconv.convert("stmt", render(walked), self.ctx, {})
        else:
            out = render(walked)  # DDL and the like: sqlglot's Oracle DDL is partial
            self.ctx.note(f"dynamic statement kept as written: {value[:60]}")
        for k, v in ph.items():
            out = out.replace(k, v)
        return "'" + out.replace("'", "''") + "'"

    # ---- FORALL ------------------------------------------------------------------------------
    def st_forall(self, st: A.Forall, scope, ind):
        if (off := self.rule_off("plsql.collections", "FORALL", f"FORALL {st.var}", st.line)) is not None:
            return [f"{ind}{off};"]
        self.ctx.applied("plsql.collections")
        inner = scope.child()
        from migrator.convert.plsql.symbols import Sym

        inner.add(Sym(st.var, "loopvar", PgType("integer", "PLS_INTEGER")))
        var = quote_ident(st.var)
        if st.indices_of is not None:
            coll = self.expr(st.indices_of, scope)
            if st.values_of:
                self.unconverted("FORALL VALUES OF", "VALUES OF", st.line)
                return [f"{ind}{unconverted_marker('FORALL VALUES OF', coll)};"]
            head = f"FOR {var} IN 1..coalesce(cardinality({coll}), 0) LOOP"
        else:
            head = f"FOR {var} IN {self.expr(st.lo, scope)}..{self.expr(st.hi, scope)} LOOP"
        saved, self.in_forall = self.in_forall, True
        try:
            body = self.stmt(st.stmt, inner, ind + IND)
        finally:
            self.in_forall = saved
        reset = [f"{ind}sql__rowcount := 0;"] if self.uses_sql_rowcount else []
        return reset + [f"{ind}{head}"] + body + [f"{ind}END LOOP;"]

    # ---- assignment targets --------------------------------------------------------------------
    def temp(self, pg_type: str) -> str:
        self.temp_counter += 1
        name = f"tmp__{self.temp_counter}"
        self.extra_decls.append(f"{name} {pg_type};")
        return name

    def lvalue(self, toks: list[Token], scope: Scope, into: bool = False) -> LValue:
        if toks and toks[0].kind == "bind" and self.trigger is not None:
            alias = self.trigger_alias(toks[0].text[1:].upper())
            if alias:
                return LValue(alias + target_text(toks[1:]))
        parts, j = self.chain(toks, 0)
        sym = scope.get(parts[0])
        rest = parts[1:]
        setup, finish = [], []
        if sym is None:
            ref = self.package_ref(parts)
            if ref is not None and ref[1].kind == "pkgvar":
                sym, rest = ref[1], ref[2]
        if sym is not None and sym.kind == "pkgvar":
            if not rest and j >= len(toks):
                tmp = self.temp(sym.type.pg)
                return LValue(tmp, [], [f"PERFORM {sym.setter}({tmp});"], sym.type)
            tmp = self.temp(sym.type.pg)
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
            return LValue(self.plain_target(toks))
        return self.lvalue_access(base, ptype, rest, toks, j, scope, setup, finish, into)

    def plain_target(self, toks) -> str:
        return target_text(toks)

    def lvalue_access(self, base, ptype, rest, toks, j, scope, setup, finish, into):
        target = base
        for part in rest:
            target = f"{target}.{quote_ident(part)}"
            ptype = None
        if j < len(toks) and toks[j].is_op("(") and ptype is not None and ptype.coll is not None:
            inner, j = self.paren_at(toks, j)
            idx = self.expr(inner, scope)
            coll = ptype.coll
            fields = target_text(toks[j:])
            if coll.kind == "array":
                return LValue(f"{target}[{idx}]{fields}", setup, finish)
            key = self.key_text(coll, idx)
            if fields or into:
                tmp = self.temp(coll.elem_pg)
                read, _ = self.element(target, coll, idx)
                pre = [f"{tmp} := {read};"] if fields else []
                return LValue(
                    f"{tmp}{fields}", setup + pre, [f"{target} := oracompat.aa_set({target}, {key}, {tmp});"] + finish
                )
            cast = self.castable(coll.elem_pg)
            value = "({value})" if cast == "text" and "%" in coll.elem_pg else "({value})::" + cast
            return LValue(f"aa:{target} := oracompat.aa_set({target}, {key}, {value})", setup, finish)
        return LValue(target + target_text(toks[j:]), setup, finish)
