"""Report renderings beyond Markdown: HTML for reviewers, JUnit XML for CI."""

from __future__ import annotations

import html
import re
import xml.etree.ElementTree as ET
from pathlib import Path

from migrator.batch.report import RunReport, UnitEntry, verification_table
from migrator.suites.model import TestRun

_STYLE = """body{font-family:system-ui,sans-serif;margin:2em;max-width:1200px}
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;vertical-align:top}
.correct{background:#e6f4e6}.wrong{background:#fde2e2}.rejected{background:#f8d0d0}.unverified{background:#fff6d6}
pre{background:#f6f6f6;padding:8px;overflow-x:auto;font-size:12px}details{margin:4px 0}"""


def _source_text(report: RunReport, unit: UnitEntry) -> str:
    """The unit's Oracle source, read back from the schema directory by its file:line span."""
    where = unit.source
    if ":" not in where:
        return ""
    file, _, lines = where.rpartition(":")
    start, _, end = lines.partition("-")
    path = Path(report.source_dir) / file
    try:
        all_lines = path.read_bytes().decode("utf-8", errors="replace").splitlines()
    except OSError:
        return f"(source file {path} not readable)"
    return "\n".join(all_lines[int(start) - 1 : int(end or start)])


def _unit_html(report: RunReport, unit: UnitEntry, out: Path) -> str:
    e = html.escape
    output = (out / unit.output).read_text(encoding="utf-8") if unit.output and (out / unit.output).exists() else ""
    parts = [
        f"<details><summary class='{e(unit.category or '')}'><code>{e(unit.id)}</code> — "
        f"{e(unit.category or unit.status)} {e(unit.tier or '')} · {e(unit.source)}</summary>"
    ]
    if unit.verdict:
        parts.append(f"<p>{e(unit.verdict)}<br>references: {e(unit.references or '')}</p>")
    m = unit.first_mismatch
    if m:
        parts.append(
            f"<p><b>first mismatch</b> {e(m.scenario)}/{e(m.step)} ({e(m.what)})<br>"
            f"expected: <code>{e(m.expected)}</code><br>actual: <code>{e(m.actual)}</code></p>"
        )
    parts.append(f"<h4>Oracle source</h4><pre>{e(_source_text(report, unit))}</pre>")
    parts.append(f"<h4>PostgreSQL output</h4><pre>{e(output)}</pre></details>")
    return "\n".join(parts)


# The order a reviewer reads units in: what is shown wrong first, then what failed to deploy,
# then what nothing judged; deployment order within each.
_READING_ORDER = ("wrong", "rejected", "unverified", "correct")


def _inline(text: str) -> str:
    """Markdown's `code` spans (the summary lines are written for report.md) as HTML, the rest escaped."""
    return _CODE_SPAN.sub(lambda m: f"<code>{m.group(1)}</code>", html.escape(text))


_CODE_SPAN = re.compile(r"`([^`]+)`")


def _failures_first(units: list[UnitEntry]) -> list[UnitEntry]:
    rank = {c: i for i, c in enumerate(_READING_ORDER)}
    return sorted(units, key=lambda u: rank.get(u.category or "", len(rank)))  # stable: deployment order kept


def to_html(report: RunReport, out: Path) -> str:
    e = html.escape
    table = ""
    if report.verification:
        rows = verification_table(report.verification)
        cells = [r.strip("|").split("|") for r in rows[2:] if not r.startswith("|---")]
        table = (
            "<p>"
            + _inline(rows[0])
            + "</p><table>"
            + "".join("<tr>" + "".join(f"<td>{_inline(c.strip())}</td>" for c in row) + "</tr>" for row in cells)
            + "</table>"
        )
    units = _failures_first(report.units)
    counts = ", ".join(f"{n} {c}" for c in _READING_ORDER if (n := sum(u.category == c for u in units)))
    body = "\n".join(_unit_html(report, u, out) for u in units)
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>Migration report {e(report.schema_name)}</title>"
        f"<style>{_STYLE}</style></head><body><h1>Migration report: {e(report.schema_name)}</h1>"
        f"<p>{report.summary.units} units from <code>{e(report.source_dir)}</code></p>{table}"
        f"<h2>Units</h2><p>Failures first ({e(counts)}); in deployment order within each category.</p>"
        f"{body}</body></html>\n"
    )


def to_junit(report: RunReport, tests: TestRun | None = None) -> str:
    """One testcase per unit: `wrong`/`rejected` fail, `unverified` is skipped with its reason.
    With the team's tests (migrate --tests), a `testsuites` root holds that suite and one suite
    per test suite: each test a testcase with its outcome, message, duration and DBMS_OUTPUT."""
    suite = ET.Element("testsuite", name=f"migration.{report.schema_name}", tests=str(len(report.units)))
    failures = skipped = 0
    for u in report.units:
        case = ET.SubElement(suite, "testcase", classname=f"{report.schema_name}.{u.kind}", name=u.id)
        if u.category in ("wrong", "rejected"):
            failures += 1
            msg = u.verdict or u.deploy_error or "failed"
            ET.SubElement(case, "failure", message=msg[:500], type=u.category).text = msg
        elif u.category == "unverified":
            skipped += 1
            ET.SubElement(case, "skipped", message=(u.verdict or "")[:500])
    suite.set("failures", str(failures))
    suite.set("skipped", str(skipped))
    suite.set("errors", "0")
    if report.verification is None:  # a run with tests but no scenarios: the tests are the suite
        root = ET.Element("testsuites")
    elif tests is None:
        return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"
    else:
        root = ET.Element("testsuites")
        root.append(suite)
    if tests is not None:
        _test_suites(root, tests)
    return ET.tostring(root, encoding="unicode", xml_declaration=True) + "\n"


def _test_suites(root: ET.Element, tests: TestRun) -> None:
    by_suite: dict[str, list] = {}
    for r in tests.results:
        by_suite.setdefault(r.suite, []).append(r)
    for name, results in by_suite.items():
        el = ET.SubElement(root, "testsuite", name=f"tests.{name}", tests=str(len(results)))
        counts = {"failed": 0, "error": 0, "skipped": 0}
        for r in results:
            short = r.name[len(name) + 1 :] if r.name.startswith(name + ".") else r.name
            case = ET.SubElement(el, "testcase", classname=name, name=short, time=f"{r.seconds:.3f}")
            outcome = r.outcome.value
            if outcome == "failed":
                ET.SubElement(case, "failure", message=r.message[:500], type="assertion").text = r.message
            elif outcome == "error":
                ET.SubElement(case, "error", message=r.message[:500], type="error").text = r.message
            elif outcome == "skipped":
                ET.SubElement(case, "skipped", message=r.message[:500])
            if outcome in counts:
                counts[outcome] += 1
            if r.output:
                ET.SubElement(case, "system-out").text = "\n".join(r.output)
        el.set("failures", str(counts["failed"]))
        el.set("errors", str(counts["error"]))
        el.set("skipped", str(counts["skipped"]))
        el.set("time", f"{sum(r.seconds for r in results):.3f}")
