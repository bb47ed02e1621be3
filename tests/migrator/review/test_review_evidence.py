"""The review site's "Evidence in this run" box says what the run did (issue #30, item 3): inner
references resolved the way report.json records it (`references_method`), as the CLI, report.md
and the unit pages say, never plpgsql_check on a server that has none."""

from __future__ import annotations

import html
import re

from migrator.batch.report import to_markdown
from migrator.review import legend
from migrator.review.run_site import write_run_site


def _evidence_box(index: str) -> str:
    found = re.search(r'<p class="evidence"><b>Evidence in this run.</b>(.*?)</p>', index, re.S)
    assert found, "no evidence box"
    return html.unescape(found.group(1)).strip()


def test_the_evidence_box_says_how_references_were_resolved_in_this_run(wrong_run):
    out, report = wrong_run
    write_run_site(out)
    method = report.verification.references_method
    assert method  # the embedded server's run records it
    box = _evidence_box((out / "review" / "index.html").read_text(encoding="utf-8"))
    assert f"Inner references were resolved by {method}." in box
    if "plpgsql_check" not in method:
        assert "plpgsql_check" not in box
    assert f"resolved by {method}" in to_markdown(report)  # the same words as report.md


def test_each_provenance_and_method_has_its_sentence():
    said = legend.provenance_sentence("reference", True, references_method="pglast + PostgreSQL (PREPARE)")
    assert "trusted PostgreSQL port" in said and "resolved by pglast + PostgreSQL (PREPARE)" in said
    assert "plpgsql_check" not in said
    assert "only the scenarios exercised them" in legend.provenance_sentence("oracle", False)
    names = [name for name, _ in legend.EVIDENCE]
    assert names == ["oracle", "authored", "reference", "inner references"]


def test_the_architecture_doc_and_the_legend_agree_on_what_g0_is():
    """A unit no scenario judges but that deployed with its references resolved is `unverified`
    at G2, as the legend says; the architecture document once said G0 (issue #30, item 10)."""
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
    g0 = next(line for line in doc.splitlines() if line.startswith("| G0 |"))
    assert "does not even parse" in g0 and "does not even parse" in dict(legend.TIERS)["G0"]
    assert "`unverified` at G2" in doc
