"""`migrator review CYCLES`: a real fix cycle (hr_payroll views, real PostgreSQL) read from its pages."""

from __future__ import annotations

import html
import shutil
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import yaml

from migrator.cli.main import main
from migrator.review.unit_view import unit_page
from tests.migrator.review.site_links import broken_links, parse

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
# With ddl.view off the four views are rejected; on, they match Oracle (tests/migrator/fixes has the
# same experiment). One prediction below is deliberately wrong, so one predicate fails.
PREDICTED = {
    "view:hr_payroll.v_employee_directory": "correct",
    "view:hr_payroll.v_department_summary": "correct",
    "view:hr_payroll.v_org_chart": "correct",
    "view:hr_payroll.v_salary_ranking": "wrong",
}


@pytest.fixture(scope="module")
def cycles(tmp_path_factory, pg_engine) -> Path:
    root = tmp_path_factory.mktemp("cycles-review")
    src = root / "corpus" / "schemas" / "hr_payroll"
    shutil.copytree(FIXTURES / "schemas" / "hr_payroll", src)
    scen = yaml.safe_load((FIXTURES / "scenarios" / "hr_payroll.yaml").read_text())
    scen["scenarios"] = [s for s in scen["scenarios"] if all(u.startswith("view:") for u in s["units"])]
    (root / "corpus" / "scenarios").mkdir()
    (root / "corpus" / "scenarios" / "hr_payroll.yaml").write_text(yaml.safe_dump(scen, sort_keys=False))
    (root / "corpus" / "transcripts").mkdir()
    shutil.copy(FIXTURES / "transcripts" / "hr_payroll.yaml", root / "corpus" / "transcripts" / "hr_payroll.yaml")
    (root / "settings.yaml").write_text(yaml.safe_dump({"version": 1, "disabled_rules": ["ddl.view"]}))
    common = ["--cycles", str(root / "cycles"), "--settings", str(root / "settings.yaml"), "--corpus", str(src)]
    common += ["--pg-dsn", pg_engine.admin_dsn()]
    assert main(["fix", "new", "Enable ddl.view <views>", *common]) == 0
    path = root / "cycles" / "FIX-001.yaml"
    data = yaml.safe_load(path.read_text()) | {
        "hypothesis": "Views left unconverted are rejected; with the rule they deploy and match Oracle.",
        "change": {"kind": "rule", "rule_id": "ddl.view", "action": "enable"},
        "predicates": {"flips": [{"unit": u, "to": c} for u, c in PREDICTED.items()], "max_regressions": 0},
    }
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    assert main(["fix", "freeze", "FIX-001", *common]) == 0
    assert main(["fix", "run", "FIX-001", *common]) == 1  # one predicate fails, as written
    reason = "3 of 4 predicted; <b>v_salary_ranking</b> was mispredicted"
    assert main(["fix", "decide", "FIX-001", "hold", "--reviewer", "ana", "--reason", reason, *common]) == 0
    return root / "cycles"


def test_cycle_page_shows_change_predicates_arms_flips_and_decision(cycles, capsys):
    assert main(["review", str(cycles)]) == 0
    assert "review site:" in capsys.readouterr().out
    page = (cycles / "review" / "FIX-001.html").read_text(encoding="utf-8")
    assert "rule ddl.view enabled" in page and "Enable ddl.view &lt;views&gt;" in page
    assert page.count(">met</span>") == 5 and page.count(">failed</span>") == 1  # 3 flips, regressions, do-nothing
    assert "flip view:hr_payroll.v_salary_ranking -&gt; wrong" in page
    for unit in PREDICTED:
        assert f"<code>{unit}</code>" in page
        assert f"candidate/hr_payroll/review/{unit_page(unit)}" in page  # the flip links the unit's pages
    assert html.escape("<b>v_salary_ranking</b>") in page and "<b>v_salary_ranking</b>" not in page
    assert "+CREATE OR REPLACE VIEW" in page  # the flip's output diff
    assert "the frozen hypothesis, change and predicates match" in page
    index = (cycles / "review" / "index.html").read_text(encoding="utf-8")
    assert "4 entries" in index and ">hold</span> by ana" in index
    cache: dict = {}
    pages = [cycles / "review" / "index.html", cycles / "review" / "FIX-001.html"]
    pages += sorted((cycles / "review" / "arms" / "FIX-001").rglob("review/index.html"))
    assert len(pages) == 4 and [p for page in pages for p in broken_links(page, cache)] == []


def test_the_cycle_pages_link_only_inside_review(cycles):
    """CYCLES/review/ can be published alone (issue #30, item 10): the flips link to copies of the
    arms' pages under review/arms/, whose own links (reports, unit files) stay there too."""
    assert main(["review", str(cycles)]) == 0
    site = (cycles / "review").resolve()
    page = cycles / "review" / "FIX-001.html"
    arm_pages = sorted((site / "arms" / "FIX-001").rglob("*.html"))
    assert arm_pages and not list((site / "arms").rglob(".migrator"))
    for source in [page, *arm_pages[:40]]:
        for link in parse(source).links:
            target = (source.parent / unquote(urlsplit(link).path)).resolve()
            assert target.is_relative_to(site), (source.name, link)


def test_tampering_shows_on_the_pages(cycles):
    audit = cycles / "audit.jsonl"
    lines = audit.read_text().splitlines()
    lines[2] = lines[2].replace('"all_met": false', '"all_met": true')
    audit.write_text("\n".join(lines) + "\n")
    cycle_file = cycles / "FIX-001.yaml"
    cycle_file.write_text(cycle_file.read_text().replace("to: wrong", "to: correct"))
    assert main(["review", str(cycles)]) == 0
    index = (cycles / "review" / "index.html").read_text(encoding="utf-8")
    assert ">tampered</span> line 3: content does not match its hash (edited)" in index
    page = (cycles / "review" / "FIX-001.html").read_text(encoding="utf-8")
    assert "audit log damaged at line 3" in page
