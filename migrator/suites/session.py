"""One run of the team's test suite: read the test folders, deploy the library then the test code
into a sandbox scratch database, instrument it for coverage, discover the tests with the suite's
style, run them (migrator.suites.runner) and return the `TestRun`.

`migrate --tests DIR` reads the test folders with the library (`read_tests`, `merge_sources`), so
one catalog knows both and the test code converts with the same rules, calls bound against the
library's signatures; `deploy_and_run` then does the rest from the converted text.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from migrator.errors import MigratorError
from migrator.source.units import SourceSet, SourceSpan, Unit, UnitKind
from migrator.suites.model import TestRun, TestStyle
from migrator.suites.styles import BlockConverter, BlockNotConverted, Style, TestCode

if TYPE_CHECKING:
    from harness.engines.postgres import PostgresEngine
    from migrator.convert.context import ConversionContext


@dataclass(frozen=True)
class SuiteOptions:
    """What `migrate --tests` was asked for."""

    dirs: tuple[Path, ...]
    style: TestStyle | None = None  # --test-style (None: detected)
    pattern: str | None = None  # --test-pattern (plain style's result lines)
    oracle_log: Path | None = None  # --oracle-test-log
    timeout_ms: int = 60_000  # per test (statement_timeout)


def read_tests(dirs: Sequence[Path], schema: str, workers: int = 1) -> SourceSet:
    """The test folders read as the library is, their objects owned by the library's schema (a
    team's tests run as the schema's owner). Files keep their folder's name in front, so two test
    folders' `test.sql` stay apart in every report."""
    from migrator.source.reader import read_schema_dir

    merged = SourceSet(root=",".join(str(d) for d in dirs), schema=schema)
    for d in dirs:
        if not d.is_dir():
            raise MigratorError(f"--tests {d}: not a folder")
        got = read_schema_dir(d, schema, workers, False, None)
        prefix = d.resolve().name
        merged.files.extend(replace(f, path=f"{prefix}/{f.path}") for f in got.files)
        for u in got.units:
            u.span = replace(u.span, file=f"{prefix}/{u.span.file}")
            u.parts = [replace(p, file=f"{prefix}/{p.file}") for p in u.parts]
            merged.units.append(u)
        for i in got.issues:
            i.file = f"{prefix}/{i.file}"
            if i.span is not None:
                i.span = replace(i.span, file=f"{prefix}/{i.span.file}")
            call = exec_call(i.text) if i.code == "sqlplus-directive" else None
            if call is not None and i.span is not None:  # in a test script, EXEC is a test's call
                merged.units.append(
                    Unit(
                        f"anonymous_block:{schema}.exec@{i.file}:{i.line}",
                        UnitKind.ANONYMOUS_BLOCK,
                        schema,
                        f"exec@{i.file}:{i.line}",
                        f"BEGIN\n  {call};\nEND;",
                        i.span,
                    )  # fmt: skip
                )
                continue
            merged.issues.append(i)
    return merged


def exec_call(text: str) -> str | None:
    """The PL/SQL call of a SQL*Plus `EXEC[UTE] call[;]` line (`-` continues it on the next line),
    or None for any other directive."""
    words = text.strip().split(None, 1)
    if len(words) < 2 or words[0].upper() not in ("EXEC", "EXECUTE"):
        return None
    lines = [line.rstrip() for line in words[1].splitlines()]
    call = " ".join(line[:-1].rstrip() if line.endswith("-") else line for line in lines).strip()
    call = call.rstrip(";").rstrip()
    return call or None


def merge_sources(library: SourceSet, tests: SourceSet) -> tuple[SourceSet, frozenset[str]]:
    """One source set holding the library then the test code; the test units' ids. A test unit
    whose id a library unit already has (a test folder redefining a library object) gets a `#t`
    suffix, so neither replaces the other in the run's bookkeeping."""
    taken = {u.id for u in library.units}
    ids: list[str] = []
    units = list(library.units)
    for u in tests.units:
        if u.id in taken:
            u.id = f"{u.id}#t{len(ids) + 1}"
        taken.add(u.id)
        ids.append(u.id)
        units.append(u)
    merged = replace(
        library, files=[*library.files, *tests.files], units=units, issues=[*library.issues, *tests.issues]
    )
    return merged, frozenset(ids)


def suite_sha256(units: Sequence[Unit]) -> str:
    """The test sources' content hash (file names and exact texts, in source order)."""
    h = hashlib.sha256()
    for u in sorted(units, key=lambda u: (u.span.file, u.span.start_offset)):
        h.update(u.span.file.encode("utf-8") + b"\0" + u.text.encode("utf-8") + b"\0")
    return h.hexdigest()


def block_converter(ctx: ConversionContext, schema: str) -> BlockConverter:
    """Converts a PL/SQL anonymous block with the run's context (its catalog and rules)."""
    from migrator.convert.dispatch import convert_unit

    def convert(text: str, label: str) -> str:
        unit = Unit(
            f"anonymous_block:{schema}.{label}",
            UnitKind.ANONYMOUS_BLOCK,
            schema,
            label,
            text,
            SourceSpan("<test call>", 1, text.count("\n") + 1, 0, len(text)),
        )
        done = convert_unit(unit, ctx)
        if done.error or done.unconverted or not done.output.strip():
            why = done.error or "; ".join(f"{u.construct} ({u.message})" for u in done.unconverted) or "no output"
            raise BlockNotConverted(why)
        return done.output

    return convert


def view_converter(ctx: ConversionContext, schema: str):
    """Converts a CREATE VIEW with the run's context: (PostgreSQL text, None) or ("", why not).
    A test script's top-level query is converted as a view's query is (plain style)."""
    from migrator.convert.dispatch import convert_unit

    def convert(text: str, name: str) -> tuple[str, str | None]:
        span = SourceSpan("<test query>", 1, text.count("\n") + 1, 0, len(text))
        done = convert_unit(Unit(f"view:{schema}.{name}", UnitKind.VIEW, schema, name, text, span), ctx)
        if done.error or done.unconverted or not done.output.strip():
            return "", done.error or "; ".join(f"{u.construct} ({u.message})" for u in done.unconverted) or "no output"
        return done.output, None

    return convert


@dataclass
class DeployedCode:
    """What the deploy of the test code showed: unit id → why it is not usable."""

    problems: dict[str, str] = field(default_factory=dict)
    deployed: dict[str, bool] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)  # unit id -> what it was deployed without


def deploy_and_run(
    engine: PostgresEngine,
    preamble: str,
    library: Sequence[tuple[str, str, Sequence[str]]],
    code: Sequence[TestCode],
    deps: Mapping[str, Sequence[str]],
    style: Style,
    convert: BlockConverter,
    *,
    timeout_ms: int = 60_000,
    sha256: str = "",
    coverage: bool = True,
) -> tuple[TestRun, DeployedCode, float]:
    """Deploy the library (unit id, SQL, dependency ids — as verification deploys OUT's files),
    then the test code that defines something (anonymous blocks are runs, never deployed), into a
    fresh scratch database; instrument it; discover the tests with `style`; run them. Returns the
    run, what the test code's deploy showed, and the seconds the suite took."""
    import psycopg

    from harness.engines.postgres import scratch_database
    from harness.judge.deploy import deploy_units
    from harness.probing.coverage import instrument
    from harness.resolution.references import RoutineTracker
    from migrator.suites.runner import run_tests

    t0 = time.perf_counter()
    tracker = RoutineTracker()
    shown = DeployedCode()
    with scratch_database(engine, prefix="tests") as dsn:
        # a script's statements (plain style) run at their place among its blocks, not before
        in_order: frozenset[str] = getattr(style, "runs_in_order", lambda code: frozenset())(code)
        definitions = [c for c in code if c.unit.kind is not UnitKind.ANONYMOUS_BLOCK and c.id not in in_order]
        # a style's own support library (utPLSQL's `ut` schema) after the preamble: trusted code
        # of ours, like oracompat, that the converted test code calls
        support = getattr(style, "support_sql", "")
        pre, outcomes = deploy_units(dsn, preamble + ("\n" + support if support else ""), library, probe=tracker)
        if pre.error:
            raise MigratorError(f"the preamble did not deploy for the test run: {pre.error}")
        outcomes += deploy_test_code(dsn, definitions, deps, tracker, shown)
        failed = {o.unit_id: o.error or "not deployed" for o in outcomes if not o.ok}
        for o in outcomes:
            if o.ok and o.blocked_by:
                failed.setdefault(o.unit_id, "a unit it depends on did not deploy: " + ", ".join(o.blocked_by))
        for c in code:
            if c.problem is not None:
                shown.problems[c.id] = c.problem
            elif c.id in failed:
                shown.problems[c.id] = f"refused by PostgreSQL: {failed[c.id]}"
        for o in outcomes[len(library) :]:  # the test code's
            shown.deployed[o.unit_id] = o.ok
            if o.error:
                shown.errors[o.unit_id] = o.error
        blocked = dict(shown.problems)
        blocked.update({k: v for k, v in failed.items() if k not in blocked})
        plan = instrument(dsn, tracker.created) if coverage else None
        tests = style.discover(code, convert)
        database = str(psycopg.conninfo.conninfo_to_dict(dsn)["dbname"])
        run = run_tests(
            engine, database, tests, timeout_ms=timeout_ms, coverage=plan, blocked=blocked, suite_sha256=sha256
        )
    explain_missing(run, code, blocked)
    return run, shown, time.perf_counter() - t0


def deploy_test_code(
    dsn: str,
    definitions: Sequence[TestCode],
    deps: Mapping[str, Sequence[str]],
    tracker,
    shown: DeployedCode,
    statement_timeout_ms: int = 30_000,
) -> list:
    """Deploy the test code in order, each unit in one transaction as the library is; a unit
    PostgreSQL refuses is deployed again statement by statement, a routine it refuses becoming a
    stub that raises why (migrator.suites.partial: test code only), so one routine of a framework
    that cannot exist here (its signature names a view that did not deploy) does not take the
    rest of the framework with it. `shown.notes` says what each unit was deployed without."""
    import psycopg

    from harness.judge.deploy import DeployOutcome, execute_script
    from migrator.suites.partial import salvage

    outcomes: list[DeployOutcome] = []
    refused: set[str] = set()
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"SET statement_timeout = {int(statement_timeout_ms)}")
        for c in definitions:
            t0 = time.perf_counter()
            text = c.output if c.problem is None else ""
            err, state = execute_script(conn, text) if text.strip() else ("empty output: nothing to deploy", None)
            if err is not None and text.strip():
                missing = salvage(conn, text)
                if missing is not None:  # deployed in part: what is missing raises or is absent
                    shown.notes[c.id] = "deployed for the tests without: " + "; ".join(missing)
                    err, state = None, None
            blocked = tuple(sorted(d for d in deps.get(c.id, ()) if d in refused))
            if err is not None:
                refused.add(c.id)
            outcomes.append(DeployOutcome(c.id, err is None, time.perf_counter() - t0, err, state, blocked))
            tracker(conn, c.id)
    return outcomes


def explain_missing(run: TestRun, code: Sequence[TestCode], blocked: Mapping[str, str]) -> None:
    """A test that failed on something that does not exist, where that something is test code
    that did not deploy (a framework's package its calls reach), says which and why."""
    import re

    from migrator.suites.model import Outcome

    missing = [(c.unit.name, c.id) for c in code if c.id in blocked and c.unit.kind is not UnitKind.ANONYMOUS_BLOCK]
    for r in run.results:
        if r.outcome is not Outcome.ERROR or "does not exist" not in r.message:
            continue
        for name, uid in missing:
            if re.search(rf"(?<![\w$#]){re.escape(name)}\.", r.message) and uid not in r.message:
                r.message += f" (test code {uid} did not deploy: {blocked[uid].splitlines()[0][:300]})"
