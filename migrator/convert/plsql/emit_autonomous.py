"""Autonomous transactions (rule plsql.autonomous): PRAGMA AUTONOMOUS_TRANSACTION.

The routine's body becomes `<name>__autonomous`; `<name>` itself calls it through dblink, a
loopback session into the same database, so the body's COMMIT and ROLLBACK are independent of the
caller's transaction, as in Oracle. The session is opened as the execution role with the password
`oracompat.self_dsn()` reads (see the README's Security model); OUT parameters cannot come back
through dblink and are refused. Inside the body, COMMIT is done by the dblink call returning.
dblink does not forward that session's NOTICEs, so (rule plsql.autonomous_output) the call goes
through `oracompat.autonomous`, which brings back what the session printed and raised.
"""

from __future__ import annotations

from harness.quoting import pg_string, quote_ident
from migrator.convert.context import unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_routine as routine_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.naming import derived, sql
from migrator.convert.plsql.output import IND, Out
from migrator.convert.plsql.symbols import Scope


def autonomous_pragma(em: Emitter, d: A.Pragma) -> None:
    """PRAGMA AUTONOMOUS_TRANSACTION in a routine's declarations: the routine runs on its own."""
    em.frame.autonomous = True


def autonomous_transaction_stmt(em: Emitter, head: str, st: A.Sql, out: Out) -> bool:
    """COMMIT (or ROLLBACK in a handler) inside an autonomous routine: the dblink session does
    it when the call returns, and a handler's block has already rolled back (False: not here,
    nothing written)."""
    if not (em.frame.autonomous and (head == "COMMIT" or em.frame.in_handler)):
        return False
    em.ctx.note(f"line {st.line}: {head} in an autonomous routine is done by the dblink session")
    out.line(f"NULL;  -- {head}: done by the autonomous (dblink) session")
    return True


def autonomous_routine(
    em: Emitter, r: A.Routine, qname: tuple[str, str], params: list[str], ret: str | None, body: list[str], scope: Scope
) -> str:
    """The routine's body as `<name>__autonomous`, and `<name>` calling it through dblink."""
    if not em.ctx.enabled("plsql.autonomous"):
        em.unconverted("PRAGMA AUTONOMOUS_TRANSACTION", "rule plsql.autonomous disabled", r.line)
        return unconverted_marker("PRAGMA AUTONOMOUS_TRANSACTION", r.name) + ";"
    if any(p.mode != "IN" for p in r.params):
        em.unconverted("PRAGMA AUTONOMOUS_TRANSACTION", "OUT parameters cannot come back through dblink", r.line)
        return unconverted_marker("PRAGMA AUTONOMOUS_TRANSACTION", r.name) + ";"
    em.ctx.applied("plsql.autonomous")
    inner_name = derived(qname, "autonomous")
    inner = routine_.create_function(routine_.routine_head(r.kind, inner_name, params, ret), body)
    types = [scope.names[p.name].typed.pg for p in r.params]
    # format()'s template is a string literal in which '%' starts a directive: names and
    # types are written into it with '%' doubled
    fmt = ", ".join(f"%L::{t.replace('%', '%%')}" for t in types)
    template = f"{'CALL' if r.kind == 'PROCEDURE' else 'SELECT'} {sql(inner_name).replace('%', '%%')}({fmt})"
    args = "".join(f", {quote_ident(p.name)}" for p in r.params)
    call = f"format({pg_string(template)}{args})"
    if em.ctx.enabled("plsql.autonomous_output"):
        # what the session prints (DBMS_OUTPUT) and raises comes back with its result:
        # Oracle's DBMS_OUTPUT buffer is the caller's, autonomous or not
        em.ctx.applied("plsql.autonomous_output")
        run = f"oracompat.autonomous({call})"
        step = f"{IND}PERFORM {run};" if r.kind == "PROCEDURE" else f"{IND}RETURN {run}::{ret};"
        wrapper = ["BEGIN", step, "END;"]
    elif r.kind == "PROCEDURE":
        wrapper = ["BEGIN", f"{IND}PERFORM dblink_exec(oracompat.self_dsn(), {call});", "END;"]
    else:
        wrapper = [
            "DECLARE",
            f"{IND}result__ text;",
            "BEGIN",
            f"{IND}SELECT r INTO result__ FROM dblink(oracompat.self_dsn(), {call}) AS t(r text);",
            f"{IND}RETURN result__::{ret};",
            "END;",
        ]
    outer = routine_.create_function(routine_.routine_head(r.kind, qname, params, ret), wrapper)
    return inner + "\n\n" + outer
