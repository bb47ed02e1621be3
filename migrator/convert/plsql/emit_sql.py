"""Embedded SQL and cursors: SELECT INTO (STRICT, as Oracle's raises NO_DATA_FOUND/TOO_MANY_ROWS),
DML with RETURNING INTO and WHERE CURRENT OF, COMMIT/ROLLBACK/SAVEPOINT, SQL%ROWCOUNT, and OPEN /
FETCH / CLOSE with %FOUND/%NOTFOUND/%ROWCOUNT. Its BULK COLLECT forms are `emit_bulk`; COMMIT in an
autonomous routine is `emit_autonomous`."""

from __future__ import annotations

from harness.quoting import comment_text, quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_autonomous as autonomous_
from migrator.convert.plsql import emit_bulk as bulk_
from migrator.convert.plsql import emit_dyn as dyn_
from migrator.convert.plsql import emit_stmt as stmt_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import targets as targets_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.statements import emits
from migrator.source.lexer import find_top_level, split_top_level

IND = "    "


def query_text(em: Emitter, toks, scope) -> str:
    if toks and toks[0].is_op("(") and toks[-1].is_op(")"):
        toks = toks[1:-1]
    return exprs_.sql_text(em, toks, scope)


def into_statement(em: Emitter, text: str, setup: list[str], finish: list[str], ind: str) -> list[str]:
    """A statement writing into targets: their setup, the statement, SQL%ROWCOUNT, write-backs."""
    return [f"{ind}{s}" for s in setup] + [f"{ind}{text};"] + rowcount_lines(em, ind) + [f"{ind}{s}" for s in finish]


def rowcount_lines(em: Emitter, ind) -> list[str]:
    if not em.uses_sql_rowcount:
        return []
    if em.frame.in_forall:
        return bulk_.forall_rowcount_lines(em, ind)
    return [f"{ind}GET DIAGNOSTICS sql__rowcount = ROW_COUNT;"]


@emits(A.Sql)
def st_sql(em: Emitter, st: A.Sql, scope, ind):
    toks = st.toks
    head = toks[0].upper
    if head in ("COMMIT", "ROLLBACK") and not find_top_level(toks, "TO"):
        return transaction_stmt(em, head, st, ind)
    sp = norm_name(toks[-1]) if len(toks) >= 2 else None
    if sp in em.frame.block_savepoints and (head == "SAVEPOINT" or (head == "ROLLBACK" and em.frame.in_handler)):
        em.ctx.note(f"line {st.line}: {head} {sp}: done by the PL/pgSQL exception block (subtransaction)")
        said = comment_text(" ".join(t.text for t in toks))
        return [f"{ind}NULL;  -- {said}: the exception block's subtransaction does this"]
    if head == "SAVEPOINT" or (head == "ROLLBACK") or head == "SET":
        em.unconverted(head, "savepoints / SET TRANSACTION inside PL/pgSQL", st.line)
        return [f"{ind}{unconverted_marker(head, ' '.join(t.text for t in toks))};"]
    if head in ("SELECT", "WITH"):
        k = find_top_level(toks, "INTO", "BULK")
        if k is not None:
            return select_into(em, toks, k, scope, ind)
    if head in ("INSERT", "UPDATE", "DELETE", "MERGE"):
        return dml(em, toks, scope, ind)
    return [f"{ind}{exprs_.sql_text(em, toks, scope)};"] + rowcount_lines(em, ind)


def transaction_stmt(em: Emitter, head, st, ind):
    if em.frame.kind == "FUNCTION" or em.frame.trigger is not None:
        em.unconverted(head, f"{head} inside a function or trigger is not allowed in PostgreSQL", st.line)
        return [f"{ind}{unconverted_marker(head, head)};"]
    if (autonomous := autonomous_.autonomous_transaction_stmt(em, head, st, ind)) is not None:
        return autonomous
    if em.frame.in_handler:
        em.ctx.note(
            f"line {st.line}: {head} inside an exception handler fails in PostgreSQL "
            "(a subtransaction is active) if that handler runs"
        )
    em.ctx.note(f"line {st.line}: {head} is allowed only when the procedure is CALLed outside a transaction block")
    return [f"{ind}{head};"]


def select_into(em: Emitter, toks, k, scope, ind):
    bulk = toks[k].is_word("BULK")
    start = k + 3 if bulk else k + 1
    end = find_top_level(toks, "FROM", start=start)
    end = len(toks) if end is None else end
    targets = split_top_level(toks[start:end])
    query = toks[:k] + toks[end:]
    if bulk:
        return bulk_.bulk_select(em, query, toks[1:k], targets, scope, ind)
    names, setup, finish = targets_.into_targets(em, targets, scope)
    text = exprs_.sql_text(em, query, scope)
    # STRICT: NO_DATA_FOUND / TOO_MANY_ROWS exactly as Oracle's SELECT INTO
    return into_statement(em, f"{text} INTO STRICT {', '.join(names)}", setup, finish, ind)


def dml(em: Emitter, toks, scope, ind):
    suffix = ""
    cur = find_top_level(toks, "CURRENT")
    if (
        cur is not None
        and cur > 0
        and toks[cur - 1].is_word("WHERE")
        and cur + 2 < len(toks) + 1
        and toks[cur + 1].is_word("OF")
    ):
        if (
            off := em.rule_off("plsql.where_current_of", "WHERE CURRENT OF", " ".join(t.text for t in toks))
        ) is not None:
            return [f"{ind}{off};"]
        em.ctx.applied("plsql.where_current_of")  # the cursor's name is its portal's (PL/pgSQL)
        suffix = f" WHERE CURRENT OF {quote_ident(norm_name(toks[cur + 2]))}"
        toks = toks[: cur - 1] + toks[cur + 3 :]
    k = find_top_level(toks, "RETURNING", "RETURN")
    into = find_top_level(toks, "INTO", start=k) if k is not None else None
    if k is None or into is None:
        return [f"{ind}{exprs_.sql_text(em, toks, scope)}{suffix};"] + rowcount_lines(em, ind)
    if toks[into - 1].is_word("BULK"):
        return bulk_.bulk_returning(em, toks, k, ind)
    names, setup, finish = targets_.into_targets(em, split_top_level(toks[into + 1 :]), scope)
    # the RETURNING list is converted as expressions; the statement without it as SQL
    returning = ", ".join(exprs_.expr(em, e, scope) for e in split_top_level(toks[k + 1 : into]))
    text = f"{exprs_.sql_text(em, toks[:k], scope)} RETURNING {returning}"
    return into_statement(em, f"{text}{suffix} INTO {', '.join(names)}", setup, finish, ind)


# ---- cursors -----------------------------------------------------------------------------
def cursor_name(em: Emitter, toks, scope) -> str:
    return exprs_.expr(em, toks, scope)


@emits(A.Open)
def st_open(em: Emitter, st: A.Open, scope, ind):
    name = cursor_name(em, st.cursor, scope)
    base = norm_name(st.cursor[0])
    out = []
    if base in em.tracked_cursors:
        out.append(f"{ind}{quote_ident(base + '__rowcount')} := 0;")
    if st.query is not None:
        out.append(f"{ind}OPEN {name} FOR {query_text(em, st.query, scope)};")
    elif st.dynamic is not None:
        using, text = dyn_.dynamic_with_binds(em, st.dynamic, st.using, scope)
        out.append(f"{ind}OPEN {name} FOR EXECUTE {text}" + (f" USING {using}" if using else "") + ";")
    else:
        args = f"({', '.join(stmt_.call_args(em, st.args, scope))})" if st.args else ""
        out.append(f"{ind}OPEN {name}{args};")
    return out


@emits(A.Close)
def st_close(em: Emitter, st: A.Close, scope, ind):
    return [f"{ind}CLOSE {cursor_name(em, st.cursor, scope)};"]


@emits(A.Fetch)
def st_fetch(em: Emitter, st: A.Fetch, scope, ind):
    name = cursor_name(em, st.cursor, scope)
    base = norm_name(st.cursor[0])
    if st.bulk:
        return bulk_.bulk_fetch(em, st, name, scope, ind)
    names, setup, finish = targets_.into_targets(em, st.into, scope)
    out = [f"{ind}{s}" for s in setup] + [f"{ind}FETCH {name} INTO {', '.join(names)};"]
    if base in em.tracked_cursors:
        found, rowcount = quote_ident(f"{base}__found"), quote_ident(f"{base}__rowcount")
        out += [f"{ind}{found} := FOUND;", f"{ind}IF FOUND THEN {rowcount} := {rowcount} + 1; END IF;"]
    return out + [f"{ind}{s}" for s in finish]
