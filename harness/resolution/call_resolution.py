"""Calls that do not resolve: the callee exists, but no signature of it takes these arguments.

PostgreSQL picks a function or procedure by its argument types, through implicit casts only: a
`numeric` argument does not reach an `integer` parameter, a `varchar` does not reach a `numeric`
one (Oracle converts both implicitly). Such a call deploys, and fails only when its line runs —
where a `WHEN OTHERS` handler can turn the failure into a plausible result. The reference resolver
(harness.resolution.references) hands every statement of a body to the server's Parse; a Parse that fails
with "function ... does not exist" (42883) or "is not unique" (42725) at a call whose callee
exists by name is such a call, reported with the server's own message.

A procedure is called with its OUT arguments too (since PostgreSQL 14 they take part in choosing
it), but the resolver can only Parse the call as a `SELECT`, where they do not: a call that fails
there is tried again against a stand-in, in `pg_temp`, that takes every parameter of each candidate
procedure as an input, in a savepoint that is rolled back.

Conservative: a call with an argument whose type only the server could guess (a record field of
unknown shape) says nothing sure and is not reported.
"""

from __future__ import annotations

from dataclasses import dataclass

import pglast
from pglast import ast, enums
from pglast.parser import scan
from pglast.stream import RawStream
from psycopg import pq

from harness.resolution.prepare_check import TEXT_OID, CheckText, single_statement, walk
from harness.resolution.routine_model import PgCatalog

UNRESOLVED_STATES = {"42883": "matches no signature", "42725": "is ambiguous"}
_EXISTS = """
SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE p.proname = %s AND (%s::text IS NULL OR n.nspname = %s) LIMIT 1"""
# The procedures a call of this name can reach: in its schema, or on the search path.
_PROCEDURES = """
SELECT pg_get_function_arguments(p.oid) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE p.proname = %s AND p.prokind = 'p'
  AND (n.nspname = %s OR (%s::text IS NULL AND n.nspname = ANY (current_schemas(false))))"""
PROBE = "pg_temp.migrator_call_probe"


def _call_at(stmt, position: int) -> ast.FuncCall | None:
    for node, _parent in walk(stmt):
        if isinstance(node, ast.FuncCall) and node.location == position - 1:
            return node
    return None


def _guessed(node: ast.FuncCall, check: CheckText) -> bool:
    """Whether an argument holds a parameter of a type the server had to guess."""
    for arg, _parent in walk(list(node.args or ())):
        number = arg.number or 0 if isinstance(arg, ast.ParamRef) else 0
        if 0 < number <= len(check.types) and not check.types[number - 1]:
            return True
    return False


@dataclass(frozen=True)
class CallCheck:
    resolved: bool  # the statement parsed with every call in it resolved (a procedure's included)
    problem: str | None = None  # a call whose callee exists but whose arguments select no signature


def check_calls(catalog: PgCatalog, check: CheckText, error: tuple[str, int | None, str] | None) -> CallCheck:
    """What the statement's Parse `error` (None: it parsed) says about the calls in it."""
    if error is None:
        return CallCheck(True)
    state, position, message = error
    if state == "42809":  # "... is a procedure": a CALL analysed as a SELECT, resolved
        return CallCheck(True)
    if state not in UNRESOLVED_STATES or not position:
        return CallCheck(False)
    stmt = single_statement(check.text)
    node = _call_at(stmt, position) if stmt is not None else None
    if node is None or _guessed(node, check):
        return CallCheck(False)
    parts = _name(node)
    schema, name = (parts[-2] if len(parts) > 1 else None), parts[-1]
    if catalog.one(_EXISTS, (name, schema, schema)) is None:
        return CallCheck(False)  # a callee that exists nowhere is a missing name (harness.resolution.missing_names)
    if _procedure_call_resolves(catalog, check, node, (schema, name)):
        return CallCheck(True)
    return CallCheck(False, f"call {'.'.join(parts)}(...) {UNRESOLVED_STATES[state]}: {message}")


def _name(node: ast.FuncCall) -> tuple[str, ...]:
    return tuple(f.sval or "" for f in node.funcname or () if isinstance(f, ast.String))


def _probe(arguments: str) -> str | None:
    """CREATE FUNCTION of the stand-in: a procedure's parameters (as pg_get_function_arguments
    prints them), every one an input, defaults kept."""
    try:
        stmt = pglast.parse_sql(f"CREATE FUNCTION {PROBE}({arguments}) RETURNS void LANGUAGE sql AS 'SELECT'")[0].stmt
    except Exception:  # pglast.parser.ParseError: then nothing is decided here
        return None
    if not isinstance(stmt, ast.CreateFunctionStmt):
        return None
    stmt.parameters = tuple(
        ast.FunctionParameter(
            name=p.name, argType=p.argType, mode=enums.FunctionParameterMode.FUNC_PARAM_IN, defexpr=p.defexpr
        )
        for p in stmt.parameters or ()
    )
    return RawStream()(stmt)


def _probe_text(check: CheckText, node: ast.FuncCall) -> str | None:
    """The statement with the call's name replaced by the stand-in's."""
    start = node.location or 0
    paren = next((t.start for t in scan(check.text) if t.start >= start and t.name == "ASCII_40"), None)
    return None if paren is None else check.text[:start] + PROBE + check.text[paren:]


def _procedure_call_resolves(catalog: PgCatalog, check: CheckText, node: ast.FuncCall, name: tuple) -> bool:
    schema, proc = name
    conn = catalog.conn
    try:
        with conn.transaction(force_rollback=True):
            candidates = conn.execute(_PROCEDURES, (proc, schema, schema)).fetchall()
            probes = [p for p in (_probe(args) for (args,) in candidates) if p is not None]
            text = _probe_text(check, node)
            if not probes or len(probes) < len(candidates) or text is None:
                return False
            for create in probes:
                conn.execute(create.encode("utf-8"))
            types = [t or TEXT_OID for t in check.types]
            res = conn.pgconn.prepare(b"", text.encode("utf-8"), types or None)
            return res.status == pq.ExecStatus.COMMAND_OK
    except Exception:  # psycopg.Error: unsure, so the call is not said to resolve
        return False


_OWN = """
SELECT 1 FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
WHERE p.proname = %s AND (%s::text IS NULL OR n.nspname = %s)
  AND n.nspname NOT IN ('pg_catalog', 'information_schema', 'oracompat') AND n.nspname NOT LIKE 'pg\\_%%'
LIMIT 1"""


def own_calls(catalog: PgCatalog, check: CheckText, seen: dict[tuple, bool]) -> int:
    """How many calls in the statement name a routine of the deployed code (not PostgreSQL's own,
    not the support library's); `seen` caches the look-ups."""
    stmt = single_statement(check.text)
    count = 0
    for node, _parent in walk(stmt) if stmt is not None else ():
        if not isinstance(node, ast.FuncCall):
            continue
        parts = _name(node)
        if parts not in seen:
            schema, name = (parts[-2] if len(parts) > 1 else None), parts[-1]
            seen[parts] = catalog.one(_OWN, (name, schema, schema)) is not None
        count += seen[parts]
    return count
