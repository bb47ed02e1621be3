"""Judge one unit at a time while an agent works through a schema in dependency order.

A template database holds the preamble and every unit already finalized. To judge a candidate
for the next unit: check it deploys (inside a transaction that is rolled back — PostgreSQL DDL is
transactional), then run each scenario of that unit whose other units are all finalized, in a
fresh clone with the candidate deployed first. `commit` puts the final version into the template.
The report's categories still come from a full verification at the end (`harness.verify`); this
judge only steers repairs.
"""

from __future__ import annotations

from contextlib import AbstractContextManager

import psycopg

from harness.compare import compare_step
from harness.deploy import execute_script
from harness.postgres import PostgresEngine, scratch_database
from harness.runner import run_scenario
from harness.scenarios import ScenarioFile, TranscriptFile
from harness.verdict import StepVerdict, UnitEvidence, Verdict, decide


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
        self._scenarios = scenarios.scenarios if scenarios else []
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

    def _deploys(self, sql: str) -> tuple[str | None, str | None]:
        if not sql.strip():
            return "empty output: nothing to deploy", None
        with psycopg.connect(self._dsn) as conn:  # a transaction, rolled back on leaving
            error, state = execute_script(conn, sql)
            conn.rollback()
        return error, state

    def judge(self, unit_id: str, sql: str, parsed: bool) -> Verdict:
        error, _state = self._deploys(sql)
        provenance = self._transcript.provenance.kind if self._transcript else None
        ev = UnitEvidence(unit_id, parsed, error is None, error, provenance=provenance)
        if error is None:
            for scenario in self._scenarios:
                if unit_id in scenario.units and set(scenario.units) - {unit_id} <= self._done:
                    self._judge_scenario(ev, scenario, sql)
        return decide(ev)

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
            elif observed is not None:
                ev.steps.append(
                    StepVerdict(scenario.id, step.name, compare_step(expected, observed, unordered=step.unordered))
                )

    def commit(self, unit_id: str, sql: str) -> str | None:
        """Deploy the final version into the template; returns the error when it does not deploy."""
        self._done.add(unit_id)
        if not sql.strip():
            return "empty output"
        with psycopg.connect(self._dsn, autocommit=True) as conn:
            error, _ = execute_script(conn, sql)
        return error
