"""Bulk binds (rule plsql.collections): SELECT ... BULK COLLECT INTO, FETCH ... BULK COLLECT INTO
[LIMIT n], and FORALL.

SELECT BULK COLLECT becomes one `array_agg` over the query (jsonb keys 1..n for an INDEX BY
target); FETCH BULK COLLECT a loop of single-row fetches, so %NOTFOUND and %ROWCOUNT mean what
they mean in Oracle after a bulk fetch; FORALL a FOR loop over the DML statement, with SQL%ROWCOUNT
adding up over its iterations as Oracle's does. RETURNING ... BULK COLLECT INTO and EXECUTE
IMMEDIATE ... BULK COLLECT INTO are marked unconverted. Parsed in `parse_stmt` (st_fetch,
st_execute, st_forall); SELECT ... BULK COLLECT is found in the SQL statement by `emit_sql`.
"""

from __future__ import annotations

from harness.quoting import quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.resolver import target_type
from migrator.convert.plsql.state import EmitterState
from migrator.convert.plsql.symbols import PgType, Sym
from migrator.convert.plsql.targets import LValue
from migrator.source.lexer import Token, split_top_level

IND = "    "


class BulkMixin(EmitterState):
    # ---- BULK COLLECT ------------------------------------------------------------------------------
    def bulk_select(self, query, select_list, targets, scope, ind):
        if (off := self.rule_off("plsql.collections", "BULK COLLECT", "SELECT BULK COLLECT INTO")) is not None:
            return [f"{ind}{off};"]
        self.ctx.applied("plsql.collections")
        text = self.sql_text(query, scope)
        names, setup, finish = self.into_targets(targets, scope)
        ncols = len(split_top_level(select_list))
        star = any(t.is_op("*") for t in select_list)
        if len(names) == 1 and (ncols > 1 or star):
            lv_type = target_type(targets[0], scope)
            elem = lv_type.coll.elem_pg if lv_type and lv_type.coll else None
            if elem is None or "%" in elem:
                self.unconverted("BULK COLLECT", "element type of the target collection is unknown", query[0])
                return [f"{ind}{unconverted_marker('BULK COLLECT', text)};"]
            agg = f"SELECT coalesce(array_agg(ROW(q__.*)::{elem}), '{{}}') FROM ({text}) AS q__"
        else:
            cols = ", ".join(f"c{i + 1}" for i in range(len(names)))
            aggs = ", ".join(f"coalesce(array_agg(q__.c{i + 1}), '{{}}')" for i in range(len(names)))
            agg = f"SELECT {aggs} FROM ({text}) AS q__({cols})"
        assoc = [target_type(t, scope) for t in targets]
        if any(t is not None and t.coll is not None and t.coll.kind == "assoc" and not t.array_pg for t in assoc):
            # INDEX BY targets hold jsonb: the collected rows get the keys 1..n
            agg = agg.replace("coalesce(array_agg(", "oracompat.arr_to_aa(coalesce(array_agg(").replace(
                "'{}')", "'{}'))"
            )
        return self.into_statement(f"{agg} INTO {', '.join(names)}", setup, finish, ind)

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
        t = target_type(st.into[0], scope)
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

    def bulk_returning(self, toks: list[Token], k: int, ind: str) -> list[str]:
        """DML ... RETURNING ... BULK COLLECT INTO: not converted."""
        self.unconverted("RETURNING BULK COLLECT", "RETURNING ... BULK COLLECT INTO", toks[k])
        return [f"{ind}{unconverted_marker('RETURNING BULK COLLECT', ' '.join(t.text for t in toks))};"]

    def bulk_execute(self, st: A.ExecImmediate, sql: str, ind: str) -> list[str]:
        """EXECUTE IMMEDIATE ... BULK COLLECT INTO: not converted."""
        self.unconverted("EXECUTE IMMEDIATE BULK COLLECT", "dynamic BULK COLLECT", st.line)
        return [f"{ind}{unconverted_marker('EXECUTE IMMEDIATE BULK COLLECT', sql)};"]

    # ---- FORALL ------------------------------------------------------------------------------------
    def st_forall(self, st: A.Forall, scope, ind):
        if (off := self.rule_off("plsql.collections", "FORALL", f"FORALL {st.var}", st.line)) is not None:
            return [f"{ind}{off};"]
        self.ctx.applied("plsql.collections")
        inner = scope.child()
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
        with self.within(in_forall=True):
            body = self.stmt(st.stmt, inner, ind + IND * (3 if st.save_exceptions else 1))
        reset = [f"{ind}sql__rowcount := 0;"] if self.uses_sql_rowcount else []
        per_row = self.bulk_rowcount_lines(ind + IND) if self.uses_bulk_rowcount() else []
        if per_row:
            reset.append(f"{ind}sql__bulk_rowcount := '{{}}';")
        if not st.save_exceptions:
            return reset + [f"{ind}{head}"] + body + per_row + [f"{ind}END LOOP;"]
        return reset + self.save_exceptions(head, body, per_row, ind)

    # ---- SAVE EXCEPTIONS, SQL%BULK_EXCEPTIONS, SQL%BULK_ROWCOUNT -------------------------------------
    def save_exceptions(self, head: str, body: list[str], per_row: list[str], ind: str) -> list[str]:
        """FORALL ... SAVE EXCEPTIONS: each iteration in a block of its own (a failed one is rolled
        back, as Oracle rolls back a failed statement), its failure recorded in
        SQL%BULK_EXCEPTIONS (ERROR_INDEX the iteration, ERROR_CODE Oracle's positive error number);
        after the last one, ORA-24381 when any failed."""
        self.frame.extra_decls += ["sql__bulk_exceptions jsonb := '[]';", "forall__iteration integer;"]
        record = (
            "sql__bulk_exceptions := sql__bulk_exceptions || jsonb_build_object('error_index', forall__iteration, "
            "'error_code', -oracompat.sqlcode(SQLSTATE));"
        )
        return (
            [f"{ind}sql__bulk_exceptions := '[]';", f"{ind}forall__iteration := 0;", f"{ind}{head}"]
            + [f"{ind}{IND}forall__iteration := forall__iteration + 1;", f"{ind}{IND}BEGIN"]
            + body
            + [f"{ind}{IND}EXCEPTION WHEN OTHERS THEN", f"{ind}{IND * 2}{record}", f"{ind}{IND}END;"]
            + per_row
            + [f"{ind}END LOOP;"]
            + (
                [f"{ind}bulk__failed := jsonb_array_length(sql__bulk_exceptions) > 0;"]
                if self.frame.bulk_deferred  # the block raises it after the work is kept (emit_stmt)
                else [
                    f"{ind}IF jsonb_array_length(sql__bulk_exceptions) > 0 THEN",
                    f"{ind}{IND}RAISE EXCEPTION 'error(s) in array DML' USING ERRCODE = 'OS381';",
                    f"{ind}END IF;",
                ]
            )
        )

    def uses_bulk_rowcount(self) -> bool:
        if self.bulk_rowcount:
            self.frame.extra_decls.append("sql__bulk_rowcount integer[] := '{}';")
        return self.bulk_rowcount

    def bulk_rowcount_lines(self, ind: str) -> list[str]:
        """SQL%BULK_ROWCOUNT(i): the rows the i-th iteration processed."""
        self.frame.extra_decls.append("forall__rows integer;")
        return [
            f"{ind}GET DIAGNOSTICS forall__rows = ROW_COUNT;",
            f"{ind}sql__bulk_rowcount := array_append(sql__bulk_rowcount, forall__rows);",
        ]

    def bulk_attribute(self, attr: str, toks, j: int, scope) -> tuple[str, int, str]:
        """SQL%BULK_EXCEPTIONS.COUNT, SQL%BULK_EXCEPTIONS(i).ERROR_INDEX / ERROR_CODE,
        SQL%BULK_ROWCOUNT(i)."""
        if attr == "BULK_ROWCOUNT":
            self.frame.extra_decls.append("sql__bulk_rowcount integer[] := '{}';")
            if j < len(toks) and toks[j].is_op("("):
                inner, j = self.paren_at(toks, j)
                return f"sql__bulk_rowcount[{self.expr(inner, scope)}]", j, "NUMBER"
            self.unconverted("SQL%BULK_ROWCOUNT", "SQL%BULK_ROWCOUNT without an index", toks[j - 1])
            return unconverted_marker("SQL%BULK_ROWCOUNT"), j, ""
        self.frame.extra_decls.append("sql__bulk_exceptions jsonb := '[]';")
        if j + 1 < len(toks) and toks[j].is_op(".") and toks[j + 1].is_word("COUNT"):
            return "jsonb_array_length(sql__bulk_exceptions)", j + 2, "NUMBER"
        if j < len(toks) and toks[j].is_op("("):
            inner, k = self.paren_at(toks, j)
            if k + 1 < len(toks) and toks[k].is_op(".") and toks[k + 1].is_word("ERROR_INDEX", "ERROR_CODE"):
                field = toks[k + 1].upper.lower()
                return (
                    f"((sql__bulk_exceptions -> (({self.expr(inner, scope)}) - 1)::integer ->> '{field}')::integer)",
                    k + 2,
                    "NUMBER",
                )
        self.unconverted(
            "SQL%BULK_EXCEPTIONS", "only .COUNT and (i).ERROR_INDEX / (i).ERROR_CODE are read", toks[j - 1]
        )
        return unconverted_marker("SQL%BULK_EXCEPTIONS"), j, ""

    def forall_rowcount_lines(self, ind: str) -> list[str]:
        """Oracle: SQL%ROWCOUNT after FORALL is the total of all its iterations."""
        self.frame.extra_decls.append("forall__rowcount integer;")
        return [
            f"{ind}GET DIAGNOSTICS forall__rowcount = ROW_COUNT;",
            f"{ind}sql__rowcount := sql__rowcount + forall__rowcount;",
        ]
