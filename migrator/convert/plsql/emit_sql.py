"""Embedded SQL and cursors: SELECT INTO (STRICT, as Oracle's raises NO_DATA_FOUND/TOO_MANY_ROWS),
DML with RETURNING INTO and WHERE CURRENT OF, COMMIT/ROLLBACK/SAVEPOINT, SQL%ROWCOUNT, and OPEN /
FETCH / CLOSE with %FOUND/%NOTFOUND/%ROWCOUNT. Its BULK COLLECT forms are `emit_bulk`; COMMIT in an
autonomous routine is `emit_autonomous`."""

from __future__ import annotations

from harness.quoting import comment_text
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_autonomous as autonomous_
from migrator.convert.plsql import emit_bulk as bulk_
from migrator.convert.plsql import emit_dyn as dyn_
from migrator.convert.plsql import emit_stmt as stmt_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import targets as targets_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.output import Out
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.statements import emits
from migrator.convert.plsql.symbols import Scope
from migrator.source.lexer import find_top_level, split_top_level, tokenize


def query_text(em: Emitter, toks, scope) -> str:
    if toks and toks[0].is_op("(") and toks[-1].is_op(")"):
        toks = toks[1:-1]
    return exprs_.sql_text(em, toks, scope)


def into_statement(em: Emitter, text: str, setup: list[str], finish: list[str], out: Out) -> None:
    """A statement writing into targets: their setup, the statement, SQL%ROWCOUNT, write-backs."""
    out.each(setup)
    out.line(f"{text};")
    rowcount_lines(em, out)
    out.each(finish)


def rowcount_lines(em: Emitter, out: Out) -> None:
    if not em.uses_sql_rowcount:
        return
    if em.frame.in_forall:
        bulk_.forall_rowcount_lines(em, out)
        return
    out.line("GET DIAGNOSTICS sql__rowcount = ROW_COUNT;")


@emits(A.Sql)
def st_sql(em: Emitter, st: A.Sql, scope: Scope, out: Out) -> None:
    toks = st.toks
    head = toks[0].upper
    if head in ("COMMIT", "ROLLBACK") and not find_top_level(toks, "TO"):
        transaction_stmt(em, head, st, out)
        return
    sp = norm_name(toks[-1]) if len(toks) >= 2 else None
    if sp in em.frame.block_savepoints and (head == "SAVEPOINT" or (head == "ROLLBACK" and em.frame.in_handler)):
        em.ctx.note(f"line {st.line}: {head} {sp}: done by the PL/pgSQL exception block (subtransaction)")
        said = comment_text(" ".join(t.text for t in toks))
        out.line(f"NULL;  -- {said}: the exception block's subtransaction does this")
        return
    if head == "SAVEPOINT" or (head == "ROLLBACK") or head == "SET":
        em.unconverted(head, "savepoints / SET TRANSACTION inside PL/pgSQL", st.line)
        out.line(f"{unconverted_marker(head, ' '.join(t.text for t in toks))};")
        return
    if head in ("SELECT", "WITH"):
        k = find_top_level(toks, "INTO", "BULK")
        if k is not None:
            select_into(em, toks, k, scope, out)
            return
    if head in ("INSERT", "UPDATE", "DELETE", "MERGE"):
        dml(em, toks, scope, out)
        return
    out.line(f"{exprs_.sql_text(em, toks, scope)};")
    rowcount_lines(em, out)


def transaction_stmt(em: Emitter, head, st, out: Out) -> None:
    # an autonomous routine (a function too) runs in its own session, which commits on return
    if autonomous_.autonomous_transaction_stmt(em, head, st, out):
        return
    if em.frame.kind == "FUNCTION" or em.frame.trigger is not None:
        em.unconverted(head, f"{head} inside a function or trigger is not allowed in PostgreSQL", st.line)
        out.line(f"{unconverted_marker(head, head)};")
        return
    if em.frame.in_handler:
        em.ctx.note(
            f"line {st.line}: {head} inside an exception handler fails in PostgreSQL "
            "(a subtransaction is active) if that handler runs"
        )
    em.ctx.note(f"line {st.line}: {head} is allowed only when the procedure is CALLed outside a transaction block")
    out.line(f"{head};")


def select_into(em: Emitter, toks, k, scope, out: Out) -> None:
    bulk = toks[k].is_word("BULK")
    start = k + 3 if bulk else k + 1
    end = find_top_level(toks, "FROM", start=start)
    end = len(toks) if end is None else end
    targets = split_top_level(toks[start:end])
    query = toks[:k] + toks[end:]
    if bulk:
        bulk_.bulk_select(em, query, toks[1:k], targets, scope, out)
        return
    names, setup, finish, types = targets_.typed_into_targets(em, targets, scope)
    if len(types) == 1 and types[0] is not None and types[0].object_key is not None:
        query = _object_fields(toks, k, end, query)
    text = exprs_.sql_text(em, query, scope)
    # STRICT: NO_DATA_FOUND / TOO_MANY_ROWS exactly as Oracle's SELECT INTO
    into_statement(em, f"{text} INTO STRICT {', '.join(names)}", setup, finish, out)


def _object_fields(toks, k: int, end: int, query):
    """``SELECT obj_expr INTO obj_var``: Oracle assigns the one object value; PL/pgSQL, given one
    composite target, fills its fields from the select list's columns, so the object is selected
    as its fields, ``(obj_expr).*``. Only a select list of one item without an alias (a list of
    the attributes themselves, Oracle refuses: ORA-00947/00932)."""
    first = 2 if k > 1 and toks[1].is_word("DISTINCT", "UNIQUE", "ALL") else 1
    item = toks[first:k]
    if not item or len(split_top_level(item)) != 1 or find_top_level(item, "AS") is not None:
        return query
    if len(item) == 1 and item[0].text == "*":
        return query
    return toks[:first] + tokenize("(") + item + tokenize(").*") + toks[end:]


def dml(em: Emitter, toks, scope, out: Out) -> None:
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
            out.line(f"{off};")
            return
        em.ctx.applied("plsql.where_current_of")  # the cursor's name is its portal's (PL/pgSQL)
        suffix = f" WHERE CURRENT OF {out.ident(norm_name(toks[cur + 2]))}"
        toks = toks[: cur - 1] + toks[cur + 3 :]
    k = find_top_level(toks, "RETURNING", "RETURN")
    into = find_top_level(toks, "INTO", start=k) if k is not None else None
    if k is None or into is None:
        out.line(f"{exprs_.sql_text(em, toks, scope)}{suffix};")
        rowcount_lines(em, out)
        return
    if toks[into - 1].is_word("BULK"):
        bulk_.bulk_returning(em, toks, k, out)
        return
    names, setup, finish = targets_.into_targets(em, split_top_level(toks[into + 1 :]), scope)
    # the RETURNING list is converted as expressions; the statement without it as SQL
    returning = ", ".join(exprs_.expr(em, e, scope) for e in split_top_level(toks[k + 1 : into]))
    text = f"{exprs_.sql_text(em, toks[:k], scope)} RETURNING {returning}"
    into_statement(em, f"{text}{suffix} INTO {', '.join(names)}", setup, finish, out)


# ---- cursors -----------------------------------------------------------------------------
def cursor_name(em: Emitter, toks, scope) -> str:
    return exprs_.expr(em, toks, scope)


@emits(A.Open)
def st_open(em: Emitter, st: A.Open, scope: Scope, out: Out) -> None:
    name = cursor_name(em, st.cursor, scope)
    base = norm_name(st.cursor[0])
    if base in em.tracked_cursors:
        out.line(f"{out.ident(base + '__rowcount')} := 0;")
    if st.query is not None:
        out.line(f"OPEN {name} FOR {query_text(em, st.query, scope)};")
    elif st.dynamic is not None:
        using, text = dyn_.dynamic_with_binds(em, st.dynamic, st.using, scope)
        out.line(f"OPEN {name} FOR EXECUTE {text}" + (f" USING {using}" if using else "") + ";")
    else:
        args = f"({', '.join(stmt_.call_args(em, st.args, scope))})" if st.args else ""
        out.line(f"OPEN {name}{args};")


@emits(A.Close)
def st_close(em: Emitter, st: A.Close, scope: Scope, out: Out) -> None:
    out.line(f"CLOSE {cursor_name(em, st.cursor, scope)};")


@emits(A.Fetch)
def st_fetch(em: Emitter, st: A.Fetch, scope: Scope, out: Out) -> None:
    name = cursor_name(em, st.cursor, scope)
    base = norm_name(st.cursor[0])
    if st.bulk:
        bulk_.bulk_fetch(em, st, name, scope, out)
        return
    names, setup, finish = targets_.into_targets(em, st.into, scope)
    out.each(setup)
    out.line(f"FETCH {name} INTO {', '.join(names)};")
    if base in em.tracked_cursors:
        found, rowcount = out.ident(f"{base}__found"), out.ident(f"{base}__rowcount")
        out.line(f"{found} := FOUND;")
        out.line(f"IF FOUND THEN {rowcount} := {rowcount} + 1; END IF;")
    out.each(finish)
