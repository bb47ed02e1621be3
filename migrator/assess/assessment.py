"""`migrator assess SRC`: how big a migration is, before it starts.

Counts by kind, lines, the constructs the converter recognises (the rules that will convert each
unit, and what will not convert, with its line), calls into Oracle-supplied packages, whether a
scenario already judges each code unit, and the effort the model in migrator.assess.effort puts
on each unit and on the whole schema.
"""

from __future__ import annotations

import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path

from harness.ground_truth.scenarios import load_scenarios
from migrator import __name__ as _tool
from migrator.assess import effort
from migrator.assess.calibration import Calibration, RuleEvidence, default_corpus, measure
from migrator.assess.model import (
    Assessment,
    ConstructCount,
    CostItem,
    EffortModel,
    EffortSummary,
    KindCount,
    NotConverting,
    PackageSummary,
    PackageUse,
    RuleRisk,
    UnitAssessment,
)
from migrator.assess.packages import HANDLED_STATUS, NO_TRANSLATION, NOT_CONVERTED, find_calls, status
from migrator.assess.scan import Converted, convert_schema
from migrator.batch.pipeline import VERSION
from migrator.convert.registry import BY_ID
from migrator.source.units import UnitKind

_WORST = (NOT_CONVERTED, NO_TRANSLATION, HANDLED_STATUS)


@dataclass
class AssessOptions:
    schema: str | None = None
    disabled_rules: frozenset[str] = frozenset()
    scenarios: Path | None = None  # the scenario file whose units already have evidence
    corpus: Path | None = None  # calibration corpus (fixtures/ layout); None: the repository's
    calibrate: bool = True  # False: every rule counts as never judged (no corpus conversion)


def _packages(c: Converted) -> list[PackageUse]:
    reported = [t.lower() for x in c.conversion.unconverted for t in (x.construct, x.message)]
    uses: dict[tuple[str, str], PackageUse] = {}
    for call in find_calls(c.unit.text):
        line = c.unit.span.start_line + call.line - 1
        key = (call.package, call.member)
        if key not in uses:
            uses[key] = PackageUse(
                package=call.package, member=call.member, file_line=line, status=status(call, reported)
            )
    return list(uses.values())


def _not_converting(c: Converted) -> list[NotConverting]:
    start = c.unit.span.start_line
    return [
        NotConverting(
            construct_name=x.construct,
            message=x.message,
            unit_line=x.line,
            file_line=start + x.line - 1 if x.line else None,
        )
        for x in c.conversion.unconverted
    ]


def assess_unit(c: Converted, judged: set[str], calibration: Calibration) -> UnitAssessment:
    unit, conv = c.unit, c.conversion
    packages, missing = _packages(c), _not_converting(c)
    lines = unit.span.end_line - unit.span.start_line + 1
    facts = effort.UnitFacts(
        kind=unit.kind,
        lines=lines,
        rules=list(conv.applied_rules),
        not_converting=len(missing),
        crashed=conv.error is not None,
        packages_left=sum(p.status == NO_TRANSLATION for p in packages),
        scenario=unit.id in judged,
    )
    minutes, cost, complexity = effort.estimate(facts, calibration)
    return UnitAssessment(
        id=unit.id,
        kind=unit.kind.value,
        name=unit.qualified_name,
        source=str(unit.span),
        lines=lines,
        rules=list(conv.applied_rules),
        will_not_convert=missing,
        conversion_error=conv.error.splitlines()[0] if conv.error else None,
        packages=packages,
        scenario=facts.scenario,
        minutes=minutes,
        complexity=complexity,
        cost=cost,
    )


def _constructs(units: list[UnitAssessment]) -> list[ConstructCount]:
    counts: Counter[str] = Counter()
    described: dict[str, str] = {}
    for u in units:
        for rule in dict.fromkeys(u.rules):
            counts[rule] += 1
            described[rule] = BY_ID[rule].description if rule in BY_ID else ""
        for item in {x.construct_name: x for x in u.will_not_convert}.values():
            key = f"not converted: {item.construct_name}"
            counts[key] += 1
            described.setdefault(key, item.message)
    return [
        ConstructCount(name=k, description=described[k], units=n)
        for k, n in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
    ]


def _package_summary(units: list[UnitAssessment]) -> list[PackageSummary]:
    members: dict[str, set[str]] = defaultdict(set)
    users: dict[str, set[str]] = defaultdict(set)
    worst: dict[str, int] = {}
    for u in units:
        for p in u.packages:
            members[p.package].add(p.member)
            users[p.package].add(u.id)
            worst[p.package] = min(worst.get(p.package, 2), _WORST.index(p.status))
    return [
        PackageSummary(
            package=k, members=sorted(m for m in members[k] if m), units=len(users[k]), status=_WORST[worst[k]]
        )
        for k in sorted(members)
    ]


def _one_time(units: list[UnitAssessment], packages: list[PackageSummary], calibration: Calibration) -> list[CostItem]:
    items = [
        CostItem(what=f"replace Oracle package {p.package} ({p.units} units)", minutes=effort.PACKAGE_DESIGN)
        for p in packages
        if p.status != HANDLED_STATUS
    ]
    ddl_rules = Counter(r for u in units if UnitKind(u.kind) not in effort.CODE_KINDS for r in dict.fromkeys(u.rules))
    for rule, n in sorted(ddl_rules.items()):
        items.append(effort.systematic_rule(rule, n, calibration))
    return items


def _summary(units: list[UnitAssessment], one_time: list[CostItem]) -> EffortSummary:
    by_kind: dict[str, float] = defaultdict(float)
    for u in units:
        by_kind[u.kind] += u.minutes
    total = round(sum(u.minutes for u in units) + sum(i.minutes for i in one_time), 1)
    complexity = Counter(u.complexity for u in units)
    return EffortSummary(
        total_minutes=total,
        total_hours=round(total / 60, 1),
        by_kind={k: round(v, 1) for k, v in sorted(by_kind.items())},
        by_complexity={c: complexity.get(c, 0) for c in ("simple", "medium", "complex")},
        one_time=one_time,
    )


def _by_kind(units: list[UnitAssessment]) -> list[KindCount]:
    rows: dict[str, list[float]] = defaultdict(lambda: [0, 0, 0.0])
    for u in units:
        row = rows[u.kind]
        row[0], row[1], row[2] = row[0] + 1, row[1] + u.lines, row[2] + u.minutes
    return [
        KindCount(kind=k, units=int(r[0]), lines=int(r[1]), minutes=round(r[2], 1)) for k, r in sorted(rows.items())
    ]


def _risk(rule: str, calibration: Calibration) -> RuleRisk:
    evidence = calibration.rules.get(rule, RuleEvidence())
    return RuleRisk(rule=rule, judged=evidence.judged, bad=evidence.bad, risk=round(evidence.risk, 3))


def _model(units: list[UnitAssessment], calibration: Calibration) -> EffortModel:
    risks = [_risk(r, calibration) for r in sorted({r for u in units for r in u.rules})]
    return EffortModel(
        unit="minutes of a person's work",
        rows=effort.model_rows(),
        calibration=calibration.source,
        rule_risks=sorted(risks, key=lambda r: (-r.risk, r.rule)),
    )


class AssessError(Exception):
    """The assessment cannot be made as asked (e.g. an unreadable scenario file)."""


def _judged_units(scenarios: Path | None) -> set[str]:
    if scenarios is None:
        return set()
    try:
        return {u for s in load_scenarios(scenarios).scenarios for u in s.units}
    except (OSError, ValueError) as exc:  # ValidationError is a ValueError
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise AssessError(f"scenario file {scenarios}: {first}") from exc


def assess(src: Path, opts: AssessOptions | None = None) -> Assessment:
    """Assess SRC. Raises SourceError for unreadable input and AssessError for a bad scenario file."""
    opts = opts or AssessOptions()
    t0 = time.perf_counter()
    source, converted = convert_schema(src, opts.schema, opts.disabled_rules)
    judged = _judged_units(opts.scenarios)
    calibration = (
        measure(opts.corpus or default_corpus())
        if opts.calibrate
        else Calibration("not calibrated (--no-calibration): every rule counts as never judged")
    )
    units = [assess_unit(c, judged, calibration) for c in converted]
    packages = _package_summary(units)
    one_time = _one_time(units, packages, calibration)
    return Assessment(
        tool=_tool,
        version=VERSION,
        source_dir=str(src),
        schema_name=source.schema,
        disabled_rules=sorted(opts.disabled_rules),
        scenarios=str(opts.scenarios) if opts.scenarios else None,
        units_total=len(units),
        lines_total=sum(u.lines for u in units),
        by_kind=_by_kind(units),
        issues=dict(Counter(i.severity.value for i in source.issues)),
        constructs=_constructs(units),
        packages=packages,
        units=units,
        effort=_summary(units, one_time),
        model=_model(units, calibration),
        seconds=round(time.perf_counter() - t0, 2),
    )
