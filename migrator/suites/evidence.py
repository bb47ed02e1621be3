"""What a suite run says about the library's units, and the Oracle log that raises it to G3.

A test that ran is evidence for the units it executed (the coverage probes tell which):
- one of them failed or raised → the unit is `wrong`, its verdict naming the test and its message
  (whatever other evidence said: a contradiction outweighs agreement);
- all of them passed → a unit that had no verdict or only `unverified` becomes `correct` when it
  deployed with nothing it depends on refused; provenance `suite:<sha256 of the test sources>`.
  The tier is G2 (a team's assertions are not Oracle's recorded behaviour), G3 when a log of the
  same suite's run on Oracle (`--oracle-test-log`) shows every one of those tests passing there.
Units no test executed keep their evidence. Every unit lists the tests that executed it.
A SQL*Plus script's steps (plain style) see what the steps before them left: a unit that only
passing steps executed is not made `correct` when a later step of the same script failed (that
failure may come from what it wrote); a note says so.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from pathlib import Path

from migrator.batch.report import UnitEntry
from migrator.errors import MigratorError
from migrator.suites.model import Outcome, TestResult, TestRun

_PASS_WORD = re.compile(r"\b(?:pass(?:ed)?|ok|success(?:ful)?)\b", re.I)
_FAIL_WORD = re.compile(r"\b(?:fail(?:ed|ure)?|error|not\s+ok|skipped|disabled)\b", re.I)


class OracleLogError(MigratorError):
    """An --oracle-test-log that cannot be read."""


def oracle_passed(path: Path, names: Iterable[str]) -> tuple[set[str], list[str]]:
    """The test names the Oracle log shows passing, and notes (log entries matching no test).

    The log may be a `tests.json` (this tool's format, or any `{"tests": [{"name", "outcome"}]}`),
    a JUnit XML file (a testcase with no failure/error/skipped passed; `classname.name` or `name`),
    or text: a line naming a test (`suite.test`, or the test's last part when unambiguous) with a
    pass word (PASS, PASSED, OK, SUCCESS) and no fail word passes it."""
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise OracleLogError(f"--oracle-test-log {path}: {exc.strerror or exc}") from None
    known = {n.lower(): n for n in names}
    short: dict[str, list[str]] = {}
    for n in known.values():
        short.setdefault(n.lower().rsplit(".", 1)[-1], []).append(n)
    passed: set[str] = set()
    unknown: list[str] = []

    def take(name: str) -> None:
        key = name.strip().strip('"').lower()
        if key in known:
            passed.add(known[key])
        elif len(short.get(key.rsplit(".", 1)[-1], [])) == 1:
            passed.add(short[key.rsplit(".", 1)[-1]][0])
        else:
            unknown.append(name.strip())

    stripped = text.lstrip()
    if stripped.startswith("{"):
        try:
            data = json.loads(text)
        except ValueError as exc:
            raise OracleLogError(f"--oracle-test-log {path}: not JSON: {exc}") from None
        for t in data.get("tests", []):
            if str(t.get("outcome", "")).lower() == "passed":
                take(str(t.get("name", "")))
    elif stripped.startswith("<"):
        try:
            root = ET.fromstring(text)
        except ET.ParseError as exc:
            raise OracleLogError(f"--oracle-test-log {path}: not XML: {exc}") from None
        for case in root.iter("testcase"):
            if any(case.find(tag) is not None for tag in ("failure", "error", "skipped")):
                continue
            cls, name = case.get("classname", ""), case.get("name", "")
            full = f"{cls}.{name}" if cls and f"{cls}.{name}".lower() in known else name
            take(full)
    else:
        for line in text.splitlines():
            if not _PASS_WORD.search(line) or _FAIL_WORD.search(line):
                continue
            hits = [n for k, n in known.items() if re.search(rf"(?<![\w$#]){re.escape(k)}(?![\w$#])", line, re.I)]
            if not hits:
                hits = [v[0] for k, v in short.items() if len(v) == 1 and re.search(rf"(?<![\w$#.]){re.escape(k)}(?![\w$#])", line, re.I)]  # fmt: skip
            passed.update(hits)
    notes = [f"Oracle log names {n!r}, which is no test of this suite" for n in dict.fromkeys(unknown)]
    return passed, notes


def apply(units: list[UnitEntry], run: TestRun, passed_on_oracle: set[str] | None) -> list[UnitEntry]:
    by_unit: dict[str, list[TestResult]] = {}
    for r in run.results:
        for unit_id in r.units:
            by_unit.setdefault(unit_id, []).append(r)
    # A script's steps see what the steps before them left (plain style): a step that failed
    # may have failed on what an earlier passing step's units wrote, so those passes prove nothing.
    doubted: set[str] = set()
    for i, r in enumerate(run.results):
        if r.script and r.outcome in (Outcome.FAILED, Outcome.ERROR):
            doubted.update(e.name for e in run.results[:i] if e.script and e.suite == r.suite)
    provenance = f"suite:{run.suite_sha256}"
    out = []
    for u in units:
        ran = by_unit.get(u.id, [])
        if not ran:
            out.append(u)
            continue
        names = [r.name for r in ran]
        bad = [r for r in ran if r.outcome in (Outcome.FAILED, Outcome.ERROR)]
        update: dict = {"tests": names}
        if bad:
            first = bad[0]
            update.update(
                category="wrong",
                tier="G2" if u.deployed else (u.tier or "G1"),
                verdict=f"test {first.name} {first.outcome.value}: {first.message}"
                + (f" (+{len(bad) - 1} more failing test(s))" if len(bad) > 1 else ""),
                provenance=provenance,
            )
        elif any(n in doubted for n in names):
            update["notes"] = [
                *u.notes,
                "the script tests that executed it passed, but a later test of the same script failed",
            ]
        elif u.category in (None, "unverified") and u.deployed and not u.blocked_by and not _unresolved(u):
            g3 = passed_on_oracle is not None and all(n in passed_on_oracle for n in names)
            update.update(
                category="correct",
                tier="G3" if g3 else "G2",
                verdict=f"{len(ran)} test(s) of the team's suite executed it and passed"
                + (" (and passed on Oracle)" if g3 else ""),
                provenance=provenance,
            )
        out.append(u.model_copy(update=update))
    return out


def _unresolved(u: UnitEntry) -> bool:
    """References the judge found unresolved or missing: passing tests do not make up for them."""
    return (u.references or "").startswith(("unresolved", "missing"))
