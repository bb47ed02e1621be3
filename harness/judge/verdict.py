"""Per-unit categories and evidence tiers, decided from execution only.

Categories (never blended into one score):
- `correct`: deployed, references resolved, every scenario step agrees with Oracle's outcome
  (failing with exactly the error Oracle raised counts as agreeing);
- `wrong`: deployed, but some step contradicts Oracle;
- `unverified`: PostgreSQL accepted it, but there is no Oracle evidence to compare with, or its
  inner references are unresolved, or — with synthesized evidence — the steps did not execute
  every statement and branch of its PL/pgSQL (the reason says which);
- `rejected`: PostgreSQL refused it (parse or deploy error), a dependency was rejected, or its
  body references a table, column, function, type or schema that does not exist (found before any
  scenario runs, by harness.resolution.references).

Tiers: G0 no correctness evidence; G1 the target parses statically; G2 G1 + deployed with
references resolved; G3 G2 + agrees with Oracle-*recorded* ground truth. Transcripts recorded
from a trusted PostgreSQL port (`reference` provenance) and hand-written ones (`authored`) stop
at G2: only Oracle's own behaviour is G3 evidence.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypedDict

from harness.judge.categories import Category
from harness.judge.compare import Mismatch
from harness.probing.coverage import Coverage


@dataclass
class StepVerdict:
    scenario_id: str
    step: str
    mismatch: Mismatch | None
    seconds: float = 0.0


@dataclass
class UnitEvidence:
    """Everything the judge knows about one unit."""

    unit_id: str
    parsed: bool
    deployed: bool
    deploy_error: str | None = None
    blocked_by: list[str] = field(default_factory=list)
    # None: not resolved (no method could read the bodies); [] clean; otherwise what plpgsql_check
    # found unresolved
    reference_problems: list[str] | None = None
    # Names PostgreSQL could not resolve and the catalog confirms missing: the unit is rejected
    missing_references: list[str] = field(default_factory=list)
    reference_method: str | None = None  # "plpgsql_check" | "pglast + PostgreSQL (PREPARE)"
    references_unchecked: list[str] = field(default_factory=list)  # routines no method could read
    steps: list[StepVerdict] = field(default_factory=list)
    missing_outcomes: list[str] = field(default_factory=list)  # "scenario/step" with no Oracle outcome
    # "scenario/step" whose recorded outcome changed with the source's clock: never compared
    clock_dependent: list[str] = field(default_factory=list)
    # agreeing steps whose expected error is user-defined with no number (compared by message)
    number_unknown: int = 0
    setup_errors: list[str] = field(default_factory=list)
    provenance: str | None = None  # "oracle" | "reference" | "authored" | None (no transcript)
    coverage: Coverage | None = None  # of the unit's PL/pgSQL by its scenarios (None: nothing to cover)
    require_coverage: bool = False  # synthesized evidence counts only with complete coverage


@dataclass(frozen=True)
class Verdict:
    unit_id: str
    category: Category
    tier: str
    reason: str
    references: str  # how inner references were resolved
    first_mismatch: tuple[str, str, Mismatch] | None = None  # (scenario, step, mismatch)
    steps: int = 0
    steps_agreeing: int = 0
    coverage: str | None = None  # "coverage 87.5 %: not executed ..." (None: no PL/pgSQL measured)
    coverage_percent: float | None = None


def _references(ev: UnitEvidence) -> str:
    method = ev.reference_method or "plpgsql_check"
    if ev.missing_references:
        return f"missing (resolved by {method}): " + "; ".join(ev.missing_references)
    if ev.reference_problems is None:
        if ev.references_unchecked:
            return f"exercised by scenarios only ({method} could not read: " + "; ".join(ev.references_unchecked) + ")"
        return "exercised by scenarios only (plpgsql_check not installed)"
    if ev.reference_problems:
        return "unresolved: " + "; ".join(ev.reference_problems)
    return f"resolved by {method}"


def _tier(ev: UnitEvidence, agrees: bool) -> str:
    if not ev.parsed:
        return "G0"
    refs_ok = ev.reference_problems is None and ev.steps or ev.reference_problems == []
    if not ev.deployed or not refs_ok or ev.missing_references:
        return "G1"
    if agrees and ev.provenance == "oracle":  # never `reference` (a PostgreSQL port) nor `authored`
        return "G3"
    return "G2"


class _Counts(TypedDict):
    steps: int
    steps_agreeing: int
    coverage: str | None
    coverage_percent: float | None


def decide(ev: UnitEvidence) -> Verdict:
    refs = _references(ev)
    agreeing = sum(1 for s in ev.steps if s.mismatch is None)
    counts = _Counts(steps=len(ev.steps), steps_agreeing=agreeing, coverage=None, coverage_percent=None)
    if ev.coverage is not None:
        counts["coverage"] = ev.coverage.describe()
        counts["coverage_percent"] = ev.coverage.percent
    if not ev.deployed:
        reason = ev.deploy_error or "not deployed"
        return Verdict(ev.unit_id, Category.REJECTED, _tier(ev, False), reason, refs, **counts)
    if ev.blocked_by:
        reason = "dependency rejected: " + ", ".join(ev.blocked_by)
        return Verdict(ev.unit_id, Category.REJECTED, _tier(ev, False), reason, refs, **counts)
    if ev.missing_references:
        reason = "references missing: " + "; ".join(ev.missing_references)
        return Verdict(ev.unit_id, Category.REJECTED, _tier(ev, False), reason, refs, **counts)
    first = next(((s.scenario_id, s.step, s.mismatch) for s in ev.steps if s.mismatch is not None), None)
    if ev.setup_errors:
        return Verdict(ev.unit_id, Category.WRONG, _tier(ev, False), ev.setup_errors[0], refs, **counts)
    if first is not None:
        m = first[2]
        reason = f"{first[0]}/{first[1]}: {m.what}: expected {m.expected}; got {m.actual}"
        return Verdict(ev.unit_id, Category.WRONG, _tier(ev, False), reason, refs, first, **counts)
    if ev.reference_problems:
        return Verdict(ev.unit_id, Category.UNVERIFIED, _tier(ev, False), "references unresolved", refs, **counts)
    if not ev.steps:
        return Verdict(
            ev.unit_id, Category.UNVERIFIED, _tier(ev, False), "no Oracle evidence (no scenario)", refs, **counts
        )
    if ev.missing_outcomes:
        reason = "no Oracle outcome for " + ", ".join(ev.missing_outcomes[:3])
        return Verdict(ev.unit_id, Category.UNVERIFIED, _tier(ev, False), reason, refs, **counts)
    if ev.clock_dependent:
        # The source's own answer moved with its clock: no ground truth for these steps, and a
        # unit is never called wrong (nor correct) on an answer that depends on when it was asked.
        reason = (f"{len(ev.clock_dependent)} step(s) clock-dependent on the {ev.provenance} source (recorded "
                  f"at two instants, answered differently; not compared): " + ", ".join(ev.clock_dependent[:3]))  # fmt: skip
        return Verdict(ev.unit_id, Category.UNVERIFIED, _tier(ev, False), reason, refs, **counts)
    if ev.require_coverage and ev.coverage is not None and not ev.coverage.complete:
        # Synthesized steps that agree but leave code unexecuted say nothing about that code.
        reason = f"all {len(ev.steps)} steps agree, but {ev.coverage.describe()}"
        return Verdict(ev.unit_id, Category.UNVERIFIED, _tier(ev, False), reason, refs, **counts)
    reason = f"all {len(ev.steps)} steps agree with {ev.provenance} transcript"
    if ev.number_unknown:  # weaker evidence: the error's class and message, not its number
        reason += (f" ({ev.number_unknown} of them an error compared by class and message only: "
                   "the source raised it with no Oracle error number)")  # fmt: skip
    return Verdict(ev.unit_id, Category.CORRECT, _tier(ev, True), reason, refs, **counts)
