"""Let PostgreSQL resolve each SQL statement of a PL/pgSQL body: PREPARE it with typed parameters.

PL/pgSQL defers name resolution of its embedded SQL to the first execution of each statement, so a
body naming a missing table, column, function, type or schema deploys, and fails only when that
line runs (a WHEN OTHERS handler can even hide it). Here every statement and expression of a
deployed routine is turned into plain SQL — each reference to a PL/pgSQL variable, parameter,
record field (`NEW.x` → `($n).x`), label-qualified name or `$n` replaced by a parameter of the
variable's real type — and sent to the server as a protocol-level Parse (what PREPARE does) by
the execution role, inside a transaction that is rolled back. Parse analysis resolves tables,
columns, functions, operators and types exactly as execution would.

Conservative by construction: a name is missing only when the error's position points at a name
that the catalog confirms exists nowhere (a function of that name in no schema, a column that is
no variable, ...). A call whose arguments match no signature of an existing function is no missing
name: harness.resolution.call_resolution reports it as an unresolved call. Any other error (an operator
between parameter types the server had to guess) says nothing sure and is ignored.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pglast
import psycopg
from pglast import ast
from pglast.parser import scan
from psycopg import pq

from harness.quoting import quote_ident
from harness.resolution.pg_nodes import string_constant
from harness.resolution.routine_model import Expr, Routine

PREPARABLE = (ast.SelectStmt, ast.InsertStmt, ast.UpdateStmt, ast.DeleteStmt, ast.MergeStmt)
MISSING_STATES = {"42703", "42P01", "42883", "42704", "3F000"}
TEXT_OID = 25
_SAVEPOINT = "migrator_references"


@dataclass(frozen=True)
class CheckText:
    text: str
    types: tuple[int, ...] = ()
    names: tuple[str, ...] = ()  # the PL/pgSQL name each $n stands for
    missing: tuple[str, ...] = ()  # found without the server: a field no loop query returns


def walk(node: object, parent: ast.Node | None = None) -> Iterator[tuple[ast.Node, ast.Node | None]]:
    """(node, parent) for every pglast node under `node`."""
    if isinstance(node, ast.Node):
        yield node, parent
        for name in node:  # a node iterates over its attribute names
            yield from walk(getattr(node, name), node)
    elif isinstance(node, (list, tuple)):
        for item in node:
            yield from walk(item, parent)


def single_statement(text: str) -> ast.Node | None:
    try:
        stmts = pglast.parse_sql(text)
    except Exception:  # pglast.parser.ParseError: then PostgreSQL never ran it as written either
        return None
    return stmts[0].stmt if len(stmts) == 1 else None


def constant_string(expr: str) -> str | None:
    stmt = single_statement(f"SELECT {expr}")
    if not isinstance(stmt, ast.SelectStmt) or not stmt.targetList or len(stmt.targetList) != 1:
        return None
    return string_constant(stmt.targetList[0].val)


def _split_assignment(query: str) -> tuple[str, str] | None:
    depth = 0
    for tok in scan(query):
        depth += {"ASCII_40": 1, "ASCII_91": 1, "ASCII_41": -1, "ASCII_93": -1}.get(tok.name, 0)
        if depth == 0 and tok.name in ("COLON_EQUALS", "ASCII_61"):
            return query[: tok.start].strip(), query[tok.end + 1 :].strip()
    return None


def sources(expr: Expr) -> list[tuple[str, bool]]:
    """The SQL texts to analyse for one PL/pgSQL expression, each with "substitute variables"."""
    if expr.mode == 0:
        stmt = single_statement(expr.query)
        if isinstance(stmt, ast.CallStmt) and stmt.funccall is not None:
            return [(f"SELECT {expr.query[stmt.funccall.location :]}", True)]
        return [(expr.query, True)] if isinstance(stmt, PREPARABLE) else []
    if expr.mode == 2:
        out = [(f"SELECT {expr.query}", True)]
        text = constant_string(expr.query) if expr.dynamic else None
        if text is not None and isinstance(single_statement(text), PREPARABLE):
            out.append((text, False))  # EXECUTE of a constant: no PL/pgSQL variables inside
        return out
    parts = _split_assignment(expr.query)
    return [(f"SELECT {parts[0]}", True), (f"SELECT {parts[1]}", True)] if parts else []


@dataclass
class _Edit:
    start: int
    end: int
    template: str  # "{}" stands for the parameter
    type_oid: int
    name: str
    missing: str | None = None


def _token_at(by_start: dict[int, int], location: int | None) -> int | None:
    """The index of the token that starts at `location` (None: no such token, or no location)."""
    return None if location is None else by_start.get(location)


def _field_tokens(node: ast.ColumnRef, tokens: list, by_start: dict[int, int]) -> list | None:
    i = _token_at(by_start, node.location)
    n = len(node.fields or ())
    if i is None or i + 2 * (n - 1) >= len(tokens):
        return None
    picked = [tokens[i + 2 * k] for k in range(n)]
    dots = [tokens[i + 2 * k - 1] for k in range(1, n)]
    return picked if all(d.name == "ASCII_46" for d in dots) else None


def _named(edit: _Edit | None, node: ast.ColumnRef, parent) -> _Edit | None:
    """A replaced output column keeps its name (`v` → `$1 AS v`): a FOR loop's record fields, and
    what `#variable_conflict use_column` would have read as a column, are named by it."""
    if edit is None or edit.template != "{}":  # `($1).field` keeps its own name
        return edit
    last = node.fields[-1] if node.fields else None
    if not isinstance(parent, ast.ResTarget) or parent.name or not isinstance(last, ast.String) or last.sval is None:
        return edit
    edit.template += f" AS {quote_ident(last.sval)}"
    return edit


def _column_edit(node: ast.ColumnRef, tokens: list, by_start: dict, routine: Routine) -> _Edit | None:
    # `*` (A_Star), or a part pglast left unset: never a variable, so never substituted
    names = [f.sval if isinstance(f, ast.String) and f.sval is not None else "*" for f in node.fields or ()]
    picked = _field_tokens(node, tokens, by_start)
    if picked is None:
        return None
    symbols, head = routine.symbols, names[0]
    if head in symbols:
        var_end = 1
    elif head in routine.labels and len(names) > 1 and names[1] in symbols:
        var_end = 2
    else:
        return None
    name, sym = names[var_end - 1], symbols[names[var_end - 1]]
    whole = _Edit(picked[0].start, picked[-1].end + 1, "{}", sym.type_oid, name)
    if var_end == len(names):
        return whole
    if sym.composite and "*" not in names[var_end:]:  # a typed row: let the server check the field
        return _Edit(picked[0].start, picked[var_end - 1].end + 1, "({})", sym.type_oid, name)
    shape = routine.shapes.get(name)
    if shape is not None and len(names) == var_end + 1 and names[-1] != "*":  # a FOR-loop record
        field_type = shape.get(names[-1])
        missing = None if names[-1] in shape else f"field {name}.{names[-1]} (not a column of its loop's query)"
        return _Edit(whole.start, whole.end, "{}", field_type or 0, name, missing)
    return _Edit(whole.start, whole.end, "{}", 0, name)  # a record of unknown shape: untyped


def _param_edit(node: ast.ParamRef, by_start: dict, tokens: list, routine: Routine) -> _Edit | None:
    i, number = _token_at(by_start, node.location), node.number
    if i is None or number is None or not 0 < number <= len(routine.positional):
        return None
    tok = tokens[i]
    return _Edit(tok.start, tok.end + 1, "{}", routine.positional[number - 1], f"${number}")


def substitute(text: str, routine: Routine) -> CheckText | None:
    stmt = single_statement(text)
    if stmt is None:
        return None
    tokens = list(scan(text))
    by_start = {t.start: i for i, t in enumerate(tokens)}
    edits = []
    for node, parent in walk(stmt):
        if isinstance(node, ast.ColumnRef):
            edits.append(_named(_column_edit(node, tokens, by_start, routine), node, parent))
        elif isinstance(node, ast.ParamRef):
            edits.append(_param_edit(node, by_start, tokens, routine))
    out: list[str] = []
    types: list[int] = []
    names: list[str] = []
    last = 0
    kept = sorted((e for e in edits if e is not None), key=lambda e: e.start)
    for edit in kept:
        out += [text[last : edit.start], edit.template.replace("{}", f"${len(types) + 1}", 1)]
        types.append(edit.type_oid)
        names.append(edit.name)
        last = edit.end
    out.append(text[last:])
    missing = tuple(e.missing for e in kept if e.missing)
    return CheckText("".join(out), tuple(types), tuple(names), missing)


def describe(conn: psycopg.Connection, check: CheckText) -> dict[str, int] | None:
    """Column name -> type of the statement's result, as the server analyses it (None on error)."""
    if parse_on_server(conn, check, keep=True) is not None:
        return None
    res = conn.pgconn.describe_prepared(b"")
    shape = None
    if res.status == pq.ExecStatus.COMMAND_OK:
        # fname() is None only for a column number out of range
        shape = {(res.fname(i) or b"").decode("utf-8"): res.ftype(i) for i in range(res.nfields)}
    conn.execute(f"ROLLBACK TO SAVEPOINT {_SAVEPOINT}")
    return shape


def parse_on_server(conn: psycopg.Connection, check: CheckText, keep: bool = False) -> tuple[str, int | None] | None:
    """(SQLSTATE, 1-based character position) of the Parse error, or None when it analyses.
    Parameters the server cannot type on its own are retried as text."""
    error = parse_error(conn, check, keep)
    return error[:2] if error is not None else None


def parse_error(conn: psycopg.Connection, check: CheckText, keep: bool = False) -> tuple[str, int | None, str] | None:
    """`parse_on_server` with the server's primary message as a third element."""
    for types in (check.types, tuple(t or TEXT_OID for t in check.types)):
        conn.execute(f"SAVEPOINT {_SAVEPOINT}")
        res = conn.pgconn.prepare(b"", check.text.encode("utf-8"), list(types) or None)
        error = None
        if res.status != pq.ExecStatus.COMMAND_OK:
            state = (res.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode()
            pos = res.error_field(pq.DiagnosticField.STATEMENT_POSITION)
            message = (res.error_field(pq.DiagnosticField.MESSAGE_PRIMARY) or b"").decode("utf-8", "replace")
            error = (state, int(pos) if pos else None, message)
        if error is not None or not keep:  # `keep`: the caller describes it, then rolls back
            conn.execute(f"ROLLBACK TO SAVEPOINT {_SAVEPOINT}")
        if error is None or error[0] != "42P18" or 0 not in check.types:
            return error
    return error
