"""The effort model: expected minutes of a person's work per unit, written down, not hidden.

In the spirit of ora2pg's cost units and AWS SCT's complexity levels, but priced from what this
tool measures instead of from object types alone:

- every unit is read and signed off (a per-kind minimum, plus reading time per line of code);
- every rule that converts a code unit (PL/SQL, a view's query) may have got it wrong there: the
  rule's risk, measured on the fixture corpus (migrator.assess.calibration), times the time to
  find and fix such a mistake in that unit. In DDL and data a rule's mistake is systematic (the
  same on every table or INSERT, and it shows at deployment): it is priced once per schema;
- every construct that will not convert is rewritten by hand, and a unit the converter crashes on
  is migrated by hand;
- a call into an Oracle-supplied package that the converter leaves as written must be replaced;
  each such package needs a replacement designed once per schema;
- a code unit no scenario judges needs one written (and Oracle's outcome recorded), or it can
  never be shown correct.

The numbers are defaults to be argued with: they are printed with every assessment, and changing
them is changing this table.
"""

from __future__ import annotations

from dataclasses import dataclass

from migrator.assess.calibration import Calibration
from migrator.assess.model import CostItem, ModelRow
from migrator.source.units import UnitKind

REVIEW = {  # minutes to read and sign off a converted unit of each kind
    UnitKind.TABLE: 3,
    UnitKind.INDEX: 1,
    UnitKind.SEQUENCE: 1,
    UnitKind.VIEW: 5,
    UnitKind.MATERIALIZED_VIEW: 8,
    UnitKind.DATA: 0.05,  # an INSERT of fixture or reference data: sampled, not read one by one
    UnitKind.FUNCTION: 8,
    UnitKind.PROCEDURE: 10,
    UnitKind.PACKAGE_SPEC: 5,
    UnitKind.PACKAGE_BODY: 20,
    UnitKind.TRIGGER: 8,
    UnitKind.TYPE: 4,
    UnitKind.TYPE_BODY: 15,
    UnitKind.SYNONYM: 1,
    UnitKind.GRANT: 0.5,
    UnitKind.COMMENT: 0.2,
    UnitKind.ALTER: 1,
    UnitKind.ANONYMOUS_BLOCK: 5,
    UnitKind.OTHER: 5,
}
CODE_KINDS = frozenset({*(k for k in UnitKind if k.is_plsql), UnitKind.VIEW, UnitKind.MATERIALIZED_VIEW})
PER_CODE_LINE = 0.1  # reading a line of procedural code or a view's query
FIX_CODE = 30.0  # finding and fixing a rule's mistake in code (it shows only when a scenario runs)
FIX_DDL = 30.0  # ... in DDL and data, once per schema (the same mistake everywhere, seen at deployment)
MANUAL_CONSTRUCT = 60.0  # rewriting one construct that will not convert, and testing it
CONVERSION_CRASH = 120.0  # migrating a unit the converter cannot process, by hand
PACKAGE_CALL = 30.0  # replacing one member of a supplied package with no translation, per unit
PACKAGE_DESIGN = 240.0  # once per schema: deciding what replaces a supplied package
SCENARIO = 20.0  # writing a scenario for a code unit and recording Oracle's outcome
MEDIUM, COMPLEX = 30.0, 120.0  # minutes at which a unit stops being simple / becomes complex


def model_rows() -> list[ModelRow]:
    review = ", ".join(f"{k.value} {v:g}" for k, v in REVIEW.items())
    return [
        ModelRow(item="review, per unit by kind", minutes=None, why=f"read and sign off: {review}"),
        ModelRow(item="reading, per line of code", minutes=PER_CODE_LINE, why="PL/SQL units and view queries"),
        ModelRow(item="rule risk in code, per rule and unit", minutes=FIX_CODE, why="x the rule's measured risk"),
        ModelRow(
            item="rule risk in DDL and data, per rule and schema",
            minutes=FIX_DDL,
            why="x the rule's measured risk, once",
        ),
        ModelRow(item="construct that will not convert", minutes=MANUAL_CONSTRUCT, why="rewrite by hand and test"),
        ModelRow(item="conversion crash", minutes=CONVERSION_CRASH, why="the whole unit by hand"),
        ModelRow(item="supplied-package member with no translation", minutes=PACKAGE_CALL, why="replace the call"),
        ModelRow(item="supplied package without counterpart", minutes=PACKAGE_DESIGN, why="once per schema"),
        ModelRow(item="scenario for an unjudged code unit", minutes=SCENARIO, why="else it stays unverified"),
        ModelRow(
            item="complexity",
            minutes=MEDIUM,
            why=f"simple below {MEDIUM:g} min, complex from {COMPLEX:g} min or when something will not convert",
        ),
    ]


@dataclass(frozen=True)
class UnitFacts:
    kind: UnitKind
    lines: int
    rules: list[str]
    not_converting: int
    crashed: bool
    packages_left: int  # distinct supplied-package members with no translation
    scenario: bool


def estimate(facts: UnitFacts, calibration: Calibration) -> tuple[float, list[CostItem], str]:
    """(minutes, what they are made of, complexity) for one unit."""
    code = facts.kind in CODE_KINDS
    items = [CostItem(what=f"review ({facts.kind.value})", minutes=REVIEW.get(facts.kind, 5))]
    if code:
        items.append(CostItem(what=f"reading {facts.lines} lines", minutes=round(PER_CODE_LINE * facts.lines, 2)))
    for rule in facts.rules if code else ():
        risk = calibration.risk(rule)
        items.append(CostItem(what=f"rule {rule} (risk {risk:.2f})", minutes=round(FIX_CODE * risk, 2)))
    if facts.not_converting:
        items.append(
            CostItem(
                what=f"{facts.not_converting} construct(s) by hand", minutes=MANUAL_CONSTRUCT * facts.not_converting
            )
        )
    if facts.crashed:
        items.append(CostItem(what="conversion crash: the unit by hand", minutes=CONVERSION_CRASH))
    if facts.packages_left:
        items.append(
            CostItem(
                what=f"{facts.packages_left} supplied-package member(s) to replace",
                minutes=PACKAGE_CALL * facts.packages_left,
            )
        )
    if code and not facts.scenario:
        items.append(CostItem(what="write a scenario", minutes=SCENARIO))
    minutes = round(sum(i.minutes for i in items), 1)
    hard = facts.not_converting or facts.crashed or facts.packages_left
    complexity = "complex" if hard or minutes >= COMPLEX else "medium" if minutes >= MEDIUM else "simple"
    return minutes, items, complexity


def systematic_rule(rule: str, units: int, calibration: Calibration) -> CostItem:
    """A rule's possible mistake in DDL and data units, found and fixed once for the schema."""
    risk = calibration.risk(rule)
    return CostItem(what=f"rule {rule} in {units} DDL/data unit(s) (risk {risk:.2f})", minutes=round(FIX_DDL * risk, 2))
