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

from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_sql as sql_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import statements
from migrator.convert.plsql import targets as targets_
from migrator.convert.plsql import values as values_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.output import Out
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.resolver import target_type
from migrator.convert.plsql.statements import emits
from migrator.convert.plsql.symbols import PgType, Scope, Sym
from migrator.source.lexer import Token, split_top_level


def bulk_select(em: Emitter, query, select_list, targets, scope, out: Out) -> None:
    if (off := em.rule_off("plsql.collections", "BULK COLLECT", "SELECT BULK COLLECT INTO")) is not None:
        out.line(f"{off};")
        return
    em.ctx.applied("plsql.collections")
    text = exprs_.sql_text(em, query, scope)
    names, setup, finish = targets_.into_targets(em, targets, scope)
    ncols = len(split_top_level(select_list))
    star = any(t.is_op("*") for t in select_list)
    if len(names) == 1 and (ncols > 1 or star):
        lv_type = target_type(targets[0], scope)
        elem = lv_type.coll.elem_pg if lv_type and lv_type.coll else None
        if elem is None or "%" in elem:
            em.unconverted("BULK COLLECT", "element type of the target collection is unknown", query[0])
            out.line(f"{unconverted_marker('BULK COLLECT', text)};")
            return
        agg = f"SELECT coalesce(array_agg(ROW(q__.*)::{elem}), '{{}}') FROM ({text}) AS q__"
    else:
        cols = ", ".join(f"c{i + 1}" for i in range(len(names)))
        aggs = ", ".join(f"coalesce(array_agg(q__.c{i + 1}), '{{}}')" for i in range(len(names)))
        agg = f"SELECT {aggs} FROM ({text}) AS q__({cols})"
    assoc = [target_type(t, scope) for t in targets]
    if any(t is not None and t.coll is not None and t.coll.kind == "assoc" and not t.array_pg for t in assoc):
        # INDEX BY targets hold jsonb: the collected rows get the keys 1..n
        agg = agg.replace("coalesce(array_agg(", "oracompat.arr_to_aa(coalesce(array_agg(").replace("'{}')", "'{}'))")
    sql_.into_statement(em, f"{agg} INTO {', '.join(names)}", setup, finish, out)


def bulk_fetch(em: Emitter, st: A.Fetch, name, scope, out: Out) -> None:
    if (off := em.rule_off("plsql.collections", "FETCH BULK COLLECT", name, st.line)) is not None:
        out.line(f"{off};")
        return
    em.ctx.applied("plsql.collections")
    if len(st.into) != 1:
        em.unconverted("FETCH BULK COLLECT", "into several collections", st.line)
        out.line(f"{unconverted_marker('FETCH BULK COLLECT', name)};")
        return
    lv = targets_.lvalue(em, st.into[0], scope)
    if lv.target.startswith("aa:"):
        lv = targets_.LValue(out.ident(norm_name(st.into[0][0])))
    t = target_type(st.into[0], scope)
    elem = t.coll.elem_pg if t and t.coll else "record"
    row = targets_.temp(em, elem if "%" not in elem else "record")
    limit = exprs_.expr(em, st.limit, scope) if st.limit else None
    assoc = t is not None and t.coll is not None and t.coll.kind == "assoc"
    out.line(f"{lv.target} := '{{}}'::jsonb;" if assoc else f"{lv.target} := '{{}}';")
    out.line("LOOP")
    base = norm_name(st.cursor[0])
    track = base in em.tracked_cursors
    found, rowcount = out.ident(f"{base}__found"), out.ident(f"{base}__rowcount")
    with out.indented():
        if limit:
            out.line(f"EXIT WHEN coalesce(cardinality({lv.target}), 0) >= {limit};")
        out.line(f"FETCH {name} INTO {row};")
        # Oracle: %NOTFOUND after a bulk fetch is true when the last fetch ran out of rows
        if track:
            out.line(f"{found} := FOUND;")
        out.line("EXIT WHEN NOT FOUND;")
        if track:
            out.line(f"{rowcount} := {rowcount} + 1;")
        if assoc:
            out.line(
                f"{lv.target} := oracompat.aa_set({lv.target}, (oracompat.aa_count({lv.target}) + 1)::text, {row});"
            )
        else:
            out.line(f"{lv.target} := array_append({lv.target}, {row});")
    out.line("END LOOP;")
    if assoc and t is not None and t.array_pg:
        size = out.ident(f"{norm_name(st.into[0][0])}__size")
        out.line(f"{size} := oracompat.aa_count({lv.target});")
    out.each(lv.finish)


def bulk_returning(em: Emitter, toks: list[Token], k: int, out: Out) -> None:
    """DML ... RETURNING ... BULK COLLECT INTO: not converted."""
    em.unconverted("RETURNING BULK COLLECT", "RETURNING ... BULK COLLECT INTO", toks[k])
    out.line(f"{unconverted_marker('RETURNING BULK COLLECT', ' '.join(t.text for t in toks))};")


def bulk_execute(em: Emitter, st: A.ExecImmediate, sql: str, out: Out) -> None:
    """EXECUTE IMMEDIATE ... BULK COLLECT INTO: not converted."""
    em.unconverted("EXECUTE IMMEDIATE BULK COLLECT", "dynamic BULK COLLECT", st.line)
    out.line(f"{unconverted_marker('EXECUTE IMMEDIATE BULK COLLECT', sql)};")


# ---- FORALL ------------------------------------------------------------------------------------
@emits(A.Forall)
def st_forall(em: Emitter, st: A.Forall, scope: Scope, out: Out) -> None:
    if (off := em.rule_off("plsql.collections", "FORALL", f"FORALL {st.var}", st.line)) is not None:
        out.line(f"{off};")
        return
    em.ctx.applied("plsql.collections")
    inner = scope.child()
    inner.add(Sym(st.var, "loopvar", PgType("integer", "PLS_INTEGER")))
    var = out.ident(st.var)
    if st.indices_of is not None:
        coll = exprs_.expr(em, st.indices_of, scope)
        if st.values_of:
            em.unconverted("FORALL VALUES OF", "VALUES OF", st.line)
            out.line(f"{unconverted_marker('FORALL VALUES OF', coll)};")
            return
        head = f"FOR {var} IN 1..coalesce(cardinality({coll}), 0) LOOP"
    else:
        head = f"FOR {var} IN {exprs_.expr(em, st.lo, scope)}..{exprs_.expr(em, st.hi, scope)} LOOP"
    # the iteration's statement (one level in, three with SAVE EXCEPTIONS' block) is written
    # before the lines around it: they depend on what it reads
    with em.within(in_forall=True), out.indented(3 if st.save_exceptions else 1), out.aside() as body:
        statements.stmt(em, st.stmt, inner, out)
    with out.indented(), out.aside() as per_row:
        if uses_bulk_rowcount(em):
            bulk_rowcount_lines(em, out)
    if em.uses_sql_rowcount:
        out.line("sql__rowcount := 0;")
    if per_row:
        out.line("sql__bulk_rowcount := '{}';")
    if not st.save_exceptions:
        out.line(head)
        out.place(body)
        out.place(per_row)
        out.line("END LOOP;")
        return
    save_exceptions(em, head, body, per_row, out)


# ---- SAVE EXCEPTIONS, SQL%BULK_EXCEPTIONS, SQL%BULK_ROWCOUNT -------------------------------------
def save_exceptions(em: Emitter, head: str, body: list[str], per_row: list[str], out: Out) -> None:
    """FORALL ... SAVE EXCEPTIONS: each iteration in a block of its own (a failed one is rolled
    back, as Oracle rolls back a failed statement), its failure recorded in
    SQL%BULK_EXCEPTIONS (ERROR_INDEX the iteration, ERROR_CODE Oracle's positive error number);
    after the last one, ORA-24381 when any failed."""
    em.frame.extra_decls += ["sql__bulk_exceptions jsonb := '[]';", "forall__iteration integer;"]
    record = (
        "sql__bulk_exceptions := sql__bulk_exceptions || jsonb_build_object('error_index', forall__iteration, "
        "'error_code', -oracompat.sqlcode(SQLSTATE));"
    )
    out.line("sql__bulk_exceptions := '[]';")
    out.line("forall__iteration := 0;")
    out.line(head)
    with out.indented():
        out.line("forall__iteration := forall__iteration + 1;")
        out.line("BEGIN")
        out.place(body)
        out.line("EXCEPTION WHEN OTHERS THEN")
        with out.indented():
            out.line(record)
        out.line("END;")
    out.place(per_row)
    out.line("END LOOP;")
    if em.frame.bulk_deferred:  # the block raises it after the work is kept (emit_stmt)
        out.line("bulk__failed := jsonb_array_length(sql__bulk_exceptions) > 0;")
    else:
        out.line("IF jsonb_array_length(sql__bulk_exceptions) > 0 THEN")
        with out.indented():
            out.line("RAISE EXCEPTION 'error(s) in array DML' USING ERRCODE = 'OS381';")
        out.line("END IF;")


def uses_bulk_rowcount(em: Emitter) -> bool:
    if em.bulk_rowcount:
        em.frame.extra_decls.append("sql__bulk_rowcount integer[] := '{}';")
    return em.bulk_rowcount


def bulk_rowcount_lines(em: Emitter, out: Out) -> None:
    """SQL%BULK_ROWCOUNT(i): the rows the i-th iteration processed."""
    em.frame.extra_decls.append("forall__rows integer;")
    out.line("GET DIAGNOSTICS forall__rows = ROW_COUNT;")
    out.line("sql__bulk_rowcount := array_append(sql__bulk_rowcount, forall__rows);")


def bulk_attribute(em: Emitter, attr: str, toks, j: int, scope) -> tuple[str, int, str]:
    """SQL%BULK_EXCEPTIONS.COUNT, SQL%BULK_EXCEPTIONS(i).ERROR_INDEX / ERROR_CODE,
    SQL%BULK_ROWCOUNT(i)."""
    if attr == "BULK_ROWCOUNT":
        em.frame.extra_decls.append("sql__bulk_rowcount integer[] := '{}';")
        if j < len(toks) and toks[j].is_op("("):
            inner, j = values_.paren_at(em, toks, j)
            return f"sql__bulk_rowcount[{exprs_.expr(em, inner, scope)}]", j, "NUMBER"
        em.unconverted("SQL%BULK_ROWCOUNT", "SQL%BULK_ROWCOUNT without an index", toks[j - 1])
        return unconverted_marker("SQL%BULK_ROWCOUNT"), j, ""
    em.frame.extra_decls.append("sql__bulk_exceptions jsonb := '[]';")
    if j + 1 < len(toks) and toks[j].is_op(".") and toks[j + 1].is_word("COUNT"):
        return "jsonb_array_length(sql__bulk_exceptions)", j + 2, "NUMBER"
    if j < len(toks) and toks[j].is_op("("):
        inner, k = values_.paren_at(em, toks, j)
        if k + 1 < len(toks) and toks[k].is_op(".") and toks[k + 1].is_word("ERROR_INDEX", "ERROR_CODE"):
            field = toks[k + 1].upper.lower()
            return (
                f"((sql__bulk_exceptions -> (({exprs_.expr(em, inner, scope)}) - 1)::integer ->> '{field}')::integer)",
                k + 2,
                "NUMBER",
            )
    em.unconverted("SQL%BULK_EXCEPTIONS", "only .COUNT and (i).ERROR_INDEX / (i).ERROR_CODE are read", toks[j - 1])
    return unconverted_marker("SQL%BULK_EXCEPTIONS"), j, ""


def forall_rowcount_lines(em: Emitter, out: Out) -> None:
    """Oracle: SQL%ROWCOUNT after FORALL is the total of all its iterations."""
    em.frame.extra_decls.append("forall__rowcount integer;")
    out.line("GET DIAGNOSTICS forall__rowcount = ROW_COUNT;")
    out.line("sql__rowcount := sql__rowcount + forall__rowcount;")
