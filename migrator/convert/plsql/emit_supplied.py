"""Oracle-supplied packages in PL/SQL (rule plsql.supplied_package): procedure calls such as
``DBMS_LOB.APPEND(v_clob, 'x')`` or ``DBMS_SQL.COLUMN_VALUE(c, 1, v)`` become calls of the
``oracompat`` library whose IN OUT / OUT results are assigned back to the arguments; package types
(``DBMS_SQL.VARCHAR2_TABLE``) and exceptions (``DBMS_ASSERT.INVALID_SQL_NAME``) resolve in
`resolver.py`; FORMAT_ERROR_STACK / FORMAT_ERROR_BACKTRACE read the error of the handler they stand in (or the one a handler
published, when they stand in a routine a handler calls). Functions in expressions are the SQL
rules' (`sql/supplied.py`); the table of members is `migrator.convert.supplied`.

A reference to a package without a PostgreSQL equivalent (UTL_FILE, UTL_HTTP ...) becomes a marker
here too; the unit reports it once, with every call site (`supplied.report_redesign`).
"""

from __future__ import annotations

from harness.quoting import pg_string, quote_ident
from migrator.convert import supplied as S
from migrator.convert.context import MARKER_TOKEN, unconverted_marker
from migrator.convert.plsql import ast as A
from migrator.convert.plsql import emit_call as call_
from migrator.convert.plsql import exprs as exprs_
from migrator.convert.plsql import sqlconv
from migrator.convert.plsql import targets as targets_
from migrator.convert.plsql.emitter import Emitter
from migrator.convert.plsql.output import Out
from migrator.convert.plsql.parser import norm_name
from migrator.convert.plsql.symbols import Scope
from migrator.source.lexer import LexError, Token, split_top_level, string_value, tokenize

ERROR_FUNCTIONS = ("FORMAT_ERROR_STACK", "FORMAT_ERROR_BACKTRACE")


def supplied(em: Emitter, parts, scope: Scope | None = None) -> tuple[S.Ref, int] | None:
    return em.resolver.supplied(parts, scope)


# ---- procedure calls ---------------------------------------------------------------------
def supplied_call(em: Emitter, parts, st: A.Call, scope: Scope, out: Out) -> bool:
    """A call of an Oracle-supplied package's procedure (False: not one, nothing written)."""
    hit = supplied(em, parts, scope)
    if hit is None or hit[1] != len(parts):
        return False
    ref = hit[0]
    original = exprs_.render(st.name) + (f"({exprs_.render(st.args)})" if st.args else "")
    if ref.package == "DBMS_OUTPUT":
        call_.dbms_output(em, ref.member, st, scope, out)
        return True
    if S.is_redesign(ref):
        out.line(f"{S.redesign_marker(ref, original)};")
        return True
    m = S.member(ref)
    if m is None or m.kind != "PROCEDURE":
        why = "a function called as a statement" if m is not None else "no conversion for this member"
        em.unconverted(S.SUPPLIED_CONSTRUCT, f"{ref.label.lower()}: {why}", st.line)
        out.line(f"{unconverted_marker(S.SUPPLIED_CONSTRUCT, original)};")
        return True
    if (off := em.rule_off("plsql.supplied_package", ref.label, original, st.line)) is not None:
        out.line(f"{off};")
        return True
    if m.noop:
        em.ctx.applied("plsql.supplied_package")
        out.line(f"NULL;  -- {m.noop}")
        return True
    bound = supplied_args(em, m, st.args, scope, st.line)
    if bound is None:
        out.line(f"{unconverted_marker(S.SUPPLIED_CONSTRUCT, original)};")
        return True
    call, targets = bound
    em.ctx.applied("plsql.supplied_package")
    if not targets:
        out.line(f"PERFORM {call};")
    elif len(targets) == 1:
        lv = targets_.lvalue(em, targets[0], scope)
        if lv.target.startswith("aa:"):
            assign = lv.target[3:].replace("{value}", call)
        else:
            assign = f"{lv.target} := {call}"
        out.each(lv.setup + [f"{assign};"] + lv.finish)
    else:
        names, setup, finish = targets_.into_targets(em, targets, scope)
        out.each(setup + [f"SELECT * FROM {call} INTO {', '.join(names)};"] + finish)
    return True


def supplied_args(em: Emitter, m: S.Member, toks, scope: Scope, line: int) -> tuple[str, list] | None:
    """(the call's SQL text, the argument tokens its IN OUT/OUT results go to, in the order the
    function returns them), or None when the arguments do not fit the member (reported)."""
    given: dict[int, list[Token]] = {}
    named = False
    for k, arg in enumerate(split_top_level(toks or [])):
        if len(arg) > 2 and arg[1].is_op("=>"):
            hit = m.param(norm_name(arg[0]))
            if hit is None:
                em.unconverted(S.SUPPLIED_CONSTRUCT, f"{m.label.lower()} has no parameter {arg[0].text}", line)
                return None
            given[hit[0]], named = arg[2:], True
        elif k < len(m.params):
            given[k] = arg
        else:
            em.unconverted(S.SUPPLIED_CONSTRUCT, f"{m.label.lower()}: too many arguments", line)
            return None
    missing = [p.name for k, p in enumerate(m.params) if k not in given and not p.default]
    if missing:
        em.unconverted(S.SUPPLIED_CONSTRUCT, f"{m.label.lower()}: argument {missing[0]} missing", line)
        return None
    named = named or any(k not in given for k in range(max(given, default=-1) + 1))
    targets = [given[k] for k, p in enumerate(m.params) if k in given and p.mode != "IN"]
    if named:  # a gap before a given argument, or named arguments: named notation throughout
        args = named_args(em, m, given, scope)
    else:
        args = [
            supplied_value_text(em, m, p.name, given[k], scope)
            for k, p in enumerate(m.params)
            if k in given and p.mode != "OUT"
        ]
    return f"{m.pg}({', '.join(args)})", targets


def named_args(em: Emitter, m: S.Member, given: dict, scope: Scope) -> list[str]:
    return [
        f"{quote_ident(p.name)} => {supplied_value_text(em, m, p.name, given[k], scope)}"
        for k, p in enumerate(m.params)
        if k in given and p.mode != "OUT"
    ]


def supplied_value_text(em: Emitter, m: S.Member, param: str, arg: list[Token], scope: Scope) -> str:
    if (
        (m.label, param) in (("DBMS_SQL.PARSE", "statement"), ("DBMS_XMLGEN.NEWCONTEXT", "querystring"))
        and len(arg) == 1
        and string_value(arg[0]) is not None
    ):  # a literal statement: converted as static SQL (binds kept: both bind by name)
        return dbms_sql_statement(em, string_value(arg[0]) or "", arg[0])
    if m.label == "DBMS_SQL.BIND_VARIABLE" and param == "value" and len(arg) == 1 and arg[0].is_word("NULL"):
        return "NULL::text"  # the bind's type comes from the value: a bare NULL has none
    return exprs_.expr(em, arg, scope)


def dbms_sql_statement(em: Emitter, value: str, tok: Token) -> str:
    """A literal statement for DBMS_SQL.PARSE, converted like static SQL with its :name binds
    kept (DBMS_SQL binds by name)."""
    try:
        inner = tokenize(value)
    except LexError:
        return pg_string(value)
    head = inner[0].upper if inner else ""
    if head not in ("SELECT", "WITH", "INSERT", "UPDATE", "DELETE", "MERGE"):
        em.ctx.note(f"DBMS_SQL statement kept as written: {value[:60]}")
        return pg_string(value)
    ph: dict[str, str] = {}
    walked = []
    for t in inner:
        if t.kind == "bind":
            name = f"plx__b{len(ph) + 1}"
            ph[name] = t.text
            walked.append(Token("ph", name, 0, 0))
        else:
            walked.append(t)
    out = sqlconv.convert("stmt", exprs_.render(walked), em.ctx, {})
    for k, v in ph.items():
        out = out.replace(k, v)
    if MARKER_TOKEN in out:  # never hide a marker inside a string: PostgreSQL must refuse it
        return unconverted_marker("DBMS_SQL statement", value)
    return pg_string(out)


# ---- names in expressions ------------------------------------------------------------------
def supplied_value(em: Emitter, parts, toks, j, scope):
    """FORMAT_ERROR_STACK / FORMAT_ERROR_BACKTRACE, which read the handler's error; everything
    else supplied goes to the SQL rules (None)."""
    hit = supplied(em, parts, scope)
    if hit is None or hit[1] != len(parts) or hit[0].package != "DBMS_UTILITY":
        return None
    what = hit[0].member
    if what not in ERROR_FUNCTIONS:
        return None
    if j + 1 < len(toks) and toks[j].is_op("(") and toks[j + 1].is_op(")"):
        j += 2
    if (off := em.rule_off("plsql.supplied_package", f"DBMS_UTILITY.{what}", f"DBMS_UTILITY.{what}")) is not None:
        return off, j, "VARCHAR2"
    em.ctx.applied("plsql.supplied_package")
    err = em.frame.handler_error
    if err is None:  # outside a handler: the error a handler published (error_push)
        return f"oracompat.dbms_utility_{what.lower()}()", j, "VARCHAR2"
    if what == "FORMAT_ERROR_STACK":
        return "oracompat.dbms_utility_format_error_stack(SQLSTATE, SQLERRM)", j, "VARCHAR2"
    err["context"] = True
    return "oracompat.dbms_utility_format_error_backtrace(error__context)", j, "VARCHAR2"


def handler_error_lines(em: Emitter, err: dict, out: Out) -> None:
    """What a handler does first: fetch the error's context (FORMAT_ERROR_BACKTRACE) and, in a
    schema that reads the error outside handlers, publish it for the routines it calls."""
    push = "error_stack_callee" in em.catalog.flags and em.ctx.enabled("plsql.supplied_package")
    if not (err["context"] or push):
        return
    out.line("GET STACKED DIAGNOSTICS error__context = PG_EXCEPTION_CONTEXT;")
    if push:
        em.ctx.applied("plsql.supplied_package")
        out.line("PERFORM oracompat.error_push(SQLSTATE, SQLERRM, error__context);")
