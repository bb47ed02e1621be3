"""Dynamic SQL: EXECUTE IMMEDIATE (INTO, USING, RETURNING) and the statement text of OPEN ... FOR.
A literal statement is converted like static SQL with its :binds numbered and typed by their USING
values (rule plsql.dynamic_bind_types); text built at run time is executed as written. BULK COLLECT here is refused in `emit_bulk`."""

from __future__ import annotations

from harness.quoting import pg_string
from migrator.convert.context import unconverted_marker
from migrator.convert.ddl.tokens import read_name
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_bulk as bulk_
from migrator.convert.plsql import emit_sql as sql_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import targets as targets_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.output import Out
from migrator.convert.plsql.statements import emits
from migrator.convert.plsql.symbols import Scope
from migrator.convert.sql.expression_types import DATE, NUMBER, STRING, TIMESTAMP
from migrator.convert.sql.implicit import UNKNOWN_BIND
from migrator.source.lexer import LexError, Token, string_value, tokenize

# A bind's Oracle type, as far as the converter knows it, spelled for the SQL converter.
_KIND_SPELLING: dict[str | None, str] = {NUMBER: "NUMBER", STRING: "VARCHAR2", DATE: "DATE", TIMESTAMP: "TIMESTAMP"}


@emits(A.ExecImmediate)
def st_execimmediate(em: Emitter, st: A.ExecImmediate, scope: Scope, out: Out) -> None:
    if any(mode != "IN" for mode, _ in st.using):
        sql = dynamic_sql(em, st.sql, scope)
        em.unconverted("EXECUTE IMMEDIATE USING OUT", "OUT binds of dynamic SQL", st.line)
        out.line(f"{unconverted_marker('EXECUTE IMMEDIATE USING OUT', sql)};")
        return
    using, sql = dynamic_with_binds(em, st.sql, [a for _, a in st.using], scope)
    into = st.into or st.returning
    text = f"EXECUTE {sql}"
    setup: list[str] = []
    finish: list[str] = []
    if st.bulk:
        bulk_.bulk_execute(em, st, sql, out)
        return
    if into:
        names, setup, finish = targets_.into_targets(em, into, scope)
        # Oracle raises NO_DATA_FOUND / TOO_MANY_ROWS for a dynamic single-row query too
        text += f" INTO {'STRICT ' if st.into else ''}{', '.join(names)}"
    if using:
        text += f" USING {using}"
    sql_.into_statement(em, text, setup, finish, out)


def dynamic_with_binds(em: Emitter, sql_toks, using: list, scope) -> tuple[str, str]:
    """(the USING list, the statement): the binds' types are known to a literal statement's
    conversion (rule plsql.dynamic_bind_types), so that a VARCHAR2 bind compared with a NUMBER
    column converts as Oracle's implicit TO_NUMBER does (expr.implicit_from_text)."""
    typed = em.ctx.enabled("plsql.dynamic_bind_types") and len(sql_toks) == 1 and string_value(sql_toks[0]) is not None
    values = [exprs_.expr_typed(em, a, scope, typed=typed) for a in using]
    binds = [_KIND_SPELLING.get(arg.kind, UNKNOWN_BIND) for _, arg in values] if typed else None
    return ", ".join(text for text, _ in values), dynamic_sql(em, sql_toks, scope, binds)


def dynamic_sql(em: Emitter, toks, scope, binds: list[str] | None = None) -> str:
    """A literal statement is converted like static SQL, with :binds → $n in order of
    appearance (Oracle binds dynamic SQL by position; `binds` are their Oracle types, when
    known); other strings are built at run time, so only their placeholders can be rewritten
    (by oracompat.bind_positional)."""
    value = string_value(toks[0]) if len(toks) == 1 else None
    if value is not None:
        return literal_dynamic(em, value, toks[0], binds)
    em.ctx.note("dynamic SQL text built at run time is executed as is: its Oracle-specific SQL is not converted")
    return f"oracompat.bind_positional({exprs_.expr(em, toks, scope)})"


def _session_rows_truncate(em: Emitter, toks) -> str | None:
    """TRUNCATE TABLE of a global temporary table empties only the session's rows (SQL Language
    Reference, TRUNCATE TABLE: "on a temporary table, only the rows of the current session");
    its name is a view of those rows here (rule ddl.session_temporary_table), so DELETE FROM it."""
    if len(toks) < 3 or not toks[1].is_word("TABLE") or not em.ctx.enabled("ddl.session_temporary_table"):
        return None
    name, i = read_name(toks, 2)
    entry = em.ctx.catalog.lookup(*name) if len(name) <= 2 else None
    if entry is None or not entry.table.on_commit or i != len(toks):
        return None
    em.ctx.applied("ddl.session_temporary_table")
    return f"DELETE FROM {name.sql}"


def literal_dynamic(em: Emitter, value: str, tok, binds: list[str] | None = None) -> str:
    try:
        inner = tokenize(value)
    except LexError:
        em.unconverted("dynamic SQL", "cannot tokenize the statement text", tok)
        return unconverted_marker("dynamic SQL", value)
    if inner and inner[-1].is_op(";"):
        inner = inner[:-1]
    if inner and inner[0].is_word("BEGIN", "DECLARE"):
        em.unconverted("dynamic PL/SQL block", "an anonymous block executed dynamically", tok)
        return unconverted_marker("dynamic PL/SQL block", value)
    ph: dict[str, str] = {}
    types: dict[str, str] = {}
    n = 0
    walked = []
    for t in inner:
        if t.kind == "bind":
            n += 1
            name = f"plx__b{n}"
            ph[name] = f"${n}"
            if binds is not None and n <= len(binds):
                types[name] = binds[n - 1]
            walked.append(Token("ph", name, 0, 0))
        else:
            walked.append(t)
    head = inner[0].upper if inner else ""
    if head == "TRUNCATE" and (emptied := _session_rows_truncate(em, inner)) is not None:
        return pg_string(emptied)
    if head in ("SELECT", "WITH", "INSERT", "UPDATE", "DELETE", "MERGE"):
        from migrator.convert.plsql import sqlconv

        out = sqlconv.convert("stmt", exprs_.render(walked), em.ctx, types)
        if any(f"CAST({name} AS" in out for name in types):  # a bind converted by its type
            em.ctx.applied("plsql.dynamic_bind_types")
    else:
        out = exprs_.render(walked)  # DDL and the like: sqlglot's Oracle DDL is partial
        em.ctx.note(f"dynamic statement kept as written: {value[:60]}")
    for k, v in ph.items():
        out = out.replace(k, v)
    return pg_string(out)

    # ---- FORALL ------------------------------------------------------------------------------
    # ---- assignment targets --------------------------------------------------------------------
