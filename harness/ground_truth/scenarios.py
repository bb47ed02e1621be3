"""What to run per unit, and what Oracle did: the scenario and transcript file formats.

A **scenario file** (`fixtures/scenarios/<schema>.yaml`) lists, per scenario, the units it judges,
setup statements and steps; each step has the SQL a user runs on Oracle and the SQL they would run
on PostgreSQL after migration. A **transcript file** (`fixtures/transcripts/<schema>.yaml`) holds
Oracle's outcome of every step, with a provenance block saying where those outcomes came from:
`oracle` (recorded from a live Oracle: banner, version, time, recorder version), `reference`
(recorded from a PostgreSQL port a team trusts: the port's content hash, server version, time,
recorder version — at most G2 evidence) or `authored` (written by hand from documented Oracle
semantics — never G3 evidence). The format is described for people in
`runbooks/scenarios-and-transcripts.md`.

**Held-out steps.** Every scenario's steps are split, by a hash of scenario id and step name, into
the steps a repair prompt may quote and the steps only the judge sees (`held_out`): a unit the
agent repairs is accepted only when the held-out steps agree too, so it cannot be fitted to the
feedback it was shown.
"""

from __future__ import annotations

import difflib
import hashlib
from collections.abc import Collection
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, model_validator

from harness.exceptions import InputFileError, read_input


class _Model(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class OutArg(_Model):
    """A block variable a step passes to an OUT / IN OUT parameter."""

    var: str  # as declared in the block: `    <var> <declared>[ := value];`
    param: str  # the parameter's name
    declared: str  # the PostgreSQL type the step declares it with (format_type spelling)


class OutCall(_Model):
    """The procedure a step's PostgreSQL block CALLs with variables for its OUT parameters.
    PL/pgSQL passes a variable to an OUT parameter only when its type is the parameter's own (any
    cast makes the argument "not writable", 42601), and ports differ there (`bigint` here,
    `numeric` in a hand port): the runner declares each variable with the type the server's
    catalog gives the parameter (harness.judge.out_types), so the step calls any faithful port."""

    routine: str  # the procedure's name, as PostgreSQL stores it
    routine_schema: str | None = None  # None: resolved on the search_path, as the step's CALL is
    args: list[OutArg] = Field(min_length=1)


class Statement(_Model):
    """The same action written for both systems."""

    oracle: str
    postgres: str
    out_call: OutCall | None = None  # a procedure call with OUT variables (as a Step's)


class Step(_Model):
    name: str
    oracle: str
    postgres: str
    # Compare result rows ignoring their order (for queries without ORDER BY).
    unordered: bool = False
    out_call: OutCall | None = None


class Scenario(_Model):
    id: str  # unique within the file, e.g. "get_net_pay.basic"
    units: list[str] = Field(min_length=1)  # unit ids this scenario judges
    description: str = ""
    # Freeze SYSDATE for the scenario ('YYYY-MM-DD HH24:MI:SS'): Oracle's FIXED_DATE parameter on
    # the Oracle side, the setting oracompat.fixed_date (read by oracompat.sysdate()) on PostgreSQL.
    fixed_date: str | None = Field(default=None, pattern=r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")
    # The Oracle user the steps run as (what USER returns; the recorder connects as this user). On
    # PostgreSQL the session names it in oracompat.session_user, read by oracompat.ora_user().
    session_user: str | None = None
    setup: list[Statement] = []
    steps: list[Step] = Field(min_length=1)

    @model_validator(mode="after")
    def _unique_step_names(self) -> Scenario:
        names = [s.name for s in self.steps]
        if len(set(names)) != len(names):
            raise ValueError(f"scenario {self.id}: duplicate step names")
        return self


class Synthesis(_Model):
    """Where a synthesized scenario file came from (migrator scenarios synth). Its evidence
    counts for a unit only with complete coverage of the unit's PL/pgSQL (harness.probing.coverage)."""

    tool: str  # e.g. "migrator 0.1.0"
    source_hash: str  # sha256 of the Oracle source the steps were derived from
    budget_steps: int
    created_at: str


class ScenarioFile(_Model):
    schema_name: str = Field(alias="schema")
    synthesis: Synthesis | None = None  # None: written by hand
    scenarios: list[Scenario]

    @model_validator(mode="after")
    def _unique_ids(self) -> ScenarioFile:
        ids = [s.id for s in self.scenarios]
        dupes = sorted({i for i in ids if ids.count(i) > 1})
        if dupes:
            raise ValueError(f"duplicate scenario ids: {dupes}")
        return self


class OraErrorOutcome(_Model):
    code: str  # "ORA-01403"; "" only for a user-defined error whose number the source never gave
    message: str = ""  # Oracle's message text after the code (for -20xxx: the user message)
    # A user-defined error recorded without its number: a trusted port that raises plain P0001
    # with a message (RAISE EXCEPTION 'msg') says which message, not which ORA-20NNN. Compared by
    # class (a user-defined error) and message only — weaker evidence, and the report says so.
    user_defined: bool | None = None

    @model_validator(mode="after")
    def _code_or_user_defined(self) -> OraErrorOutcome:
        if not self.code and not self.user_defined:
            raise ValueError("an error outcome needs its code (only a user-defined error may lack one)")
        return self


class Outcome(_Model):
    """Oracle's result of one step: rows (typed YAML scalars; DATE as 'YYYY-MM-DD HH24:MI:SS'
    strings), DBMS_OUTPUT lines, or an error."""

    rows: list[list[Any]] | None = None
    output: list[str] = []
    error: OraErrorOutcome | None = None
    # The source answered this step differently when recorded at another instant (a clock it
    # reads that nothing froze): not ground truth. Never compared, so never `wrong`; a unit
    # judged on such a step stays unverified and its report says why.
    clock_dependent: bool | None = None

    @model_validator(mode="after")
    def _rows_or_error(self) -> Outcome:
        if self.rows is not None and self.error is not None:
            raise ValueError("an outcome has rows or an error, not both")
        return self


class Provenance(_Model):
    kind: Literal["oracle", "reference", "authored"]
    # oracle: recorded from a live database (reference: from a PostgreSQL server, its version)
    banner: str | None = None
    version: str | None = None
    recorded_at: str | None = None
    recorder: str | None = None
    # reference: sha256 over the port's sorted relative paths and bytes, and where it was read
    content_hash: str | None = Field(default=None, pattern=r"^[0-9a-f]{64}$")
    reference: str | None = None
    # authored: who wrote it and from what
    author: str | None = None
    basis: str | None = None
    # how the source's clock was held while recording: frozen at the scenarios' instants, or real
    # (then steps answering differently at two instants are marked `clock_dependent`)
    clock: str | None = None

    @model_validator(mode="after")
    def _complete(self) -> Provenance:
        if self.kind == "oracle" and not (self.banner and self.version and self.recorded_at and self.recorder):
            raise ValueError("oracle provenance needs banner, version, recorded_at and recorder")
        if self.kind == "reference" and not (self.content_hash and self.recorded_at and self.recorder):
            raise ValueError("reference provenance needs content_hash, recorded_at and recorder")
        if self.kind == "authored" and not (self.author and self.basis):
            raise ValueError("authored provenance needs author and basis")
        return self


class TranscriptFile(_Model):
    schema_name: str = Field(alias="schema")
    provenance: Provenance
    # scenario id -> step name -> outcome; setup statements must succeed on Oracle (recorded as such)
    outcomes: dict[str, dict[str, Outcome]]
    # scenario id -> the instant the source's clock read when the scenario was recorded, for a
    # scenario with a fixed_date whose source could not be frozen at it: the judge runs it with
    # SYSDATE at this instant instead, so date logic meets the same "now" on both sides (what
    # moves within seconds is caught apart: `Outcome.clock_dependent`)
    clocks: dict[str, str] | None = None


def as_recorded(scenarios: list[Scenario], transcript: TranscriptFile | None) -> list[Scenario]:
    """`scenarios` with each fixed_date the transcript's source really read (TranscriptFile.clocks)."""
    if transcript is None or not transcript.clocks:
        return scenarios
    clocks = transcript.clocks
    return [s.model_copy(update={"fixed_date": clocks[s.id]}) if s.id in clocks else s for s in scenarios]


def _step_hash(scenario_id: str, step_name: str) -> int:
    digest = hashlib.sha256(f"{scenario_id}\x00{step_name}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def held_out_steps(scenario: Scenario) -> frozenset[str]:
    """The names of the steps only the judge sees: about one in three, chosen by hash (stable
    across runs and machines); a scenario keeps at least one visible step and, with two steps or
    more, at least one held-out step."""
    if len(scenario.steps) < 2:
        return frozenset()
    ranked = sorted(scenario.steps, key=lambda s: _step_hash(scenario.id, s.name))
    held = {s.name for s in ranked if _step_hash(scenario.id, s.name) % 3 == 0}
    if not held:
        held.add(ranked[0].name)
    if len(held) == len(scenario.steps):
        held.discard(ranked[-1].name)
    return frozenset(held)


def held_out(scenario: Scenario, step: Step) -> bool:
    """Whether `step` is held out of every repair prompt (the one rule every consumer uses)."""
    return step.name in held_out_steps(scenario)


# libyaml's parser where PyYAML was built with it: the pure-Python scanner is quadratic in a
# quoted scalar's runs of spaces, and a transcript holds long blank-padded CHAR values (71 s
# to load hr_payroll's synthesized transcript, 0.2 s with libyaml). Same constructor, same data.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def _load_yaml(text: str) -> Any:
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 (a safe loader: libyaml's or PyYAML's)


def load_scenarios(path: Path) -> ScenarioFile:
    return read_input(path, "scenario file", lambda text: ScenarioFile.model_validate(_load_yaml(text)))


def load_transcript(path: Path) -> TranscriptFile:
    return read_input(path, "transcript", lambda text: TranscriptFile.model_validate(_load_yaml(text)))


def unknown_unit_message(unit_id: str, known: Collection[str]) -> str:
    """`unit_id` is not a unit of the schema: the message, with the nearest names suggested."""
    near = difflib.get_close_matches(unit_id, list(known), n=3, cutoff=0.6)
    if not near:  # a kind or owner typed differently: compare the names alone
        names: dict[str, list[str]] = {}
        for k in known:
            names.setdefault(k.rpartition(".")[2], []).append(k)
        picked = difflib.get_close_matches(unit_id.rpartition(".")[2], list(names), n=3, cutoff=0.6)
        near = sorted(k for n in picked for k in names[n])[:3]
    hint = f"; did you mean {' or '.join(near)}?" if near else ""
    return f"{unit_id} is not a unit of this schema{hint}"


def check_scenario_units(scenarios: ScenarioFile, path: Path, known: Collection[str]) -> None:
    """Every unit a scenario names must be a unit of the schema: a typo would otherwise leave the
    unit judged on fewer scenarios than were written for it, and called correct on them."""
    known = set(known)
    problems = [
        f"scenario {s.id}: {unknown_unit_message(u, known)}"
        for s in scenarios.scenarios
        for u in s.units
        if u not in known
    ]
    if problems:
        raise InputFileError(f"scenario file {path}: " + "; ".join(problems))


def dump_transcript(transcript: TranscriptFile, path: Path) -> None:
    data = transcript.model_dump(by_alias=True, exclude_none=True, exclude_defaults=False)
    path.write_text(_dump_yaml(data), encoding="utf-8")


def dump_scenarios(scenarios: ScenarioFile, path: Path) -> None:
    data = scenarios.model_dump(by_alias=True, exclude_none=True, exclude_defaults=True)
    path.write_text(_dump_yaml(data), encoding="utf-8")


class _Dumper(yaml.SafeDumper):
    """Multi-line SQL as literal blocks (`|`), so a reviewer reads a step as it will run."""


def _str(dumper: yaml.SafeDumper, value: str):
    style = "|" if "\n" in value and not value.endswith((" ", "\t")) and "\r" not in value else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", value, style=style)


_Dumper.add_representer(str, _str)


def _dump_yaml(data: Any) -> str:
    return yaml.dump(data, Dumper=_Dumper, sort_keys=False, allow_unicode=True, width=120)
