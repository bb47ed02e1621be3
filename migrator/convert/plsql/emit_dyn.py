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

# Statements the DDL rules convert when EXECUTE IMMEDIATE runs them from a literal.
_DDL_HEADS = frozenset({"CREATE", "ALTER", "DROP", "GRANT", "REVOKE", "COMMENT"})

# A bind's Oracle type, as far as the converter knows it, spelled for the SQL converter.
_KIND_SPELLING: dict[str | None, str] = {NUMBER: "NUMBER", STRING: "VARCHAR2", DATE: "DATE", TIMESTAMP: "TIMESTAMP"}


@emits(A.ExecImmediate)
def st_execimmediate(em: Emitter, st: A.ExecImmediate, scope: Scope, out: Out) -> None:
    st = _out_binds_returned(em, st)
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


def _returning_binds(value: str) -> int:
    """How many :binds follow a DML statement's RETURNING ... INTO (0 when it has none)."""
    try:
        inner = [t for t in tokenize(value) if t.kind not in ("ws", "line_comment", "block_comment")]
    except LexError:
        return 0
    if not inner or not inner[0].is_word("INSERT", "UPDATE", "DELETE"):
        return 0
    k = next((i for i, t in enumerate(inner) if t.is_word("RETURNING", "RETURN")), None)
    into = next((i for i in range(k or 0, len(inner)) if inner[i].is_word("INTO")), None) if k is not None else None
    if into is None:
        return 0
    return sum(1 for t in inner[into + 1 :] if t.kind == "bind")


def _out_binds_returned(em: Emitter, st: A.ExecImmediate) -> A.ExecImmediate:
    """`USING IN a, OUT v` where the OUT binds are the statement's RETURNING ... INTO placeholders
    (the last binds, Oracle binds by position) is the same as `USING a RETURNING INTO v`."""
    outs = [k for k, (mode, _) in enumerate(st.using) if mode != "IN"]
    value = string_value(st.sql[0]) if len(st.sql) == 1 else None
    if not outs or st.returning or st.into or value is None or not em.ctx.enabled("plsql.dynamic_returning"):
        return st
    n = _returning_binds(value)
    if n != len(outs) or outs != list(range(len(st.using) - n, len(st.using))):
        return st
    if any(mode != "OUT" for mode, _ in st.using[-n:]):
        return st  # IN OUT: its value goes in too
    em.ctx.applied("plsql.dynamic_returning")
    returning = [toks for _, toks in st.using[-n:]]
    return A.ExecImmediate(st.sql, [], st.bulk, st.using[:-n], returning, line=st.line, label=st.label)


def dynamic_with_binds(em: Emitter, sql_toks, using: list, scope) -> tuple[str, str]:
    """(the USING list, the statement): the binds' types are known to a literal statement's
    conversion (rule plsql.dynamic_bind_types), so that a VARCHAR2 bind compared with a NUMBER
    column converts as Oracle's implicit TO_NUMBER does (expr.implicit_from_text)."""
    literal = len(sql_toks) == 1 and string_value(sql_toks[0]) is not None
    typed = em.ctx.enabled("plsql.dynamic_bind_types") and literal
    inline = em.ctx.enabled("plsql.dynamic_bind_literals") and not literal
    values = [exprs_.expr_typed(em, a, scope, typed=typed or inline) for a in using]
    binds = [_KIND_SPELLING.get(arg.kind, UNKNOWN_BIND) for _, arg in values] if typed else None
    sql = dynamic_sql(em, sql_toks, scope, binds)
    strings = [k for k, (_, arg) in enumerate(values, 1) if arg.kind == STRING] if inline else []
    if strings:
        sql = inlined_strings(em, sql, [(k, values[k - 1][0]) for k in strings])
    return ", ".join(text for text, _ in values), sql


def inlined_strings(em: Emitter, sql: str, strings: list[tuple[int, str]]) -> str:
    """Statement text built at run time cannot be converted, so a VARCHAR2 bind would reach
    PostgreSQL as a typed varchar parameter, and `number_column = $1` has no operator (Oracle
    converts the string implicitly). Such a bind is written into the text as a quoted literal
    instead (rule plsql.dynamic_bind_literals): PostgreSQL reads an untyped literal as the type of
    what it meets — a number, a date, text — as Oracle converts the bind; quote_nullable keeps the
    value a value, never SQL. The bind stays in USING, unreferenced, so the others keep $n."""
    em.ctx.applied("plsql.dynamic_bind_literals")
    positions = ", ".join(str(k) for k, _ in strings)
    texts = ", ".join(f"CAST({text} AS text)" for _, text in strings)
    return f"oracompat.bind_literals({sql}, ARRAY[{positions}], ARRAY[{texts}])"


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
    if head in ("INSERT", "UPDATE", "DELETE") and em.ctx.enabled("plsql.dynamic_returning"):
        walked = _without_returning_into(em, walked)
    if head in ("SELECT", "WITH", "INSERT", "UPDATE", "DELETE", "MERGE"):
        from migrator.convert.plsql import sqlconv

        out = sqlconv.convert("stmt", exprs_.render(walked), em.ctx, types)
        if any(f"CAST({name} AS" in out for name in types):  # a bind converted by its type
            em.ctx.applied("plsql.dynamic_bind_types")
    elif head in _DDL_HEADS and not ph and em.ctx.enabled("plsql.dynamic_ddl"):
        # an install script's DDL: converted by the DDL rules, like the same statement in a script
        from migrator.convert.ddl.dispatch import convert_statement_text

        out = convert_statement_text(value.strip().rstrip(";"), em.ctx)
        em.ctx.applied("plsql.dynamic_ddl")
    else:
        out = exprs_.render(walked)  # DDL and the like: sqlglot's Oracle DDL is partial
        em.ctx.note(f"dynamic statement kept as written: {value[:60]}")
    for k, v in ph.items():
        out = out.replace(k, v)
    return pg_string(out)


def _without_returning_into(em: Emitter, walked: list[Token]) -> list[Token]:
    """DML text whose RETURNING ... INTO names placeholders: PL/pgSQL's EXECUTE ... INTO receives
    the returned row (the statement's RETURNING INTO targets, rule plsql.dynamic_returning), so the
    INTO part goes; the placeholders after INTO are the last ones, so the others keep their $n."""
    code = [i for i, t in enumerate(walked) if t.kind not in ("ws", "line_comment", "block_comment")]
    ret = next((i for i in code if walked[i].is_word("RETURNING", "RETURN")), None)
    into = next((i for i in code if ret is not None and i > ret and walked[i].is_word("INTO")), None)
    if into is None:
        return walked
    em.ctx.applied("plsql.dynamic_returning")
    return walked[:into]

    # ---- FORALL ------------------------------------------------------------------------------
    # ---- assignment targets --------------------------------------------------------------------
