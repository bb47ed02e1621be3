"""The assessment file (assessment.json): pydantic models, frozen, extra fields forbidden."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class NotConverting(_Frozen):
    """What the converter will leave unconverted (the same item `migrate` reports)."""

    construct_name: str
    message: str
    unit_line: int | None = None  # 1-based within the unit, as report.json's unconverted[].line
    file_line: int | None = None  # the same line in the source file


class PackageUse(_Frozen):
    package: str
    member: str
    file_line: int
    status: str  # handled | not converted | no translation


class CostItem(_Frozen):
    what: str
    minutes: float


class UnitAssessment(_Frozen):
    id: str
    kind: str
    name: str
    source: str  # file:start-end
    lines: int
    rules: list[str]  # the rules that will convert it, in order of first application
    will_not_convert: list[NotConverting] = []
    conversion_error: str | None = None  # the converter crashed on it (first line)
    packages: list[PackageUse] = []
    scenario: bool = False  # a scenario already judges it
    minutes: float
    complexity: str  # simple | medium | complex
    cost: list[CostItem]


class ConstructCount(_Frozen):
    name: str  # a rule id, or "not converted: <construct>"
    description: str
    units: int


class PackageSummary(_Frozen):
    package: str
    members: list[str]
    units: int
    status: str  # the worst status of its uses


class ModelRow(_Frozen):
    item: str
    minutes: float | None  # None: the minutes are in `why` (e.g. per kind)
    why: str


class RuleRisk(_Frozen):
    rule: str
    judged: int  # fixture units using the rule that execution judged (correct, wrong or rejected)
    bad: int  # of them wrong or rejected
    risk: float  # (bad + 1) / (judged + 2)


class EffortModel(_Frozen):
    unit: str  # what the numbers are
    rows: list[ModelRow]
    calibration: str  # where the rule risks were measured, in words
    rule_risks: list[RuleRisk]


class EffortSummary(_Frozen):
    total_minutes: float
    total_hours: float
    by_kind: dict[str, float]
    by_complexity: dict[str, int]
    one_time: list[CostItem]  # per schema, not per unit (a DDL rule's systematic mistake, replacing UTL_FILE)


class KindCount(_Frozen):
    kind: str
    units: int
    lines: int
    minutes: float


class Assessment(_Frozen):
    tool: str
    version: str
    source_dir: str
    schema_name: str
    disabled_rules: list[str]
    scenarios: str | None  # the scenario file consulted for existing evidence
    units_total: int
    lines_total: int
    by_kind: list[KindCount]
    issues: dict[str, int]  # reader issues by severity
    constructs: list[ConstructCount]
    packages: list[PackageSummary]
    units: list[UnitAssessment]
    effort: EffortSummary
    model: EffortModel
    seconds: float
