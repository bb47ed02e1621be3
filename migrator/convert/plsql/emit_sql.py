"""Embedded SQL, cursors, dynamic SQL, BULK COLLECT / FORALL and procedure-call statements."""

from __future__ import annotations

from harness.quoting import comment_text, quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import PgType
from migrator.convert.plsql.values import LValue
from migrator.source.lexer import Token, find_top_level, split_top_level

IND = "    "


class SqlMixin:
    def query_text(self, toks, scope) -> str:
        if toks and toks[0].is_op("(") and toks[-1].is_op(")"):
            toks = toks[1:-1]
        return self.sql_text(toks, scope)

    def rowcount_lines(self, ind) -> list[str]:
        if not self.uses_sql_rowcount:
            return []
        if self.in_forall:  # Oracle: SQL%ROWCOUNT after FORALL is the total of all iterations
            self.extra_decls.append("forall__rowcount integer;")
            return [
                f"{ind}GET DIAGNOSTICS forall__rowcount = ROW_COUNT;",
                f"{ind}sql__rowcount := sql__rowcount + forall__rowcount;",
            ]
        return [f"{ind}GET DIAGNOSTICS sql__rowcount = ROW_COUNT;"]

    def st_sql(self, st: A.Sql, scope, ind):
        toks = st.toks
        head = toks[0].upper
        if head in ("COMMIT", "ROLLBACK") and not find_top_level(toks, "TO"):
            return self.transaction_stmt(head, st, ind)
        sp = norm_name(toks[-1]) if len(toks) >= 2 else None
        if sp in self.block_savepoints and (head == "SAVEPOINT" or (head == "ROLLBACK" and self.in_handler)):
            self.ctx.note(f"line {st.line}: {head} {sp}: done by the PL/pgSQL exception block (subtransaction)")
            said = comment_text(" ".join(t.text for t in toks))
            return [f"{ind}NULL;  -- {said}: the exception block's subtransaction does this"]
        if head == "SAVEPOINT" or (head == "ROLLBACK") or head == "SET":
            self.unconverted(head, "savepoints / SET TRANSACTION inside PL/pgSQL", st.line)
            return [f"{ind}{unconverted_marker(head, ' '.join(t.text for t in toks))};"]
        if head in ("SELECT", "WITH"):
            k = find_top_level(toks, "INTO", "BULK")
            if k is not None:
                return self.select_into(toks, k, scope, ind)
        if head in ("INSERT", "UPDATE", "DELETE", "MERGE"):
            return self.dml(toks, scope, ind)
        return [f"{ind}{self.sql_text(toks, scope)};"] + self.rowcount_lines(ind)

    def transaction_stmt(self, head, st, ind):
        if self.routine_kind == "FUNCTION" or self.trigger is not None:
            self.unconverted(head, f"{head} inside a function or trigger is not allowed in PostgreSQL", st.line)
            return [f"{ind}{unconverted_marker(head, head)};"]
        if self.autonomous and (head == "COMMIT" or self.in_handler):
            # the dblink call commits when it returns; an exception handler has already rolled
            # back its block's changes in PL/pgSQL
            self.ctx.note(f"line {st.line}: {head} in an autonomous routine is done by the dblink session")
            return [f"{ind}NULL;  -- {head}: done by the autonomous (dblink) session"]
        if self.in_handler:
            self.ctx.note(
                f"line {st.line}: {head} inside an exception handler fails in PostgreSQL "
                "(a subtransaction is active) if that handler runs"
            )
        self.ctx.note(
            f"line {st.line}: {head} is allowed only when the procedure is CALLed outside a transaction block"
        )
        return [f"{ind}{head};"]

    def into_targets(self, targets: list[list[Token]], scope) -> tuple[list[str], list[str], list[str]]:
        names, setup, finish = [], [], []
        for t in targets:
            lv = self.lvalue(t, scope, into=True)
            names.append(lv.target)
            setup += lv.setup
            finish += lv.finish
        return names, setup, finish

    def select_into(self, toks, k, scope, ind):
        bulk = toks[k].is_word("BULK")
        start = k + 3 if bulk else k + 1
        end = find_top_level(toks, "FROM", start=start)
        end = len(toks) if end is None else end
        targets = split_top_level(toks[start:end])
        query = toks[:k] + toks[end:]
        if bulk:
            return self.bulk_select(query, toks[1:k], targets, scope, ind)
        names, setup, finish = self.into_targets(targets, scope)
        text = self.sql_text(query, scope)
        # STRICT: NO_DATA_FOUND / TOO_MANY_ROWS exactly as Oracle's SELECT INTO
        return (
            [f"{ind}{s}" for s in setup]
            + [f"{ind}{text} INTO STRICT {', '.join(names)};"]
            + self.rowcount_lines(ind)
            + [f"{ind}{s}" for s in finish]
        )

    def bulk_select(self, query, select_list, targets, scope, ind):
        if (off := self.rule_off("plsql.collections", "BULK COLLECT", "SELECT BULK COLLECT INTO")) is not None:
            return [f"{ind}{off};"]
        self.ctx.applied("plsql.collections")
        text = self.sql_text(query, scope)
        names, setup, finish = self.into_targets(targets, scope)
        ncols = len(split_top_level(select_list))
        star = any(t.is_op("*") for t in select_list)
        if len(names) == 1 and (ncols > 1 or star):
            lv_type = self.target_type(targets[0], scope)
            elem = lv_type.coll.elem_pg if lv_type and lv_type.coll else None
            if elem is None or "%" in elem:
                self.unconverted("BULK COLLECT", "element type of the target collection is unknown", query[0])
                return [f"{ind}{unconverted_marker('BULK COLLECT', text)};"]
            agg = f"SELECT coalesce(array_agg(ROW(q__.*)::{elem}), '{{}}') FROM ({text}) AS q__"
        else:
            cols = ", ".join(f"c{i + 1}" for i in range(len(names)))
            aggs = ", ".join(f"coalesce(array_agg(q__.c{i + 1}), '{{}}')" for i in range(len(names)))
            agg = f"SELECT {aggs} FROM ({text}) AS q__({cols})"
        assoc = [self.target_type(t, scope) for t in targets]
        if any(t is not None and t.coll is not None and t.coll.kind == "assoc" and not t.array_pg for t in assoc):
            # INDEX BY targets hold jsonb: the collected rows get the keys 1..n
            agg = agg.replace("coalesce(array_agg(", "oracompat.arr_to_aa(coalesce(array_agg(").replace(
                "'{}')", "'{}'))"
            )
        return (
            [f"{ind}{s}" for s in setup]
            + [f"{ind}{agg} INTO {', '.join(names)};"]
            + self.rowcount_lines(ind)
            + [f"{ind}{s}" for s in finish]
        )

    def target_type(self, toks, scope) -> PgType | None:
        sym = scope.get(norm_name(toks[0])) if toks else None
        if sym is not None and len(toks) == 1:
            return sym.type
        return None

    def dml(self, toks, scope, ind):
        suffix = ""
        cur = find_top_level(toks, "CURRENT")
        if (
            cur is not None
            and cur > 0
            and toks[cur - 1].is_word("WHERE")
            and cur + 2 < len(toks) + 1
            and toks[cur + 1].is_word("OF")
        ):
            suffix = f" WHERE CURRENT OF {quote_ident(norm_name(toks[cur + 2]))}"
            toks = toks[: cur - 1] + toks[cur + 3 :]
        k = find_top_level(toks, "RETURNING", "RETURN")
        into = find_top_level(toks, "INTO", start=k) if k is not None else None
        if into is None:
            return [f"{ind}{self.sql_text(toks, scope)}{suffix};"] + self.rowcount_lines(ind)
        if toks[into - 1].is_word("BULK"):
            self.unconverted("RETURNING BULK COLLECT", "RETURNING ... BULK COLLECT INTO", toks[k])
            return [f"{ind}{unconverted_marker('RETURNING BULK COLLECT', ' '.join(t.text for t in toks))};"]
        names, setup, finish = self.into_targets(split_top_level(toks[into + 1 :]), scope)
        # the RETURNING list is converted as expressions; the statement without it as SQL
        returning = ", ".join(self.expr(e, scope) for e in split_top_level(toks[k + 1 : into]))
        text = f"{self.sql_text(toks[:k], scope)} RETURNING {returning}"
        return (
            [f"{ind}{s}" for s in setup]
            + [f"{ind}{text}{suffix} INTO {', '.join(names)};"]
            + self.rowcount_lines(ind)
            + [f"{ind}{s}" for s in finish]
        )

    # ---- cursors -----------------------------------------------------------------------------
    def cursor_name(self, toks, scope) -> str:
        return self.expr(toks, scope)

    def st_open(self, st: A.Open, scope, ind):
        name = self.cursor_name(st.cursor, scope)
        base = norm_name(st.cursor[0])
        out = []
        if base in self.tracked_cursors:
            out.append(f"{ind}{quote_ident(base + '__rowcount')} := 0;")
        if st.query is not None:
            out.append(f"{ind}OPEN {name} FOR {self.query_text(st.query, scope)};")
        elif st.dynamic is not None:
            using = ", ".join(self.expr(u, scope) for u in st.using)
            out.append(
                f"{ind}OPEN {name} FOR EXECUTE {self.dynamic_sql(st.dynamic, scope)}"
                + (f" USING {using}" if using else "")
                + ";"
            )
        else:
            args = f"({', '.join(self.call_args(st.args, scope))})" if st.args else ""
            out.append(f"{ind}OPEN {name}{args};")
        return out

    def st_close(self, st: A.Close, scope, ind):
        return [f"{ind}CLOSE {self.cursor_name(st.cursor, scope)};"]

    def st_fetch(self, st: A.Fetch, scope, ind):
        name = self.cursor_name(st.cursor, scope)
        base = norm_name(st.cursor[0])
        if st.bulk:
            return self.bulk_fetch(st, name, scope, ind)
        names, setup, finish = self.into_targets(st.into, scope)
        out = [f"{ind}{s}" for s in setup] + [f"{ind}FETCH {name} INTO {', '.join(names)};"]
        if base in self.tracked_cursors:
            found, rowcount = quote_ident(f"{base}__found"), quote_ident(f"{base}__rowcount")
            out += [f"{ind}{found} := FOUND;", f"{ind}IF FOUND THEN {rowcount} := {rowcount} + 1; END IF;"]
        return out + [f"{ind}{s}" for s in finish]

    def bulk_fetch(self, st: A.Fetch, name, scope, ind):
        if (off := self.rule_off("plsql.collections", "FETCH BULK COLLECT", name, st.line)) is not None:
            return [f"{ind}{off};"]
        self.ctx.applied("plsql.collections")
        if len(st.into) != 1:
            self.unconverted("FETCH BULK COLLECT", "into several collections", st.line)
            return [f"{ind}{unconverted_marker('FETCH BULK COLLECT', name)};"]
        lv = self.lvalue(st.into[0], scope)
        if lv.target.startswith("aa:"):
            lv = LValue(quote_ident(norm_name(st.into[0][0])))
        t = self.target_type(st.into[0], scope)
        elem = t.coll.elem_pg if t and t.coll else "record"
        row = self.temp(elem if "%" not in elem else "record")
        limit = self.expr(st.limit, scope) if st.limit else None
        out = [f"{ind}{lv.target} := '{{}}';", f"{ind}LOOP"]
        if limit:
            out.append(f"{ind}{IND}EXIT WHEN coalesce(cardinality({lv.target}), 0) >= {limit};")
        base = norm_name(st.cursor[0])
        track = base in self.tracked_cursors
        found, rowcount = quote_ident(f"{base}__found"), quote_ident(f"{base}__rowcount")
        out.append(f"{ind}{IND}FETCH {name} INTO {row};")
        # Oracle: %NOTFOUND after a bulk fetch is true when the last fetch ran out of rows
        out += [f"{ind}{IND}{found} := FOUND;"] if track else []
        out += [f"{ind}{IND}EXIT WHEN NOT FOUND;"]
        out += [f"{ind}{IND}{rowcount} := {rowcount} + 1;"] if track else []
        if t is not None and t.coll is not None and t.coll.kind == "assoc":
            out[0] = f"{ind}{lv.target} := '{{}}'::jsonb;"
            out += [
                f"{ind}{IND}{lv.target} := oracompat.aa_set({lv.target}, "
                f"(oracompat.aa_count({lv.target}) + 1)::text, {row});",
                f"{ind}END LOOP;",
            ]
            if t.array_pg:
                size = quote_ident(f"{norm_name(st.into[0][0])}__size")
                out.append(f"{ind}{size} := oracompat.aa_count({lv.target});")
        else:
            out += [f"{ind}{IND}{lv.target} := array_append({lv.target}, {row});", f"{ind}END LOOP;"]
        return out + [f"{ind}{s}" for s in lv.finish]
