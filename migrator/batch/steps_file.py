"""OUT/steps.json: every scenario step with Oracle's expected and PostgreSQL's observed outcome.

report.json keeps a unit's first mismatch only (it stays small and its format stable); this
sibling file keeps all steps, per scenario (a scenario that judges several units is stored once),
for the review pages. Written by verification, removed by a run that does not verify.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from harness.judge.step_record import ScenarioRecord
from migrator.batch.output import STEPS_FILE


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SideOutcome(_Frozen):
    rows: list[list[str | None]] | None = None  # None: no result set
    row_count: int | None = None  # rows are capped; this is how many there were
    output: list[str] = []  # DBMS_OUTPUT lines / NOTICE messages
    error: str | None = None


class Difference(_Frozen):
    part: str  # rows | row count | output | error | timeout
    row: int | None = None
    column: int | None = None
    line: int | None = None


class StepEntry(_Frozen):
    step: str
    status: str  # agrees | differs | no Oracle outcome | not run
    oracle_sql: str
    postgres_sql: str
    unordered: bool = False
    what: str | None = None
    oracle: SideOutcome | None = None
    postgres: SideOutcome | None = None
    first_difference: Difference | None = None


class ScenarioSteps(_Frozen):
    scenario: str
    units: list[str]
    description: str = ""
    setup_error: str | None = None
    seconds: float = 0.0
    steps: list[StepEntry] = []


class StepsFile(_Frozen):
    schema_name: str
    provenance: str | None  # of the transcript: oracle | authored | None
    scenarios: list[ScenarioSteps]

    def for_unit(self, unit_id: str) -> list[ScenarioSteps]:
        return [s for s in self.scenarios if unit_id in s.units]


def steps_file(schema_name: str, provenance: str | None, records: list[ScenarioRecord]) -> StepsFile:
    scenarios = [ScenarioSteps.model_validate(asdict(r) | {"seconds": round(r.seconds, 4)}) for r in records]
    return StepsFile(schema_name=schema_name, provenance=provenance, scenarios=scenarios)


def dump_steps(steps: StepsFile) -> str:
    # Compact: defaults and empty parts left out, one line (tools read it, people read the pages).
    return steps.model_dump_json(exclude_defaults=True) + "\n"


def load_steps(out: Path) -> StepsFile | None:
    """The run's steps, or None when the run was not verified (or predates steps.json)."""
    path = out / STEPS_FILE
    if not path.is_file():
        return None
    return StepsFile.model_validate_json(path.read_text(encoding="utf-8"))
