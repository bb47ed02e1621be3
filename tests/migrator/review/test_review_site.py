"""`migrator review OUT` on a real verified run: what the pages say agrees with report.json and
steps.json, every link resolves, untrusted text stays text, and the site is never stale."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from migrator.batch.steps_file import load_steps
from migrator.batch.verification import write_reports
from migrator.cli.main import main
from migrator.review.reasons import group_reasons
from migrator.review.run_site import write_run_site
from migrator.review.unit_view import unit_page
from tests.migrator.review.site_links import broken_links

WRONG = "function:hr_payroll.full_name"


@pytest.fixture(scope="module")
def site(wrong_run):
    out, report = wrong_run
    result = write_run_site(out)
    return out, report, result


def data_rows(out: Path) -> dict:
    text = (out / "review" / "data.js").read_text(encoding="utf-8")
    assert text.startswith("window.REVIEW_DATA = ") and "<" not in text
    return json.loads(text[len("window.REVIEW_DATA = ") :].rstrip().rstrip(";"))


def test_every_unit_has_a_page_and_a_table_row(site):
    out, report, result = site
    assert result.pages == len(report.units) + 3  # index, units list, rules
    for unit in report.units:
        assert (out / "review" / unit_page(unit.id)).is_file()
    data = data_rows(out)
    rows = [dict(zip(data["fields"], r)) for r in data["rows"]]
    assert [r["id"] for r in rows] == [u.id for u in report.units]
    wrong = {r["id"] for r in rows if r["category"] == "wrong"}
    assert wrong == {u.id for u in report.units if u.category == "wrong"} and WRONG in wrong


def test_reason_groups_count_what_the_report_says(site):
    out, report, _ = site
    index = (out / "review" / "index.html").read_text(encoding="utf-8")
    groups = group_reasons(report.units)
    assert groups and sum(len(g.units) for g in groups) == sum(u.category != "correct" for u in report.units)
    for g in groups:
        label = g.reason.label.replace("'", "&#39;").replace('"', "&#34;")
        assert re.search(re.escape(label) + r"</a></td>\s*<td class=\"num\">" + str(len(g.units)) + "</td>", index)


def test_unit_page_shows_side_by_side_and_every_step(site):
    out, report, _ = site
    page = (out / "review" / unit_page(WRONG)).read_text(encoding="utf-8")
    assert 'id="sbs"' in page and "row-changed" in page and "oracompat.substr" in page  # the output...
    assert "SUBSTR(p_middle, 1, 1)" in page  # ... beside the Oracle source
    steps = [s for sc in load_steps(out).for_unit(WRONG) for s in sc.steps]
    assert len(steps) == report.units[[u.id for u in report.units].index(WRONG)].steps
    for step in steps:
        assert f"<b>{step.step}</b>" in page
    differing = [s for s in steps if s.status == "differs"]
    assert differing and page.count('class="first-diff"') == 2 * len(differing)  # both sides of each
    assert "expr.concat_null" not in re.findall(r'rules.html#rule-([\w.]+)"', page)  # it was off


def test_every_link_of_every_page_resolves(site):
    out, report, _ = site
    cache: dict = {}
    pages = sorted((out / "review").rglob("*.html"))
    assert len(pages) > len(report.units)  # a page per unit, and the index pages
    problems = [p for page in pages for p in broken_links(page, cache)]
    assert problems == []


def test_untrusted_text_stays_text(site, tmp_path):
    out, report, _ = site
    hostile = '<script>alert("x")</script><img src=x onerror=alert(1)>'
    unit = report.units[0].model_copy(update={"id": f"function:app.{hostile}", "verdict": hostile, "name": hostile})
    evil = tmp_path / "evil"
    evil.mkdir()
    src = tmp_path / "src"
    src.mkdir()
    (src / "f.sql").write_text(f"-- {hostile}\nCREATE FUNCTION f RETURN NUMBER IS BEGIN RETURN 1; END;\n")
    forged = report.model_copy(
        update={"units": [unit.model_copy(update={"source": "f.sql:1-2", "output": None})], "source_dir": str(src)}
    )
    (evil / "report.json").write_text(forged.model_dump_json())
    write_run_site(evil)
    texts = [p.read_text(encoding="utf-8") for p in (evil / "review").rglob("*.html")]
    assert texts and all("<script>alert" not in t and "<img src=x" not in t for t in texts)
    assert any("&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in t for t in texts)
    assert "<" not in (evil / "review" / "data.js").read_text(encoding="utf-8").split("=", 1)[1]
    assert all(re.fullmatch(r"[A-Za-z0-9_.-]+\.html", p.name) for p in (evil / "review" / "units").iterdir())


def test_a_new_report_removes_the_stale_site_and_the_cli_rebuilds_it(site, capsys):
    out, report, _ = site
    write_reports(report, out)  # what `migrator verify` does after judging again
    assert not (out / "review" / "index.html").exists()
    assert main(["review", str(out)]) == 0
    assert "review site:" in capsys.readouterr().out and (out / "review" / "index.html").is_file()


def test_bad_input_is_a_clear_error(tmp_path, capsys):
    assert main(["review", str(tmp_path / "nowhere")]) == 2
    assert "is not a directory" in capsys.readouterr().err
    assert main(["review", str(tmp_path)]) == 2
    assert "has no report.json" in capsys.readouterr().err
    (tmp_path / "report.json").write_text("{not json")
    assert main(["review", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "is not a report of this migrator" in err and "Traceback" not in err


def test_agent_attempts_and_an_unverified_run(tmp_path, pg_engine):
    from migrator.batch.pipeline import MigrateOptions, migrate
    from tests.migrator.agent_support import write_schema

    root = write_schema(tmp_path)
    out = root / "out"
    opts = MigrateOptions(
        force=True,
        deploy=pg_engine.admin_dsn(),
        verify=True,
        scenarios=root / "scen.yaml",
        transcript=root / "trans.yaml",
        progress=False,
        model="scripted",
        attempts=2,
        disabled_rules=frozenset({"plsql.dbms_output"}),  # the rules get it wrong: the agent is asked
    )
    report = migrate(root / "app", out, opts)
    write_run_site(out)
    unit = next(u for u in report.units if u.agent_attempts)
    page = (out / "review" / unit_page(unit.id)).read_text(encoding="utf-8")
    attempts = re.search(r'<table class="attempts">.*?</table>', page, re.S).group(0)
    assert attempts.count("<tr>") == unit.agent_attempts + 1  # header + one row per model call
    assert f"{unit.agent_tokens} tokens" in page and "memory ids in the prompt" in page
    assert "model tokens" in (out / "review" / "data.js").read_text(encoding="utf-8")
    migrate(root / "app", out, MigrateOptions(force=True, progress=False))  # converted only
    assert not (out / "review").exists()  # --force removed the site of the earlier run
    write_run_site(out)
    index = (out / "review" / "index.html").read_text(encoding="utf-8")
    assert "This run was not verified" in index and "no verification in this run" in index
