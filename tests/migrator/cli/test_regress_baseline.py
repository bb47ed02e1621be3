"""`regress` says why each unit regressed, and `--update-baseline` refuses to take regressions in
silently (issue #30, item 4): exit 1 with the list and the run's disabled rules, unless
`--accept-regressions` is given. On a real verified run (embedded PostgreSQL)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.cli.main import main

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"
DISABLED = "expr.concat_null"  # makes hr_payroll units disagree with Oracle (tests/migrator/review/conftest.py)


@pytest.fixture(scope="module")
def regressed_run(pg_engine, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("regress") / "out"
    migrate(
        FIXTURES / "schemas" / "hr_payroll",
        out,
        MigrateOptions(
            force=True,
            deploy=pg_engine.admin_dsn(),
            verify=True,
            progress=False,
            disabled_rules=frozenset({DISABLED}),
            scenarios=FIXTURES / "scenarios" / "hr_payroll.yaml",
            transcript=FIXTURES / "transcripts" / "hr_payroll.yaml",
        ),
    )
    return out


def test_regress_prints_each_regression_with_its_reason(regressed_run, tmp_path, capsys):
    code = main(
        ["regress", "--report", str(regressed_run), "--baseline", str(FIXTURES / "baselines" / "hr_payroll.json")]
    )
    out = capsys.readouterr().out
    regressions = [line for line in out.splitlines() if line.startswith("REGRESSION ")]
    assert code == 1 and regressions
    report = json.loads((regressed_run / "report.json").read_text())
    verdicts = {u["id"]: u["verdict"] for u in report["units"]}
    for line in regressions:
        unit = line.split()[1].rstrip(":")
        assert line.endswith(f"correct -> wrong: {verdicts[unit]}"), line
    assert f"this run had rules disabled: {DISABLED}" in out


def test_update_baseline_refuses_regressions_unless_accepted(regressed_run, tmp_path, capsys):
    baseline = tmp_path / "hr_payroll.json"
    shutil.copy(FIXTURES / "baselines" / "hr_payroll.json", baseline)
    before = baseline.read_text()
    argv = ["regress", "--report", str(regressed_run), "--baseline", str(baseline), "--update-baseline"]
    assert main(argv) == 1
    out = capsys.readouterr().out
    n = sum(line.startswith("REGRESSION ") for line in out.splitlines())
    assert n and f"baseline NOT written: {n} unit(s) correct in {baseline}" in out and "--accept-regressions" in out
    assert baseline.read_text() == before
    assert main([*argv, "--accept-regressions"]) == 0
    assert "baseline written" in capsys.readouterr().out and baseline.read_text() != before
    # a first baseline has nothing to regress from; and the flag alone is a usage error
    assert (
        main(["regress", "--report", str(regressed_run), "--baseline", str(tmp_path / "new.json"), "--update-baseline"])
        == 0
    )
    assert main(["regress", "--report", str(regressed_run), "--baseline", str(baseline), "--accept-regressions"]) == 2


# The same verified run shows two smaller items of issue #30 (item 10).
def test_report_html_lists_failures_first_and_renders_code_spans(regressed_run):
    html_text = (regressed_run / "report.html").read_text()
    report = json.loads((regressed_run / "report.json").read_text())
    order = [u["category"] for u in report["units"]]
    assert "wrong" in order and order.index("wrong") > order.index("unverified")  # not first in deployment order
    shown = re.findall(r"<summary class='(\w*)'>", html_text)
    rank = ["wrong", "rejected", "unverified", "correct"]
    assert shown == sorted(shown, key=rank.index) and len(shown) == len(order)
    assert "`" not in html_text.split("<h2>Units</h2>")[0]  # the summary's code spans are <code>
    assert "<code>authored</code>" in html_text


def test_the_do_nothing_row_counts_the_same_steps_as_the_rules(regressed_run):
    rows = json.loads((regressed_run / "report.json").read_text())["verification"]["rows"]
    totals = {row["arm"]: row["steps_total"] for row in rows}
    assert len(set(totals.values())) == 1, totals
