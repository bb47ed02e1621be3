"""Everything one unit's page shows, gathered from the run's files (no HTML here)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field

from migrator.batch.report import UnitEntry
from migrator.batch.steps_file import ScenarioSteps
from migrator.convert.registry import BY_ID
from migrator.review.align import ADDED, CHANGED, REMOVED, AlignedRow, header_lines, side_by_side
from migrator.review.inputs import RunInputs, TextReader
from migrator.review.reasons import Reason, reason_of
from migrator.suites.model import TestResult

_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]")
# Fields every page already shows in its own place; any other field of UnitEntry (coverage, say,
# when scenario synthesis adds it) is listed under "Other facts" and becomes a table column.
SHOWN_FIELDS = frozenset(
    {
        *("id", "kind", "name", "source", "status", "output", "rules_applied", "unconverted", "notes", "error"),
        *("depends_on", "static_ok", "static_error", "static_note", "deployed", "deploy_error", "sqlstate"),
        *("blocked_by", "category", "tier", "verdict", "references", "steps", "steps_agreeing", "first_mismatch"),
        *("agent_attempts", "agent_tokens", "agent_error", "rules_category", "tests"),
    }
)


def unit_page(unit_id: str) -> str:
    """Site-relative page of a unit: file-safe, unique (a hash of the exact id), never a path."""
    digest = hashlib.sha256(unit_id.encode("utf-8")).hexdigest()[:10]
    return f"units/{_UNSAFE.sub('_', unit_id)[:80]}-{digest}.html"


@dataclass(frozen=True)
class Link:
    label: str
    href: str | None  # relative to the unit page; None: nothing to link to
    note: str = ""


@dataclass
class UnitView:
    unit: UnitEntry
    page: str
    reason: Reason | None
    rows: list[AlignedRow]
    source_problem: str | None
    output_problem: str | None
    rules: list[tuple[str, str]]  # (rule id, description; "" for an id the registry does not know)
    scenarios: list[ScenarioSteps]
    agent: dict | None  # the unit's entry in run_manifest.json
    depends_on: list[Link] = field(default_factory=list)
    blocked_by: list[Link] = field(default_factory=list)
    files: list[Link] = field(default_factory=list)
    facts: list[tuple[str, str]] = field(default_factory=list)
    tests: list[TestResult] = field(default_factory=list)  # the team's tests that executed the unit

    @property
    def changed_lines(self) -> int:
        return sum(r.change in (CHANGED, ADDED, REMOVED) for r in self.rows)


def extra_fields(unit: UnitEntry) -> list[tuple[str, object]]:
    """Fields a newer report carries that this page has no place for yet, shown generically."""
    extra = unit.model_extra or {}
    shown = {k: getattr(unit, k) for k in type(unit).model_fields if k not in SHOWN_FIELDS}
    return [(k, v) for k, v in {**shown, **extra}.items() if v not in (None, [], {}, "")]


def _unit_links(ids: list[str], known: set[str]) -> list[Link]:
    return [Link(i, "../" + unit_page(i) if i in known else None) for i in ids]


def _files(inputs: RunInputs, unit: UnitEntry) -> list[Link]:
    out = inputs.out
    links = [Link("PostgreSQL output", f"../../{unit.output}", unit.output)] if unit.output else []
    if unit.output and not (out / unit.output).is_file():
        links = [Link("PostgreSQL output", None, f"{unit.output} (missing)")]
    for name, label in (("report.json", "report.json"), ("steps.json", "steps.json"), ("deploy.sql", "deploy.sql")):
        if (out / name).is_file():
            links.append(Link(label, f"../../{name}"))
    links.append(Link("Oracle source", None, f"{inputs.report.source_dir}/{unit.source}"))
    return links


def build_unit_view(inputs: RunInputs, texts: TextReader, unit: UnitEntry, known: set[str]) -> UnitView:
    source, output = texts.source(unit), texts.output(unit)
    header = header_lines(len(unit.unconverted), bool(unit.error)) if not output.problem else 0
    rows = side_by_side(source.text, output.text, source_start=source.first_line, header=header)
    return UnitView(
        unit=unit,
        page=unit_page(unit.id),
        reason=reason_of(unit),
        rows=rows,
        source_problem=source.problem,
        output_problem=output.problem,
        rules=[(r, BY_ID[r].description if r in BY_ID else "") for r in unit.rules_applied],
        scenarios=inputs.steps.for_unit(unit.id) if inputs.steps else [],
        agent=inputs.attempts.get(unit.id),
        depends_on=_unit_links(unit.depends_on, known),
        blocked_by=_unit_links(unit.blocked_by, known),
        files=_files(inputs, unit),
        facts=[(k, str(v)) for k, v in extra_fields(unit)],
        tests=[inputs.tests[n] for n in unit.tests if n in inputs.tests],
    )
