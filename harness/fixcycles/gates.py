"""Pre-registered fix cycles: the `FIX-NNN.yaml` file, its freezing, its arms and its decision.

A fix cycle tests exactly one change (a rule switched on or off, a prompt paragraph, a
knowledge-base correction, the admission of a proposed knowledge-base rule, or a harness setting)
against predicates written before the run. Freezing
hashes the hypothesis, the change and the predicates; the hash is stored in the file *and* in the
audit log, so an edit after freezing is caught even when the editor also rewrites the stored hash.

This module knows files, hashes, per-unit categories and decisions only. Running the arms and
applying a promoted change belong to the orchestrator in the migrator package, because rules,
prompts and the knowledge base live there (the layering test keeps the harness independent of it).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, field_validator

from harness.exceptions import HarnessError, read_input
from harness.judge.categories import Category

State = Literal["draft", "frozen", "run", "decided"]
Action = Literal["promote", "revert", "hold"]
CYCLE_ID = re.compile(r"^FIX-\d{3,}$")
GENESIS = "0" * 64
AUDIT_FILE = "audit.jsonl"


class GateError(HarnessError):
    """A fix-cycle operation is not allowed in the cycle's current state."""


class TamperedCycle(GateError):
    """The frozen part of a cycle (hypothesis, change, predicates) changed after freezing."""


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# -- the one change --------------------------------------------------------------------------------
class RuleChange(_Frozen):
    kind: Literal["rule"] = "rule"
    rule_id: str = Field(min_length=3, description="e.g. expr.nvl, plsql.dbms_output, or a family plsql.*")
    action: Literal["enable", "disable"]


class PromptChange(_Frozen):
    kind: Literal["prompt"] = "prompt"
    paragraph_id: str = Field(min_length=1)
    text: str = Field(min_length=1)


class KbChange(_Frozen):
    """A knowledge-base correction (the fields of the knowledge base's Correction record)."""

    kind: Literal["kb"] = "kb"
    construct_id: str = Field(min_length=1)
    failure_type: str = ""
    context: str = Field(min_length=1)
    fix: str = Field(min_length=1)
    applicability: dict[str, str] = {}


class KbRuleChange(_Frozen):
    """Admit a rule the knowledge base holds as a candidate (proposed from repeated verified
    experiences): it becomes active knowledge only through this cycle's promote."""

    kind: Literal["kb_rule"] = "kb_rule"
    entry: int = Field(ge=1, description="the candidate rule's entry id in the knowledge base")
    construct_id: str = Field(min_length=1)
    idiom: str = Field(min_length=1)
    paragraph: str = ""


class HarnessChange(_Frozen):
    kind: Literal["harness"] = "harness"
    setting: str = Field(min_length=1, description="a field of the settings file's `harness` section")
    value: int | float | bool | str


Change = Annotated[RuleChange | PromptChange | KbChange | KbRuleChange | HarnessChange, Field(discriminator="kind")]


# -- predicates, arms, decision ---------------------------------------------------------------------
class ExpectedFlip(_Frozen):
    unit: str = Field(min_length=1, description="unit id as in report.json, e.g. procedure:hr_payroll.x")
    to: Category


class Predicates(_Frozen):
    flips: list[ExpectedFlip] = []
    max_regressions: int = Field(0, ge=0)
    do_nothing_below: bool = True  # the do-nothing row's correct count must stay below the candidate's


class SchemaArm(_Frozen):
    """One arm's result on one schema: per-unit categories and the category table rows."""

    schema_name: str
    out_dir: str
    provenance: str | None = None  # of the Oracle transcript the categories were judged against
    categories: dict[str, Category]
    outputs: dict[str, str] = {}  # unit id -> output file relative to out_dir
    agent_row: dict[str, int]
    do_nothing_row: dict[str, int]
    steps_agreeing: int = 0
    do_nothing_steps_agreeing: int = 0
    steps_total: int = 0


class ArmResult(_Frozen):
    label: Literal["baseline", "candidate"]
    settings_version: int
    applied: str  # what this arm ran with, in words
    schemas: list[SchemaArm]

    def categories(self) -> dict[str, str]:
        return {u: c for s in self.schemas for u, c in s.categories.items()}

    def total(self, row: Literal["agent_row", "do_nothing_row"], category: str) -> int:
        return sum(getattr(s, row).get(category, 0) for s in self.schemas)


class PredicateResult(_Frozen):
    name: str
    met: bool
    detail: str


class RunRecord(_Frozen):
    at: str
    frozen_hash: str
    code: str = ""  # tool version and commit the arms ran with (the converters change between runs)
    baseline: ArmResult
    candidate: ArmResult
    predicates: list[PredicateResult]

    @property
    def all_met(self) -> bool:
        return all(p.met for p in self.predicates)


class Decision(_Frozen):
    action: Action
    reviewer: str = Field(min_length=1)
    at: str
    reason: str = Field(min_length=1)
    override: str | None = None  # why a failed predicate was accepted (promote only)
    frozen_hash: str
    applied: str = ""  # what promote wrote, in words; empty for revert/hold


class FixCycle(_Frozen):
    id: str
    title: str = Field(min_length=1)
    hypothesis: str = ""
    change: Change | None = None
    predicates: Predicates = Predicates()
    state: State = "draft"
    frozen_hash: str | None = None
    frozen_at: str | None = None
    run: RunRecord | None = None
    decisions: list[Decision] = []  # a hold may be followed by a later promote or revert

    @property
    def ran(self) -> RunRecord:
        """The run record of a cycle that has been run (a clear error for one that has not)."""
        if self.run is None:
            raise GateError(f"{self.id} has not been run yet (`migrator fix run {self.id}`)")
        return self.run

    @field_validator("id")
    @classmethod
    def _id(cls, value: str) -> str:
        if not CYCLE_ID.match(value):
            raise ValueError(f"fix cycle ids look like FIX-001, got {value!r}")
        return value


def now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


# -- files --------------------------------------------------------------------------------------------
def cycle_path(cycles: Path, cycle_id: str) -> Path:
    return cycles / f"{cycle_id}.yaml"


def load_cycle(cycles: Path, cycle_id: str) -> FixCycle:
    path = cycle_path(cycles, cycle_id)
    if not path.is_file():
        raise GateError(f"no fix cycle {cycle_id} in {cycles}")
    return read_input(path, "fix cycle", lambda text: FixCycle.model_validate(yaml.safe_load(text) or {}))


def save_cycle(cycles: Path, cycle: FixCycle) -> Path:
    path = cycle_path(cycles, cycle.id)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = cycle.model_dump(mode="json", exclude_none=False)
    tmp = path.with_suffix(".yaml.tmp")
    tmp.write_text(yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=110), encoding="utf-8")
    tmp.replace(path)
    return path


def next_cycle_id(cycles: Path) -> str:
    numbers = [int(p.stem[4:]) for p in cycles.glob("FIX-*.yaml") if CYCLE_ID.match(p.stem)]
    return f"FIX-{max(numbers, default=0) + 1:03d}"


TEMPLATE = """\
# Fix cycle {id}. Fill in hypothesis, change and predicates, then `migrator fix freeze {id}`.
# After freezing, any edit of hypothesis/change/predicates blocks `run` and `decide`.
id: {id}
title: {title}
hypothesis: ''   # why the change should help, and which units it should move
# The ONE change, one of:
#   change: {{kind: rule, rule_id: plsql.dbms_output, action: enable}}
#   change: {{kind: prompt, paragraph_id: select-into-strict, text: "Translate SELECT INTO as ..."}}
#   change: {{kind: kb, construct_id: XMLTABLE, context: "...", fix: "..."}}
#   change: {{kind: kb_rule, entry: 42, construct_id: DBMS_OUTPUT, idiom: "..."}}   (`migrator fix propose` writes these)
#   change: {{kind: harness, setting: step_timeout_ms, value: 10000}}
change: null
predicates:
  flips: []        # e.g. - {{unit: 'procedure:hr_payroll.print_org_chart', to: correct}}
  max_regressions: 0
  do_nothing_below: true
state: draft
"""


def draft_text(cycle_id: str, title: str) -> str:
    text = TEMPLATE.format(id=cycle_id, title=json.dumps(title))
    FixCycle.model_validate(yaml.safe_load(text))  # the template itself must always load
    return text


# -- freezing -----------------------------------------------------------------------------------------
def canonical(data) -> bytes:
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def content_hash(cycle: FixCycle) -> str:
    """sha256 over the pre-registered part only: hypothesis, change, predicates."""
    part = {
        "hypothesis": cycle.hypothesis.strip(),
        "change": cycle.change.model_dump(mode="json") if cycle.change else None,
        "predicates": cycle.predicates.model_dump(mode="json"),
    }
    return hashlib.sha256(canonical(part)).hexdigest()


def freeze(cycle: FixCycle) -> FixCycle:
    if cycle.state != "draft":
        raise GateError(f"{cycle.id} is {cycle.state}; only a draft can be frozen")
    missing = [n for n, ok in (("hypothesis", cycle.hypothesis.strip()), ("change", cycle.change)) if not ok]
    if missing:
        raise GateError(f"{cycle.id} cannot be frozen without: {', '.join(missing)}")
    return cycle.model_copy(update={"state": "frozen", "frozen_hash": content_hash(cycle), "frozen_at": now()})


def check_frozen(cycle: FixCycle, logged_hash: str | None) -> None:
    """Raise TamperedCycle when the frozen part no longer matches the hash recorded at freezing."""
    if cycle.state == "draft" or cycle.frozen_hash is None:
        raise GateError(f"{cycle.id} is not frozen (run `migrator fix freeze {cycle.id}` first)")
    actual = content_hash(cycle)
    if actual != cycle.frozen_hash:
        raise TamperedCycle(
            f"{cycle.id} was edited after freezing: hypothesis/change/predicates hash "
            f"{actual[:12]} != frozen {cycle.frozen_hash[:12]}"
        )
    if logged_hash is not None and logged_hash != cycle.frozen_hash:
        raise TamperedCycle(
            f"{cycle.id}: stored hash {cycle.frozen_hash[:12]} differs from the audit log's "
            f"{logged_hash[:12]} (the file was re-frozen outside the gate)"
        )
    if logged_hash is None:
        raise TamperedCycle(f"{cycle.id}: the audit log has no freeze entry for this cycle")


# -- predicates ---------------------------------------------------------------------------------------
def flips(baseline: dict[str, str], candidate: dict[str, str]) -> list[tuple[str, str, str]]:
    """(unit, baseline category, candidate category) for every unit whose category moved."""
    units = sorted(set(baseline) | set(candidate))
    return [
        (u, baseline.get(u, "missing"), candidate.get(u, "missing"))
        for u in units
        if baseline.get(u) != candidate.get(u)
    ]


def regressions(baseline: dict[str, str], candidate: dict[str, str]) -> list[str]:
    """Same definition as CI regression: correct in the baseline arm, anything else in the candidate."""
    return sorted(u for u, c in baseline.items() if c == Category.CORRECT and candidate.get(u) != Category.CORRECT)


def evaluate(predicates: Predicates, baseline: ArmResult, candidate: ArmResult) -> list[PredicateResult]:
    base, cand = baseline.categories(), candidate.categories()
    out = []
    for flip in predicates.flips:
        was, now_ = base.get(flip.unit, "missing"), cand.get(flip.unit, "missing")
        out.append(
            PredicateResult(
                name=f"flip {flip.unit} -> {flip.to}",
                met=was != flip.to and now_ == flip.to,
                detail=f"baseline {was}, candidate {now_}",
            )
        )
    lost = regressions(base, cand)
    out.append(
        PredicateResult(
            name=f"regressions <= {predicates.max_regressions}",
            met=len(lost) <= predicates.max_regressions,
            detail=f"{len(lost)} regressions" + (f": {', '.join(lost)}" if lost else ""),
        )
    )
    if predicates.do_nothing_below:
        dn, ag = candidate.total("do_nothing_row", Category.CORRECT), candidate.total("agent_row", Category.CORRECT)
        out.append(
            PredicateResult(
                name="do-nothing row below candidate",
                met=dn < ag,
                detail=f"do-nothing {dn} correct, candidate {ag} correct",
            )
        )
    return out


def decide(cycle: FixCycle, decision: Decision) -> FixCycle:
    """Record a decision; promote needs every predicate met or an override reason."""
    if cycle.state != "run" and not (cycle.state == "decided" and cycle.decisions[-1].action == "hold"):
        raise GateError(f"{cycle.id} is {cycle.state}; decide needs a finished run (or a held decision)")
    if decision.frozen_hash != cycle.frozen_hash:
        raise TamperedCycle(
            f"{cycle.id}: decision names hash {decision.frozen_hash[:12]}, cycle is frozen at "
            f"{(cycle.frozen_hash or '')[:12]}"
        )
    if cycle.run is None:  # a held decision keeps its run; a "run" state always has one
        raise GateError(f"{cycle.id} has no recorded run to decide on")
    if cycle.run.frozen_hash != cycle.frozen_hash:
        raise TamperedCycle(f"{cycle.id}: the recorded run was made under another frozen hash")
    if decision.action == "promote" and not cycle.run.all_met and not (decision.override or "").strip():
        failed = [p.name for p in cycle.run.predicates if not p.met]
        raise GateError(
            f"{cycle.id}: promote refused, predicates failed: {'; '.join(failed)} "
            '(use --override "reason" to promote anyway; the reason is recorded)'
        )
    return cycle.model_copy(update={"state": "decided", "decisions": [*cycle.decisions, decision]})


# -- the audit log --------------------------------------------------------------------------------
def _entry_hash(entry: dict) -> str:
    return hashlib.sha256(canonical({k: v for k, v in entry.items() if k != "hash"})).hexdigest()


def _read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").splitlines() if path.is_file() else []


def append_audit(path: Path, cycle_id: str, event: str, detail: dict) -> dict:
    """Append one hash-chained entry (its `prev` is the previous entry's `hash`)."""
    report = verify_chain(path)
    if not report.ok:
        raise GateError(
            f"audit log {path} is damaged at line {report.first_bad_line}: {report.problem}; "
            "nothing more is appended until it is restored"
        )
    entry = {
        "seq": report.entries + 1,
        "at": now(),
        "cycle": cycle_id,
        "event": event,
        "detail": detail,
        "prev": report.last_hash,
    }
    entry["hash"] = _entry_hash(entry)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry, sort_keys=True, ensure_ascii=False) + "\n")
    return entry


@dataclass(frozen=True)
class ChainReport:
    ok: bool
    entries: int
    last_hash: str
    first_bad_line: int | None = None
    problem: str = ""


def verify_chain(path: Path) -> ChainReport:
    """Walk the log; the first line whose content, sequence or link does not check out is reported."""
    prev, count = GENESIS, 0
    for number, line in enumerate(_read_lines(path), start=1):
        try:
            entry = json.loads(line)
        except json.JSONDecodeError as exc:
            return ChainReport(False, count, prev, number, f"not JSON ({exc.msg})")
        if not isinstance(entry, dict) or entry.get("prev") != prev:
            return ChainReport(False, count, prev, number, "link to the previous entry is broken")
        if entry.get("hash") != _entry_hash(entry):
            return ChainReport(False, count, prev, number, "content does not match its hash (edited)")
        if entry.get("seq") != count + 1:
            return ChainReport(False, count, prev, number, f"sequence {entry.get('seq')} where {count + 1} was due")
        prev, count = entry["hash"], count + 1
    return ChainReport(True, count, prev)


def audit_entries(path: Path) -> list[dict]:
    return [json.loads(line) for line in _read_lines(path)]


def logged_freeze_hash(path: Path, cycle_id: str) -> str | None:
    """The hash the gate recorded when it froze this cycle (the last freeze entry wins)."""
    hashes = [e["detail"].get("hash") for e in audit_entries(path) if e["cycle"] == cycle_id and e["event"] == "freeze"]
    return hashes[-1] if hashes else None
