"""Judge deployed units against Oracle's outcomes: deploy → resolve references → run → compare.

The same scenarios also run against a database where nothing was deployed (only the preamble):
the **do-nothing row**, i.e. what an agent that outputs nothing would score on the same metrics.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field

import psycopg

from harness.engines.postgres import PostgresEngine, scratch_database
from harness.ground_truth.scenarios import ScenarioFile, TranscriptFile, as_recorded
from harness.ground_truth.trusted_port_outcomes import number_unknown
from harness.judge.compare import compare_step
from harness.judge.deploy import DeployOutcome, deploy_units
from harness.judge.runner import ScenarioRun, iter_runs
from harness.judge.step_record import ScenarioRecord, new_record, record_step
from harness.judge.verdict import StepVerdict, UnitEvidence, Verdict, decide
from harness.probing.coverage import coverage_of, instrument
from harness.resolution.references import RoutineTracker, check_references, evidence_fields


@dataclass(frozen=True)
class UnitToVerify:
    unit_id: str
    sql: str
    depends_on: tuple[str, ...]
    parsed: bool


@dataclass
class SideResult:
    """One arm of the verification (the agent's output, or the do-nothing output)."""

    verdicts: list[Verdict]
    steps_total: int
    steps_agreeing: int
    scenario_seconds: dict[str, float] = field(default_factory=dict)  # scenario id -> clone+run+drop
    preamble_error: str | None = None
    # every step of every scenario, both outcomes side by side (for reviewers; verdicts ignore it)
    records: list[ScenarioRecord] = field(default_factory=list)


@dataclass
class VerifyResult:
    agent: SideResult
    do_nothing: SideResult
    provenance: str | None
    references_checked: bool  # some method resolved inner references (see references_method)
    deploy: list[DeployOutcome]
    seconds: float
    references_method: str | None = None  # "plpgsql_check" | "pglast + PostgreSQL (PREPARE)"


def _dbname(dsn: str) -> str:
    return str(psycopg.conninfo.conninfo_to_dict(dsn)["dbname"])


def _judge_runs(
    runs: Iterable[ScenarioRun],
    scenarios: ScenarioFile,
    transcript: TranscriptFile | None,
    evidence: dict[str, UnitEvidence],
    hits: dict[str, set[str]],
    records: list[ScenarioRecord],
) -> tuple[int, int, dict[str, float]]:
    total = agreeing = 0
    seconds: dict[str, float] = {}
    by_id = {s.id: s for s in scenarios.scenarios}
    for run in runs:
        scenario = by_id[run.scenario_id]
        seconds[run.scenario_id] = run.seconds
        for unit in scenario.units:  # a unit's code counts as executed by its own scenarios only
            hits.setdefault(unit, set()).update(run.hits)
        record = new_record(scenario, run.setup_error, run.seconds)
        records.append(record)
        outcomes = transcript.outcomes.get(scenario.id, {}) if transcript else {}
        targets = [evidence[u] for u in scenario.units if u in evidence]
        for ev in targets:
            if run.setup_error:
                ev.setup_errors.append(f"{scenario.id}: {run.setup_error}")
        for step in scenario.steps:
            expected = outcomes.get(step.name)
            observed = run.observed.get(step.name)
            record.steps.append(record_step(step, expected, observed))
            if expected is None:
                for ev in targets:
                    ev.missing_outcomes.append(f"{scenario.id}/{step.name}")
                continue
            if expected.clock_dependent:
                for ev in targets:
                    ev.clock_dependent.append(f"{scenario.id}/{step.name}")
                continue
            if observed is None:  # skipped after a timeout or failed setup: a step with an expected
                total += 1  # outcome that did not agree (every arm counts the same steps)
                continue
            mismatch = compare_step(expected, observed, unordered=step.unordered)
            total += 1
            agreeing += mismatch is None
            for ev in targets:
                ev.steps.append(StepVerdict(scenario.id, step.name, mismatch, run.seconds))
                ev.number_unknown += mismatch is None and number_unknown(expected)
    return total, agreeing, seconds


def _run_side(
    engine: PostgresEngine,
    preamble: str,
    units: list[UnitToVerify],
    scenarios: ScenarioFile | None,
    transcript: TranscriptFile | None,
    *,
    step_timeout_ms: int,
    shared: bool = False,
) -> tuple[SideResult, list[DeployOutcome], str]:
    """Deploy `units` into a fresh template and judge every scenario on copies of it. `shared`:
    the scenarios run on a few long-lived copies, each rolled back (harness.judge.rollback_runs)."""
    tracker = RoutineTracker()
    with scratch_database(engine, prefix="tpl", check_references=True) as tpl_dsn:
        items = [(u.unit_id, u.sql, u.depends_on) for u in units]
        pre, outcomes = deploy_units(tpl_dsn, preamble, items, probe=tracker)
        method, found = check_references(tpl_dsn, tracker.created)
        evidence = {}
        for u, d in zip(units, outcomes):
            evidence[u.unit_id] = UnitEvidence(
                u.unit_id,
                u.parsed,
                d.ok,
                d.error,
                list(d.blocked_by),
                provenance=transcript.provenance.kind if transcript else None,
                **evidence_fields(method, found.get(u.unit_id)),
            )
        total = agreeing = 0
        seconds: dict[str, float] = {}
        records: list[ScenarioRecord] = []
        if scenarios is not None:
            plan = instrument(tpl_dsn, tracker.created)  # a copy: only this template is instrumented
            hits: dict[str, set[str]] = {}
            template = _dbname(tpl_dsn)
            runs = iter_runs(engine, template, as_recorded(scenarios.scenarios, transcript), step_timeout_ms=step_timeout_ms, probe=plan.hit,
                             shared=(lambda _s: True) if shared else None)  # fmt: skip
            total, agreeing, seconds = _judge_runs(runs, scenarios, transcript, evidence, hits, records)
            for unit_id, ev in evidence.items():
                ev.coverage = coverage_of(plan, unit_id, hits.get(unit_id, set()))
                ev.require_coverage = scenarios.synthesis is not None
    verdicts = [decide(evidence[u.unit_id]) for u in units]
    side = SideResult(verdicts, total, agreeing, seconds, pre.error, records)
    return side, outcomes, method


def verify(
    engine: PostgresEngine,
    preamble: str,
    units: list[UnitToVerify],
    scenarios: ScenarioFile | None,
    transcript: TranscriptFile | None,
    *,
    step_timeout_ms: int = 5000,
    do_nothing: bool = True,
) -> VerifyResult:
    """Judge `units`; with `do_nothing`, also run the scenarios with nothing deployed (the
    baseline row every report shows). Only tools that judge one variant against an already
    reported baseline (the mutation script) switch it off."""
    t0 = time.perf_counter()
    agent, outcomes, method = _run_side(engine, preamble, units, scenarios, transcript, step_timeout_ms=step_timeout_ms)
    nothing = SideResult([], 0, 0)  # not measured in this call
    if do_nothing:
        empty = [UnitToVerify(u.unit_id, "", u.depends_on, False) for u in units]
        # Nothing deployed: no table, routine or trigger of the schema exists, so a step can
        # change nothing a rollback would not undo. Synthesized steps hold no COMMIT of their
        # own, so each scenario runs rolled back on a shared copy instead of a fresh clone; a
        # hand-written step may commit (or create), so those keep a clone each.
        synthesized = scenarios is not None and scenarios.synthesis is not None
        nothing, _, _ = _run_side(engine, preamble, empty, scenarios, transcript, step_timeout_ms=step_timeout_ms,
                                  shared=synthesized)  # fmt: skip
    provenance = transcript.provenance.kind if transcript else None
    return VerifyResult(agent, nothing, provenance, True, outcomes, time.perf_counter() - t0, method)
