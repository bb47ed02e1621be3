"""The summary page of a run: the category and tier chart, the legend, the failure reasons, and the
data behind the filterable unit table (no HTML here)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from harness.judge.categories import Category
from migrator.batch.report import RunReport, UnitEntry
from migrator.convert.registry import BY_ID
from migrator.review.reasons import ReasonGroup, group_reasons, reason_of
from migrator.review.unit_view import extra_fields, unit_page

TIER_ORDER = ("G3", "G2", "G1", "G0")
STATUS_ORDER = ("converted", "repaired", "partial", "failed")
GROUP_PREVIEW = 12  # units listed under a reason; the rest are one click away in the table


@dataclass(frozen=True)
class Segment:
    label: str
    count: int
    css: str
    filter_key: str  # the table filter a click on the segment sets


@dataclass
class Bar:
    name: str
    note: str
    total: int
    segments: list[Segment]
    steps: str = ""  # "agreeing/total" scenario steps


@dataclass
class IndexView:
    report: RunReport
    bars: list[Bar]
    tiers: Bar | None
    reasons: list[ReasonGroup]
    coverage: list[tuple[str, str]]  # (measure, value) when units carry coverage, else []
    table: dict = field(default_factory=dict)


def segments(counts: dict[str, int], order: tuple[str, ...], key: str) -> list[Segment]:
    names = [c for c in order if counts.get(c)] + sorted(c for c in counts if c not in order and counts[c])
    return [Segment(c, counts[c], c.lower(), key) for c in names]


def _arm_note(arm: str) -> str:
    if arm == "do-nothing":
        return "nothing deployed: what an empty output scores on the same scenarios"
    if arm == "rules only":
        return "the deterministic rules alone, before the model's repairs"
    return "what this run delivered"


def category_bars(report: RunReport) -> list[Bar]:
    if report.verification is None:  # converted/partial/failed is all a run without --verify knows
        counts = dict(Counter(u.status for u in report.units))
        return [Bar("conversion", "no verification in this run", len(report.units), segments(counts, STATUS_ORDER, ""))]
    bars = []
    for row in report.verification.rows:
        key = "category" if row.arm != "do-nothing" and row.arm != "rules only" else ""
        total = sum(row.by_category.values())
        steps = f"{row.steps_agreeing}/{row.steps_total}"
        bars.append(Bar(row.arm, _arm_note(row.arm), total, segments(row.by_category, tuple(Category), key), steps))
    return bars


def tier_bar(units: list[UnitEntry]) -> Bar | None:
    counts = dict(Counter(u.tier for u in units if u.tier))
    if not counts:
        return None
    return Bar(
        "evidence tier",
        "per unit, of what this run delivered",
        sum(counts.values()),
        segments(counts, TIER_ORDER, "tier"),
    )


def coverage_rows(units: list[UnitEntry]) -> list[tuple[str, str]]:
    """Numbers from any per-unit field named like coverage (added by scenario synthesis)."""
    rows = []
    values: dict[str, list[float]] = {}
    for unit in units:
        for name, value in extra_fields(unit):
            if "coverage" in name and isinstance(value, int | float) and not isinstance(value, bool):
                values.setdefault(name, []).append(float(value))
    for name, vs in sorted(values.items()):
        rows.append((name, f"mean {sum(vs) / len(vs):.1f}, min {min(vs):g}, max {max(vs):g} over {len(vs)} units"))
    return rows


def _problem(unit: UnitEntry) -> str:
    text = unit.error or unit.static_error or unit.deploy_error or unit.agent_error
    if not text and unit.category not in (None, Category.CORRECT):
        text = unit.verdict
    text = "; ".join(f"{i.construct_name}: {i.message}" for i in unit.unconverted) if not text else text
    first = (text or "").strip().splitlines()
    return first[0][:240] if first else ""


FIELDS: tuple[str, ...] = ("id", "href", "kind", "name", "category", "tier", "status", "reason", "constructs")
FIELDS += ("source", "steps", "tokens", "problem")


def _row(unit: UnitEntry, extras: list[str]) -> list:
    reason = reason_of(unit)
    constructs = list(unit.rules_applied) + [f"not converted: {i.construct_name}" for i in unit.unconverted]
    steps = f"{unit.steps_agreeing}/{unit.steps}" if unit.steps else ""
    facts = dict(extra_fields(unit))
    return [
        *(unit.id, unit_page(unit.id), unit.kind, unit.name, unit.category or unit.status, unit.tier or ""),
        *(unit.status, reason.label if reason else "", constructs, unit.source, steps, unit.agent_tokens or ""),
        _problem(unit),
        *(facts.get(name, "") if isinstance(facts.get(name), int | float | str) else "" for name in extras),
    ]


def table_data(report: RunReport) -> dict:
    """What review.js needs: the rows, which fields are columns, filters and searched text."""
    extras = sorted({k for u in report.units for k, v in extra_fields(u) if isinstance(v, int | float | str)})
    columns = [["id", "unit"], ["kind", "kind"], ["category", "category"], ["tier", "tier"], ["reason", "reason"]]
    columns += [["steps", "steps agreeing"], ["source", "source"]]
    columns += [["tokens", "model tokens"]] if report.agent else []
    # "coverage" is the text of "coverage_percent" ("coverage 100 %"): one column, the number (it sorts)
    shown = [k for k in extras if not (k == "coverage" and "coverage_percent" in extras)]
    columns += [[k, "coverage %" if k == "coverage_percent" else k.replace("_", " ")] for k in shown]
    return {
        "fields": [*FIELDS, *extras],
        "columns": columns,
        "filters": [["category", "category"], ["tier", "tier"], ["kind", "kind"], ["reason", "reason"]]
        + [["constructs", "construct"]],
        "search": ["id", "name", "source", "reason", "problem"],
        "rules": {r: BY_ID[r].description for r in BY_ID},
        "rows": [_row(u, extras) for u in report.units],
    }


def build_index_view(report: RunReport) -> IndexView:
    return IndexView(
        report=report,
        bars=category_bars(report),
        tiers=tier_bar(report.units),
        reasons=group_reasons(report.units),
        coverage=coverage_rows(report.units),
        table=table_data(report),
    )
