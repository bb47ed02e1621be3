"""Why a unit is not `correct`, as one short reason that units with the same cause share.

A reviewer of a large run needs "needs an Oracle-supplied package with no PostgreSQL equivalent:
UTL_FILE: 7 units" before the units
themselves. A unit's reason is the first thing that went wrong on its way (conversion, PostgreSQL's
parser, deployment, a rejected dependency, a step that disagrees with Oracle, missing evidence),
with the specifics that differ from unit to unit (argument types, literals) taken out of the
message so that one cause makes one group. Names stay: "function nvl(…) does not exist" is one
cause, "relation "audit_log" does not exist" another.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from harness.judge.categories import Category
from migrator.batch.report import UnitEntry
from migrator.convert.supplied import REDESIGN, SUPPLIED_CONSTRUCT

SUPPLIED_PACKAGE = SUPPLIED_CONSTRUCT  # a member of a converted package without a conversion
_CLASS_PREFIX = re.compile(r"^[A-Z][A-Za-z]+: ")  # psycopg's exception class before the message
_PARENS = re.compile(r"\([^()]*\)")
_STRING = re.compile(r"'(?:[^']|'')*'")


@dataclass(frozen=True)
class Reason:
    label: str  # also the key units are grouped by
    stage: str  # conversion | parse | deploy | behaviour | evidence | repair


@dataclass
class ReasonGroup:
    reason: Reason
    units: list[str] = field(default_factory=list)
    categories: dict[str, int] = field(default_factory=dict)


def shape(message: str | None) -> str:
    """The first line of a message without the parts that differ per unit."""
    lines = (message or "").strip().splitlines()
    first = _CLASS_PREFIX.sub("", lines[0].strip()) if lines else ""
    first = _STRING.sub("'…'", _PARENS.sub("(…)", first))
    return first[:160] or "(no message)"


def _unconverted(unit: UnitEntry) -> Reason:
    item = unit.unconverted[0]
    if item.construct_name.startswith(REDESIGN):  # "needs an Oracle-supplied package ...: UTL_FILE"
        return Reason(item.construct_name, "conversion")
    if item.construct_name == SUPPLIED_PACKAGE:
        package = item.message.split(".", 1)[0].split()[0].upper() if item.message.strip() else "?"
        return Reason(f"needs Oracle package {package}", "conversion")
    return Reason(f"will not convert: {item.construct_name}", "conversion")


def _mismatch(unit: UnitEntry) -> Reason:
    m = unit.first_mismatch
    if m is None:  # wrong without a step mismatch: the scenario's setup failed
        return Reason(f"scenario setup fails: {shape((unit.verdict or '').split(': ', 1)[-1])}", "behaviour")
    if m.what in ("unexpected error", "error"):
        return Reason(f"differs from Oracle: raises {shape(m.actual)}", "behaviour")
    if m.what == "missing error":
        return Reason(f"differs from Oracle: does not raise {m.expected.split(':', 1)[0]}", "behaviour")
    words = {"rows": "result rows", "output": "DBMS_OUTPUT lines", "error message": "error message text"}
    if m.what == "timeout":
        return Reason("a step times out", "behaviour")
    return Reason(f"differs from Oracle: {words.get(m.what, m.what)}", "behaviour")


def _unverified(unit: UnitEntry) -> Reason:
    verdict = unit.verdict or ""
    if verdict.startswith("no Oracle evidence"):
        return Reason("unverified: no scenario judges it", "evidence")
    if verdict.startswith("references unresolved"):
        return Reason("unverified: inner references unresolved (plpgsql_check)", "evidence")
    if verdict.startswith("no Oracle outcome"):
        return Reason("unverified: the transcript has no Oracle outcome for its steps", "evidence")
    if "clock-dependent on the" in verdict:
        return Reason("unverified: the source's answers changed with its clock", "evidence")
    return Reason(f"unverified: {shape(verdict)}", "evidence")


def reason_of(unit: UnitEntry) -> Reason | None:
    """The unit's one reason, or None when nothing is wrong with it (correct, or converted and
    deployed in a run that did not verify)."""
    if unit.error:
        return Reason(f"conversion failed: {unit.error.split(':', 1)[0]}", "conversion")
    if unit.unconverted:
        return _unconverted(unit)
    if unit.static_ok is False:
        return Reason(f"PostgreSQL's parser refuses it: {shape(unit.static_error)}", "parse")
    if unit.blocked_by:
        return Reason("a unit it depends on was rejected", "deploy")
    if unit.deployed is False:
        return Reason(f"PostgreSQL refuses to deploy it: {shape(unit.deploy_error)}", "deploy")
    if unit.category == Category.WRONG:
        return _mismatch(unit)
    if unit.category == Category.UNVERIFIED:
        return _unverified(unit)
    if unit.agent_error:
        return Reason(f"repair: {shape(unit.agent_error)}", "repair")
    return None


def group_reasons(units: Iterable[UnitEntry]) -> list[ReasonGroup]:
    """Reasons with their units: failures before missing evidence, then the largest group first."""
    groups: dict[str, ReasonGroup] = {}
    for unit in units:
        reason = reason_of(unit)
        if reason is None:
            continue
        group = groups.setdefault(reason.label, ReasonGroup(reason))
        group.units.append(unit.id)
        category = unit.category or unit.status
        group.categories[category] = group.categories.get(category, 0) + 1
    return sorted(groups.values(), key=lambda g: (g.reason.stage == "evidence", -len(g.units), g.reason.label))
