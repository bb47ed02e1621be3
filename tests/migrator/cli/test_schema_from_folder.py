"""The schema name taken silently from the folder's name (issue #30, item 9): a copy of
hr_payroll in a folder named `myhr` is warned about, with --schema and --scenarios named; the
fixtures, whose folders are named after their owners, are not."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from migrator.cli.main import main

FIXTURES = Path(__file__).resolve().parents[3] / "fixtures"


def test_a_folder_named_unlike_the_exports_owner_is_warned_about(tmp_path, capsys):
    src = tmp_path / "copies" / "myhr"
    shutil.copytree(FIXTURES / "schemas" / "hr_payroll", src)
    out = tmp_path / "out"
    code = main(["migrate", str(src), "--out", str(out), "--no-deploy"])
    printed = capsys.readouterr().out
    assert code == 0
    assert "  warning: the schema name 'myhr' comes from the folder's name" in printed
    assert "give --schema hr_payroll (and --scenarios" in printed
    issues = json.loads((out / "report.json").read_text())["issues"]
    assert [i["severity"] for i in issues if i["code"] == "schema-from-folder"] == ["warning"]
    assert main(["migrate", str(src), "--out", str(out), "--force", "--no-deploy", "--schema", "hr_payroll"]) == 0
    assert "warning" not in capsys.readouterr().out  # the owner given: nothing to warn about


def test_verify_without_a_scenario_file_says_where_it_looked_before_the_run(tmp_path, capsys, monkeypatch):
    import migrator.batch.pipeline as pipeline

    src = tmp_path / "copies" / "myhr"
    shutil.copytree(FIXTURES / "schemas" / "hr_payroll", src)

    def stop(*args, **kwargs):  # the warning is out before any work: nothing more is needed
        raise KeyboardInterrupt

    monkeypatch.setattr(pipeline, "migrate", stop)
    assert main(["migrate", str(src), "--out", str(tmp_path / "out"), "--verify"]) == 130
    err = capsys.readouterr().err
    assert f"no scenario file: none given with --scenarios and none at {tmp_path / 'scenarios' / 'myhr.yaml'}" in err
    assert "the schema name 'myhr' is the folder's name: --schema gives another" in err


def test_the_fixtures_are_not_warned_about(tmp_path, capsys):
    for name in ("hr_payroll", "banking"):
        assert main(["migrate", str(FIXTURES / "schemas" / name), "--out", str(tmp_path / name), "--no-deploy"]) == 0
        assert "warning" not in capsys.readouterr().out
