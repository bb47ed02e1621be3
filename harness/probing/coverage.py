"""Statement and branch coverage of deployed PL/pgSQL routines, measured by execution.

PostgreSQL has no built-in statement coverage (plpgsql_check's profiler is a C extension that the
embedded server does not ship), so the judge instruments a *copy*: after the units are deployed
into the template database, each PL/pgSQL routine a unit created is re-created with a probe
before every statement and an explicit ELSE probe on every IF that has none (the branch where
no condition held). The statement positions come from PostgreSQL's own PL/pgSQL parser
(pglast.parse_plpgsql); the insertion points from a scanner that knows strings, dollar quotes,
quoted identifiers and comments, so a probe never lands inside a literal.

A probe reports itself once per session with a NOTICE carrying a per-run nonce; the runner takes
those notices out of what the step printed (DBMS_OUTPUT is compared without them). A probe is an
IF whose condition calls the probe function (no PERFORM, no SQL statement of the routine's own),
so FOUND, ROW_COUNT and the handled exception are untouched: the instrumented routine behaves
exactly as the original.
A routine that cannot be instrumented keeps its original body and is listed, never guessed.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

import pglast
import psycopg

from harness.engines.pg_sandbox import one
from harness.probing.plpgsql_text import STATEMENT_STARTERS as _STARTERS
from harness.probing.plpgsql_text import PlpgsqlToken, matching_end_if, plain_declarations, scan

PROBE_PREFIX = "migrator-cov"
_SCHEMA = "migrator_cov"
_HIT_FUNCTION = f"{_SCHEMA}.hit"
# One probe function per instrumented database: it reports each probe once per session (a custom
# setting remembers what was reported; when a rollback forgets it, the probe reports again, which
# is harmless). A session whose NOTICEs would be lost — an autonomous transaction's dblink session
# — names a function in `migrator.notice_sink` that carries the line back to the caller; the
# support library's DBMS_OUTPUT honours the same setting.
_HIT_SQL = """
CREATE SCHEMA IF NOT EXISTS migrator_cov;
CREATE OR REPLACE FUNCTION migrator_cov.hit(p_probe text) RETURNS boolean
LANGUAGE plpgsql AS $cov$
DECLARE
    v_seen text := coalesce(pg_catalog.current_setting('migrator.cov', true), '');
    v_sink text := nullif(pg_catalog.current_setting('migrator.notice_sink', true), '');
    v_line text := '{prefix}:' || p_probe;
BEGIN
    -- the sink may run instrumented code itself: a probe reached from inside a probe is ignored
    IF pg_catalog.strpos(v_seen, '|' || p_probe || '|') = 0
       AND coalesce(pg_catalog.current_setting('migrator.cov_busy', true), '') <> 'on' THEN
        PERFORM pg_catalog.set_config('migrator.cov', v_seen || '|' || p_probe || '|', false);
        IF v_sink IS NOT NULL AND pg_catalog.to_regprocedure(v_sink || '(text)') IS NOT NULL THEN
            PERFORM pg_catalog.set_config('migrator.cov_busy', 'on', false);
            BEGIN
                EXECUTE pg_catalog.format('SELECT %s($1)', pg_catalog.to_regprocedure(v_sink || '(text)')::regproc)
                    USING v_line;
            EXCEPTION WHEN OTHERS THEN  -- a sink that fails loses a hit, never the step
                NULL;
            END;
            PERFORM pg_catalog.set_config('migrator.cov_busy', '', false);
        ELSE
            RAISE NOTICE '%', v_line;
        END IF;
    END IF;
    RETURN true;
END;
$cov$;
"""

# The word a statement of each kind starts with; assignments and SQL statements start with the
# first token of their own text. Blocks are not probed (their first statement is).
_LEADING = {
    "PLpgSQL_stmt_if": ("IF",),
    "PLpgSQL_stmt_case": ("CASE",),
    "PLpgSQL_stmt_loop": ("LOOP",),
    "PLpgSQL_stmt_while": ("WHILE",),
    "PLpgSQL_stmt_fori": ("FOR",),
    "PLpgSQL_stmt_fors": ("FOR",),
    "PLpgSQL_stmt_forc": ("FOR",),
    "PLpgSQL_stmt_dynfors": ("FOR",),
    "PLpgSQL_stmt_foreach_a": ("FOREACH",),
    "PLpgSQL_stmt_exit": ("EXIT", "CONTINUE"),
    "PLpgSQL_stmt_return": ("RETURN",),
    "PLpgSQL_stmt_return_next": ("RETURN",),
    "PLpgSQL_stmt_return_query": ("RETURN",),
    "PLpgSQL_stmt_raise": ("RAISE",),
    "PLpgSQL_stmt_assert": ("ASSERT",),
    "PLpgSQL_stmt_dynexecute": ("EXECUTE",),
    "PLpgSQL_stmt_getdiag": ("GET",),
    "PLpgSQL_stmt_open": ("OPEN",),
    "PLpgSQL_stmt_fetch": ("FETCH", "MOVE"),
    "PLpgSQL_stmt_close": ("CLOSE",),
    "PLpgSQL_stmt_perform": ("PERFORM",),
    "PLpgSQL_stmt_call": ("CALL", "DO"),
    "PLpgSQL_stmt_commit": ("COMMIT",),
    "PLpgSQL_stmt_rollback": ("ROLLBACK",),
}
_FROM_TEXT = {"PLpgSQL_stmt_assign": "expr", "PLpgSQL_stmt_execsql": "sqlstmt"}


@dataclass(frozen=True)
class Probe:
    id: str  # "<oid>.<n>", unique in the database
    routine: str  # regprocedure text, e.g. hr.raise_salary(bigint,numeric)
    line: int  # line in the routine's body
    kind: str  # "statement" | "else" (an IF's implicit ELSE) | "unreachable" (after RAISE/RETURN/EXIT)

    def where(self) -> str:
        """`routine line N` (the routine without its argument types, which only add noise)."""
        return f"{self.routine.split('(')[0]} line {self.line}" + (" (else)" if self.kind == "else" else "")


@dataclass
class CoveragePlan:
    prefix: str  # NOTICE prefix of this run's probes (with a nonce)
    probes: dict[str, list[Probe]] = field(default_factory=dict)  # unit id -> probes
    skipped: dict[str, list[str]] = field(default_factory=dict)  # unit id -> "routine: reason"

    def hit(self, notice: str) -> str | None:
        """The probe id a NOTICE reports, or None for any other NOTICE."""
        return notice[len(self.prefix) + 1 :] if notice.startswith(self.prefix + ":") else None


@dataclass(frozen=True)
class Coverage:
    covered: int
    total: int
    uncovered: tuple[str, ...]  # "routine line N" / "routine line N (else)", in body order
    skipped: tuple[str, ...] = ()  # routines that could not be instrumented
    unreachable: tuple[str, ...] = ()  # statements after an unconditional RAISE/RETURN/EXIT: dead code

    @property
    def complete(self) -> bool:
        return self.covered == self.total and not self.skipped

    @property
    def percent(self) -> float:
        return 100.0 if self.total == 0 else round(100.0 * self.covered / self.total, 1)

    def describe(self) -> str:
        text = f"coverage {self.percent:g} %"
        if self.uncovered:
            more = f" (+{len(self.uncovered) - 8} more)" if len(self.uncovered) > 8 else ""
            text += ": not executed " + ", ".join(self.uncovered[:8]) + more
        if self.skipped:
            text += "; not instrumented: " + "; ".join(self.skipped)
        if self.unreachable:
            text += "; unreachable (dead code): " + ", ".join(self.unreachable)
        return text


def coverage_of(plan: CoveragePlan, unit_id: str, hits: set[str]) -> Coverage | None:
    """The unit's coverage from the probe ids seen; None when it has no PL/pgSQL routine."""
    probes, skipped = plan.probes.get(unit_id, []), plan.skipped.get(unit_id, [])
    if not probes and not skipped:
        return None
    dead = tuple(p.where() for p in probes if p.kind == "unreachable")
    live = [p for p in probes if p.kind != "unreachable"]
    missed = tuple(p.where() for p in live if p.id not in hits)
    return Coverage(len(live) - len(missed), len(live), missed, tuple(skipped), dead)


def instrument(dsn: str, created: dict[str, list[int]]) -> CoveragePlan:
    """Re-create every PL/pgSQL routine in `created` (unit id -> routine OIDs) with probes, on
    the execution role's connection. Returns where the probes are. Routines a run deployed
    before its units (ids in angle brackets, e.g. "<preamble>": the support library) are left
    as they are: their coverage is nobody's verdict."""
    created = {u: oids for u, oids in created.items() if not u.startswith("<")}
    plan = CoveragePlan(f"{PROBE_PREFIX}-{uuid.uuid4().hex[:10]}")
    with psycopg.connect(dsn, autocommit=True) as conn:
        if created:
            conn.execute(_HIT_SQL.replace("{prefix}", plan.prefix).encode("utf-8"))
        for unit_id, oids in created.items():
            for oid in oids:
                _instrument_routine(conn, plan, unit_id, oid)
    return plan


def _instrument_routine(conn: psycopg.Connection, plan: CoveragePlan, unit_id: str, oid: int) -> None:
    name, definition, body = one(
        conn,
        "SELECT p.oid::regprocedure::text, pg_catalog.pg_get_functiondef(p.oid), p.prosrc "
        "FROM pg_catalog.pg_proc p WHERE p.oid = %s",
        (oid,),
    )
    try:
        tree = _parse(conn, oid, definition, body)
        inserts, probes = _plan_routine(tree, body, oid, name)
    except Exception as exc:  # pglast's parser refuses it, or a position is not found: report it
        plan.skipped.setdefault(unit_id, []).append(f"{name}: {type(exc).__name__}: {str(exc)[:120]}")
        return
    if not probes:
        return
    new_body = _apply(body, inserts)
    start = definition.find(body)
    if start < 0:
        plan.skipped.setdefault(unit_id, []).append(f"{name}: body not found in its definition")
        return
    try:
        conn.execute((definition[:start] + new_body + definition[start + len(body) :]).encode("utf-8"))
    except psycopg.Error as exc:
        plan.skipped.setdefault(unit_id, []).append(f"{name}: {(exc.diag.message_primary or str(exc)).strip()}")
        return
    plan.probes.setdefault(unit_id, []).extend(probes)


def _parse(conn: psycopg.Connection, oid: int, definition: str, body: str) -> list:
    """PostgreSQL's PL/pgSQL parse tree of a routine. libpg_query's parser has no catalog: it
    refuses a schema-qualified or %TYPE declaration type, so on failure the routine is parsed
    again with a plain header and such types spelled `text` (line numbers unchanged: only the
    statement structure is read from the tree)."""
    try:
        return pglast.parse_plpgsql(definition)
    except Exception:
        return pglast.parse_plpgsql(_plain_definition(conn, oid, plain_declarations(body)))


def _plain_definition(conn: psycopg.Connection, oid: int, body: str) -> str:
    kind, retset, rettype, names, modes, nargs = one(
        conn,
        "SELECT p.prokind, p.proretset, p.prorettype::regtype::text, p.proargnames, p.proargmodes, p.pronargs "
        "FROM pg_catalog.pg_proc p WHERE p.oid = %s",
        (oid,),
    )
    modes = modes or ["i"] * nargs
    names = names or [""] * len(modes)
    word = {"i": "IN", "o": "OUT", "b": "INOUT", "v": "VARIADIC", "t": "OUT"}
    args = ", ".join(
        f"{word[m]} {n or ''} {'text[]' if m == 'v' else 'text'}".replace("  ", " ") for m, n in zip(modes, names)
    )
    tag = "$plain$" if "$plain$" not in body else "$plain_" + uuid.uuid4().hex[:8] + "$"
    if kind == "p":
        return f"CREATE PROCEDURE plain({args}) LANGUAGE plpgsql AS {tag}{body}{tag}"
    if any(m in "obt" for m in modes):
        returns = "RETURNS SETOF record " if retset else ""
    else:
        base = rettype if rettype in ("trigger", "void", "event_trigger") else "text"
        returns = f"RETURNS {'SETOF ' if retset else ''}{base} "
    return f"CREATE FUNCTION plain({args}) {returns}LANGUAGE plpgsql AS {tag}{body}{tag}"


def _probe_sql(probe_id: str) -> str:
    return f"IF {_HIT_FUNCTION}('{probe_id}') THEN NULL; END IF; "


def _plan_routine(tree: list, body: str, oid: int, name: str) -> tuple[list[tuple[int, str]], list[Probe]]:
    """Where probes go in `body`, and the probes (those of kind "unreachable" get no insertion:
    they only list dead statements)."""
    tokens = scan(body)
    by_line: dict[int, list[int]] = {}
    for i, tok in enumerate(tokens):
        by_line.setdefault(tok.line, []).append(i)
    inserts: list[tuple[int, str]] = []
    probes: list[Probe] = []
    unreachable: list[Probe] = []
    for kind, line, leading in _statements(tree):
        if kind == "unreachable":  # no probe can ever fire: listed, and out of the denominator
            unreachable.append(Probe(f"{oid}.u{len(unreachable) + 1}", name, line, "unreachable"))
            continue
        index = _statement_token(tokens, by_line.get(line, []), leading)
        if index is None:
            continue
        probe = Probe(f"{oid}.{len(probes) + 1}", name, line, "statement")
        inserts.append((_label_start(tokens, index), _probe_sql(probe.id)))
        probes.append(probe)
        if kind == "else":
            end = matching_end_if(tokens, index)
            if end is None:
                continue
            probe = Probe(f"{oid}.{len(probes) + 1}", name, line, "else")
            inserts.append((tokens[end].start, "ELSE " + _probe_sql(probe.id)))
            probes.append(probe)
    return inserts, probes + unreachable


def _statements(node, dead: bool = False):
    """(kind, line, leading words) of every statement in body order; kind "else" marks an IF
    without an ELSE branch (it gets a probe for that branch as well), kind "unreachable" a
    statement that follows an unconditional RAISE, RETURN, EXIT or CONTINUE in the same list."""
    if isinstance(node, list):
        after_end = False
        for item in node:
            yield from _statements(item, dead or after_end)
            after_end = after_end or _terminates(item)
        return
    if not isinstance(node, dict):
        return
    for key, value in node.items():
        if key.startswith("PLpgSQL_stmt_") and isinstance(value, dict) and "lineno" in value:
            leading = _leading(key, value)
            if leading:
                kind = "else" if key == "PLpgSQL_stmt_if" and not value.get("else_body") else "statement"
                yield ("unreachable" if dead else kind), value["lineno"], leading
        yield from _statements(value, dead)


def _terminates(item) -> bool:
    """A statement after which nothing in the same list runs: RAISE EXCEPTION (or a re-raise),
    RETURN (not RETURN NEXT/QUERY), EXIT/CONTINUE without WHEN."""
    if not isinstance(item, dict) or len(item) != 1:
        return False
    ((key, value),) = item.items()
    if key == "PLpgSQL_stmt_raise":
        return value.get("elog_level", 21) >= 21  # ERROR (the default level) and above
    if key == "PLpgSQL_stmt_return":
        return True
    return key == "PLpgSQL_stmt_exit" and "cond" not in value


def _leading(key: str, stmt: dict) -> tuple[str, ...]:
    if key in _LEADING:
        return _LEADING[key]
    field_name = _FROM_TEXT.get(key)
    if field_name is None:
        return ()
    query = stmt.get(field_name, {}).get("PLpgSQL_expr", {}).get("query", "")
    first = next(iter(scan(query)), None)
    return (first.text.upper() if first and not first.text.startswith('"') else first.text,) if first else ()


def _statement_token(tokens: list[PlpgsqlToken], on_line: list[int], leading: tuple[str, ...]) -> int | None:
    for i in on_line:
        tok = tokens[i]
        text = tok.text if tok.text.startswith('"') else tok.text.upper()
        if text in leading and (i == 0 or tokens[i - 1].text.upper() in _STARTERS):
            return i
    return None


def _label_start(tokens: list[PlpgsqlToken], index: int) -> int:
    """A probe goes before a statement's <<label>>, never between the label and its statement."""
    if index >= 3 and tokens[index - 1].text == ">>" and tokens[index - 3].text == "<<":
        return tokens[index - 3].start
    return tokens[index].start


def _apply(body: str, inserts: list[tuple[int, str]]) -> str:
    out, last = [], 0
    for offset, text in sorted(inserts, key=lambda x: x[0]):
        out.append(body[last:offset])
        out.append(text)
        last = offset
    out.append(body[last:])
    return "".join(out)
