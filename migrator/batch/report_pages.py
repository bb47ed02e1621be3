"""Report renderings beyond Markdown: HTML for reviewers, JUnit XML for CI."""

from __future__ import annotations

import html
import xml.etree.ElementTree as ET
from pathlib import Path

from migrator.batch.report import RunReport, UnitEntry, verification_table

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


def to_html(report: RunReport, out: Path) -> str:
    e = html.escape
    table = ""
    if report.verification:
        rows = verification_table(report.verification)
        cells = [r.strip("|").split("|") for r in rows[2:] if not r.startswith("|---")]
        table = (
            "<p>"
            + e(rows[0])
            + "</p><table>"
            + "".join("<tr>" + "".join(f"<td>{e(c.strip())}</td>" for c in row) + "</tr>" for row in cells)
            + "</table>"
        )
    body = "\n".join(_unit_html(report, u, out) for u in report.units)
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>Migration report {e(report.schema_name)}</title>"
        f"<style>{_STYLE}</style></head><body><h1>Migration report: {e(report.schema_name)}</h1>"
        f"<p>{report.summary.units} units from <code>{e(report.source_dir)}</code></p>{table}"
        f"<h2>Units</h2>{body}</body></html>\n"
    )


def to_junit(report: RunReport) -> str:
    """One testcase per unit: `wrong`/`rejected` fail, `unverified` is skipped with its reason."""
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
    return ET.tostring(suite, encoding="unicode", xml_declaration=True) + "\n"
