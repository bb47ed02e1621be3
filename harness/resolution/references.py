"""Inner-reference resolution: are the names inside PL/pgSQL bodies real — on every engine?

PostgreSQL accepts a PL/pgSQL body whose queries name tables, columns or functions that do not
exist; it only fails when that line runs. Two methods resolve them without running the code:

* `plpgsql_check` (a Debian package / compose image), where the server has it: it checks every
  body statically; what it reports is listed as unresolved (the unit stays `unverified`).
* everywhere else, **pglast + PostgreSQL (PREPARE)**: pglast's PL/pgSQL parser reads each body
  fetched from `pg_proc`, and every embedded statement is handed to the server's own Parse with
  the variables as typed parameters (harness.resolution.prepare_check); a name the catalog confirms missing
  makes the unit `rejected` with that name (harness.resolution.missing_names).

Both run as the execution role: checking hostile code needs no privileges, and the PREPARE method
runs inside a transaction that is rolled back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import psycopg
from pglast import ast

from harness.engines.pg_sandbox import CHECK_SCHEMA, one
from harness.resolution.call_resolution import check_calls, own_calls
from harness.resolution.missing_names import missing_name
from harness.resolution.prepare_check import (
    CheckText,
    constant_string,
    describe,
    parse_error,
    single_statement,
    sources,
    substitute,
)
from harness.resolution.routine_model import PgCatalog, Routine, load_routine

METHOD_PLPGSQL_CHECK = "plpgsql_check"
METHOD_PREPARE = "pglast + PostgreSQL (PREPARE)"


@dataclass
class UnitReferences:
    """What one unit's routines reference, as one method resolved it."""

    method: str
    # plpgsql_check's errors; with PREPARE, calls whose callee exists but whose arguments match
    # none of its signatures (harness.resolution.call_resolution): unresolved
    problems: list[str] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # names PostgreSQL could not resolve, confirmed missing
    unchecked: list[str] = field(default_factory=list)  # routines whose body could not be read
    statements: int = 0  # statements and expressions the server analysed
    calls: int = 0  # calls of the deployed code's own routines in them that the server resolved
    skipped: int = 0  # not analysable before run time (DDL, dynamic SQL built at run time)


@dataclass
class RoutineTracker:
    """Records which PL/pgSQL routines each deployed unit defined last. A routine belongs to the
    unit whose transaction wrote its current `pg_proc` row (its `xmin`): a package body that
    replaces the stubs of its spec (`CREATE OR REPLACE`, same OID) owns them from then on, so what
    is wrong in the body is reported on the body. Each unit deploys in its own transaction, and
    transaction ids only grow in a scratch database's lifetime."""

    created: dict[str, list[int]] = field(default_factory=dict)
    _owner: dict[int, str] = field(default_factory=dict)
    _mark: int = 0

    def __call__(self, conn: psycopg.Connection, unit_id: str) -> None:
        rows = conn.execute(
            "SELECT p.oid::bigint, p.xmin::text::bigint FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang "
            "WHERE l.lanname = 'plpgsql' AND p.xmin::text::bigint > %s ORDER BY 1",
            (self._mark,),
        ).fetchall()
        for oid, xmin in rows:
            previous = self._owner.get(oid)
            if previous is not None and previous != unit_id:
                self.created[previous].remove(oid)
            if previous != unit_id:
                self.created.setdefault(unit_id, []).append(oid)
            self._owner[oid] = unit_id
            self._mark = max(self._mark, xmin)


def plpgsql_check_installed(conn: psycopg.Connection) -> bool:
    """Installed by the sandbox's admin into the fresh template (`check_references=True`), in a
    schema of its own that no converted code has on its search_path."""
    return conn.execute("SELECT 1 FROM pg_extension WHERE extname = 'plpgsql_check'").fetchone() is not None


_CHECK = f"""
SELECT t.level, t.message, coalesce(t.statement, '')
FROM {CHECK_SCHEMA}.plpgsql_check_function_tb(%(oid)s::oid::regprocedure,
       coalesce((SELECT tgrelid FROM pg_trigger WHERE tgfoid = %(oid)s::oid LIMIT 1), 0)::regclass) t
WHERE t.level = 'error'
"""


def _plpgsql_check(conn: psycopg.Connection, created: dict[str, list[int]]) -> dict[str, UnitReferences]:
    out: dict[str, UnitReferences] = {}
    for unit_id, oids in created.items():
        found = UnitReferences(METHOD_PLPGSQL_CHECK)
        for oid in oids:
            name = one(conn, "SELECT %s::oid::regprocedure::text", (oid,))[0]
            try:
                rows = conn.execute(_CHECK, {"oid": oid}).fetchall()
            except psycopg.Error as exc:
                found.problems.append(f"{name}: plpgsql_check failed: {str(exc).strip()}")
                continue
            found.problems += [f"{name}: {msg}" for _level, msg, _stmt in rows]
        out[unit_id] = found
    return out


def check_references(dsn: str, created: dict[str, list[int]]) -> tuple[str, dict[str, UnitReferences]]:
    """The method used, and per unit that created PL/pgSQL routines what their bodies reference
    that does not resolve: plpgsql_check where the template has it, else pglast + PREPARE."""
    with psycopg.connect(dsn, autocommit=True) as conn:
        if plpgsql_check_installed(conn):
            return METHOD_PLPGSQL_CHECK, _plpgsql_check(conn, created)
        with conn.transaction(force_rollback=True):
            return METHOD_PREPARE, resolve_in_transaction(conn, created)


def evidence_fields(method: str, found: UnitReferences | None) -> dict:
    """The reference fields of a unit's `UnitEvidence` (a unit without routines is resolved)."""
    if found is None:
        return {"reference_problems": [], "reference_method": method}
    return {
        "reference_problems": None if found.unchecked else found.problems,
        "missing_references": list(found.missing),
        "reference_method": method,
        "references_unchecked": list(found.unchecked),
    }


def _created_relation(stmt: object) -> ast.RangeVar | None:
    if isinstance(stmt, ast.CreateStmt):
        return stmt.relation
    if isinstance(stmt, ast.CreateTableAsStmt):
        return stmt.into.rel if stmt.into is not None else None
    if isinstance(stmt, ast.ViewStmt):
        return stmt.view
    if isinstance(stmt, ast.CreateSeqStmt):
        return stmt.sequence
    return None


def _created_name(stmt: object) -> str | None:
    # The grammar always names what a CREATE makes; pglast types each of these fields optional.
    relation = _created_relation(stmt)
    return relation.relname if relation is not None else None


def created_relations(routines: list[Routine]) -> frozenset[str]:
    """Relations some body creates (static DDL or EXECUTE of a constant): they may exist only at
    run time, so a reference to one is never reported missing."""
    names = set()
    for routine in routines:
        for expr in routine.exprs:
            texts = [expr.query] if expr.mode == 0 else []
            if expr.dynamic and (value := constant_string(expr.query)) is not None:
                texts.append(value)
            names |= {n for n in (_created_name(single_statement(t)) for t in texts) if n}
    return frozenset(names)


def resolve_in_transaction(
    conn: psycopg.Connection, created: dict[str, list[int]], ignore: frozenset[str] = frozenset()
) -> dict[str, UnitReferences]:
    """pglast + PREPARE over the routines each unit created, on a connection already inside a
    transaction that the caller rolls back (the candidate under repair may exist only there).
    Names in `ignore` are never reported missing (objects not deployed yet)."""
    conn.execute("SET LOCAL statement_timeout = 10000")
    catalog = PgCatalog(conn)
    routines = {unit: [load_routine(conn, oid, catalog) for oid in oids] for unit, oids in created.items()}
    made = created_relations([r for rs in routines.values() for r in rs])
    out: dict[str, UnitReferences] = {}
    seen: dict[tuple, bool] = {}
    for unit_id, unit_routines in routines.items():
        found = UnitReferences(METHOD_PREPARE)
        for routine in unit_routines:
            if routine.problem:
                found.unchecked.append(f"{routine.signature}: {routine.problem}")
                continue
            _check_routine(conn, routine, (made, ignore), (catalog, seen), found)
        out[unit_id] = found
    return out


def _check_routine(
    conn: psycopg.Connection,
    routine: Routine,
    names: tuple[frozenset[str], frozenset[str]],
    catalogs: tuple[PgCatalog, dict[tuple, bool]],
    found: UnitReferences,
) -> None:
    made, ignore = names
    catalog, seen = catalogs
    saved = _apply_config(catalog, routine.config)
    try:
        _describe_loops(conn, routine)
        for expr in routine.exprs:
            texts = sources(expr)
            found.skipped += not texts
            for text, replace in texts:
                check = substitute(text, routine) if replace else CheckText(text)
                if check is None:
                    found.skipped += 1
                    continue
                found.statements += 1
                error = parse_error(conn, check)
                missing: list[str | None] = list(check.missing)
                missing.append(missing_name(catalog, check, error[:2], routine, made, ignore) if error else None)
                for name in filter(None, missing):
                    if (entry := f"{name} ({routine.signature} line {expr.line})") not in found.missing:
                        found.missing.append(entry)
                calls = check_calls(catalog, check, error) if not missing[-1] else None
                if calls is not None and calls.resolved:
                    found.calls += own_calls(catalog, check, seen)
                if calls is not None and calls.problem:
                    if (entry := f"{routine.signature} line {expr.line}: {calls.problem}") not in found.problems:
                        found.problems.append(entry)
    finally:
        _apply_config(catalog, saved)


def _describe_loops(conn: psycopg.Connection, routine: Routine) -> None:
    """The columns of each FOR-loop record's query, so that `rec.field` gets its real type (and a
    field the query does not return is found). Loops over loops resolve in body order."""
    for name, query in routine.loops.items():
        check = substitute(query, routine)
        shape = describe(conn, check) if check is not None and not check.missing else None
        if shape is not None:
            routine.shapes[name] = shape


def _apply_config(catalog: PgCatalog, config: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """Apply a routine's own SET clauses for this transaction; returns the values they replaced."""
    previous = []
    for name, value in config:
        row = catalog.one("SELECT current_setting(%s, true)", (name,))
        previous.append((name, row[0] if row and row[0] is not None else ""))
        catalog.one("SELECT set_config(%s, %s, true)", (name, value))
    return previous
