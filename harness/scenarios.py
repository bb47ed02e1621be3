"""What to run per unit, and what Oracle did: the scenario and transcript file formats.

A **scenario file** (`fixtures/scenarios/<schema>.yaml`) lists, per scenario, the units it judges,
setup statements and steps; each step has the SQL a user runs on Oracle and the SQL they would run
on PostgreSQL after migration. A **transcript file** (`fixtures/transcripts/<schema>.yaml`) holds
Oracle's outcome of every step, with a provenance block saying where those outcomes came from:
`oracle` (recorded from a live Oracle: banner, version, time, recorder version) or `authored`
(written by hand from documented Oracle semantics — never G3 evidence). The format is described
for people in `runbooks/scenarios-and-transcripts.md`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from harness.exceptions import read_input


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Statement(_Model):
    """The same action written for both systems."""

    oracle: str
    postgres: str


class Step(_Model):
    name: str
    oracle: str
    postgres: str
    # Compare result rows ignoring their order (for queries without ORDER BY).
    unordered: bool = False


class Scenario(_Model):
    id: str  # unique within the file, e.g. "get_net_pay.basic"
    units: list[str] = Field(min_length=1)  # unit ids this scenario judges
    description: str = ""
    # Freeze SYSDATE for the scenario ('YYYY-MM-DD HH24:MI:SS'): Oracle's FIXED_DATE parameter on
    # the Oracle side, the setting oracompat.fixed_date (read by oracompat.sysdate()) on PostgreSQL.
    fixed_date: str | None = Field(default=None, pattern=r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")
    setup: list[Statement] = []
    steps: list[Step] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_step_names(self) -> Scenario:
        names = [s.name for s in self.steps]
        if len(set(names)) != len(names):
            raise ValueError(f"scenario {self.id}: duplicate step names")
        return self


class ScenarioFile(_Model):
    schema_name: str = Field(alias="schema")
    scenarios: list[Scenario]

    @model_validator(mode="after")
    def _unique_ids(self) -> ScenarioFile:
        ids = [s.id for s in self.scenarios]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate scenario ids: {dupes}")
        return self


class OraErrorOutcome(_Model):
    code: str  # "ORA-01403"
    message: str = ""  # Oracle's message text after the code (for -20xxx: the user message)


class Outcome(_Model):
    """Oracle's result of one step: rows (typed YAML scalars; DATE as 'YYYY-MM-DD HH24:MI:SS'
    strings), DBMS_OUTPUT lines, or an error."""

    rows: list[list[Any]] | None = None
    output: list[str] = []
    error: OraErrorOutcome | None = None

    @model_validator(mode="after")
    def _rows_or_error(self) -> Outcome:
        if self.rows is not None and self.error is not None:
            raise ValueError("an outcome has rows or an error, not both")
        return self


class Provenance(_Model):
    kind: Literal["oracle", "authored"]
    # oracle: recorded from a live database
    banner: str | None = None
    version: str | None = None
    recorded_at: str | None = None
    recorder: str | None = None
    # authored: who wrote it and from what
    author: str | None = None
    basis: str | None = None

    @model_validator(mode="after")
    def _complete(self) -> Provenance:
        if self.kind == "oracle" and not (self.banner and self.version and self.recorded_at and self.recorder):
            raise ValueError("oracle provenance needs banner, version, recorded_at and recorder")
        if self.kind == "authored" and not (self.author and self.basis):
            raise ValueError("authored provenance needs author and basis")
        return self


class TranscriptFile(_Model):
    schema_name: str = Field(alias="schema")
    provenance: Provenance
    # scenario id -> step name -> outcome; setup statements must succeed on Oracle (recorded as such)
    outcomes: dict[str, dict[str, Outcome]]


def load_scenarios(path: Path) -> ScenarioFile:
    return read_input(path, "scenario file", lambda text: ScenarioFile.model_validate(yaml.safe_load(text)))


def load_transcript(path: Path) -> TranscriptFile:
    return read_input(path, "transcript", lambda text: TranscriptFile.model_validate(yaml.safe_load(text)))


def dump_transcript(transcript: TranscriptFile, path: Path) -> None:
    data = transcript.model_dump(by_alias=True, exclude_none=True, exclude_defaults=False)
    path.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=120), encoding="utf-8")
