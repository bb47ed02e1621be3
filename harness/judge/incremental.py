"""Judge one unit at a time while an agent works through a schema in dependency order.

A template database holds the preamble and every unit already finalized. To judge a candidate
for the next unit: check it deploys (inside a transaction that is rolled back — PostgreSQL DDL is
transactional) and that the names inside its PL/pgSQL bodies resolve (pglast + PREPARE, in that
same transaction: a missing one rejects it before any scenario runs), then run each scenario of
that unit whose other units are all finalized, in a fresh clone with the candidate deployed first.
`commit` puts the final version into the template. The report's categories still come from a full
verification at the end (`harness.judge.verify`); this judge only steers repairs.

Held-out steps (`harness.ground_truth.scenarios.held_out`): the verdict that decides (`Judged.verdict`) counts
every step, the one a repair prompt may quote (`Judged.visible`) only the visible steps; of the
held-out ones the agent learns how many disagree, never which, with what SQL or what values.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass, replace

import psycopg

from harness.engines.pg_sandbox import one
from harness.engines.postgres import PostgresEngine, scratch_database
from harness.ground_truth.scenarios import ScenarioFile, TranscriptFile, as_recorded, held_out_steps
from harness.ground_truth.trusted_port_outcomes import number_unknown
from harness.judge.compare import compare_step
from harness.judge.deploy import execute_script
from harness.judge.runner import run_scenario
from harness.judge.verdict import StepVerdict, UnitEvidence, Verdict, decide
from harness.resolution.references import METHOD_PREPARE, UnitReferences, evidence_fields, resolve_in_transaction

_NEW_ROUTINES = """
SELECT p.oid::bigint FROM pg_proc p JOIN pg_language l ON l.oid = p.prolang
WHERE l.lanname = 'plpgsql' AND p.oid::bigint > %s ORDER BY 1"""


@dataclass(frozen=True)
class Judged:
    verdict: Verdict  # every step: the category, the tier, and whether a repair is accepted
    visible: Verdict  # the visible steps only: what a repair prompt may quote
    held_out_disagreeing: int  # held-out steps that disagree (a count, nothing more)


class IncrementalJudge:
    def __init__(
        self,
        engine: PostgresEngine,
        preamble: str,
        scenarios: ScenarioFile | None,
        transcript: TranscriptFile | None,
        *,
        step_timeout_ms: int = 5000,
    ):
        self._engine = engine
        self._preamble = preamble
        self._scenarios = as_recorded(scenarios.scenarios, transcript) if scenarios else []
        self._held = {(s.id, name) for s in self._scenarios for name in held_out_steps(s)}
        self._transcript = transcript
        self._timeout = step_timeout_ms
        self._done: set[str] = set()
        self._ctx: AbstractContextManager[str] | None = None
        self._dsn = ""

    def __enter__(self) -> IncrementalJudge:
        self._ctx = scratch_database(self._engine, prefix="agent")
        self._dsn = self._ctx.__enter__()
        with psycopg.connect(self._dsn, autocommit=True) as conn:
            error, _ = execute_script(conn, self._preamble)
        if error:
            raise RuntimeError(f"preamble does not deploy: {error}")
        return self

    def __exit__(self, *exc: object) -> None:
        if self._ctx is not None:
            self._ctx.__exit__(None, None, None)

    def _template(self) -> str:
        return str(psycopg.conninfo.conninfo_to_dict(self._dsn)["dbname"])

    def _deploys(self, unit_id: str, sql: str, pending: frozenset[str]) -> tuple[str | None, UnitReferences | None]:
        if not sql.strip():
            return "empty output: nothing to deploy", None
        with psycopg.connect(self._dsn) as conn:  # a transaction, rolled back on leaving
            mark = one(conn, "SELECT coalesce(max(oid::bigint), 0) FROM pg_proc")[0]
            error, _state = execute_script(conn, sql)
            found = None
            if error is None:
                oids = [r[0] for r in conn.execute(_NEW_ROUTINES, (mark,)).fetchall()]
                found = resolve_in_transaction(conn, {unit_id: oids}, ignore=pending).get(unit_id)
            conn.rollback()
        return error, found

    def judge(self, unit_id: str, sql: str, parsed: bool, pending: frozenset[str] = frozenset()) -> Judged:
        """`pending`: object names of units not finalized yet — a body may call one that is not
        deployed here yet, so a reference to such a name is never reported missing."""
        error, found = self._deploys(unit_id, sql, pending)
        provenance = self._transcript.provenance.kind if self._transcript else None
        refs = evidence_fields(METHOD_PREPARE, found) if error is None else {}
        ev = UnitEvidence(unit_id, parsed, error is None, error, provenance=provenance, **refs)
        if error is None and not ev.missing_references:
            for scenario in self._scenarios:
                if unit_id in scenario.units and set(scenario.units) - {unit_id} <= self._done:
                    self._judge_scenario(ev, scenario, sql)
        visible = replace(
            ev,
            steps=[s for s in ev.steps if (s.scenario_id, s.step) not in self._held],
            missing_outcomes=[m for m in ev.missing_outcomes if tuple(m.split("/", 1)) not in self._held],
            clock_dependent=[m for m in ev.clock_dependent if tuple(m.split("/", 1)) not in self._held],
        )
        hidden = sum(1 for s in ev.steps if (s.scenario_id, s.step) in self._held and s.mismatch is not None)
        return Judged(decide(ev), decide(visible), hidden)

    def _judge_scenario(self, ev: UnitEvidence, scenario, sql: str) -> None:
        run = run_scenario(self._engine, self._template(), scenario, step_timeout_ms=self._timeout, prelude=sql)
        if run.setup_error:
            ev.setup_errors.append(f"{scenario.id}: {run.setup_error}")
            return
        outcomes = self._transcript.outcomes.get(scenario.id, {}) if self._transcript else {}
        for step in scenario.steps:
            expected, observed = outcomes.get(step.name), run.observed.get(step.name)
            if expected is None:
                ev.missing_outcomes.append(f"{scenario.id}/{step.name}")
            elif expected.clock_dependent:
                ev.clock_dependent.append(f"{scenario.id}/{step.name}")
            elif observed is not None:
                mismatch = compare_step(expected, observed, unordered=step.unordered)
                ev.steps.append(StepVerdict(scenario.id, step.name, mismatch))
                ev.number_unknown += mismatch is None and number_unknown(expected)

    def commit(self, unit_id: str, sql: str) -> str | None:
        """Deploy the final version into the template; returns the error when it does not deploy."""
        self._done.add(unit_id)
        if not sql.strip():
            return "empty output"
        with psycopg.connect(self._dsn, autocommit=True) as conn:
            error, _ = execute_script(conn, sql)
        return error
