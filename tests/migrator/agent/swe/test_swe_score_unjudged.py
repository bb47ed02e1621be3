"""`swe score` in environments without pytest (issue #30, item 10): every instance is reported
as not judged (status error, the reason named), and the command exits 1 instead of 0 with
"resolved 0 / N" as though the predictions had been measured."""

from __future__ import annotations

import json
from pathlib import Path

from migrator.cli.main import main

SWE_FIXTURES = Path(__file__).resolve().parents[4] / "fixtures" / "swe"


def test_score_without_pytest_in_the_environment_is_not_a_score(tmp_path, swe_repos, swe_isolation, capsys):
    out = tmp_path / "score.json"
    argv = ["swe", "score", str(SWE_FIXTURES / "instances.jsonl"), "--repos", str(swe_repos)]
    argv += ["--predictions", str(SWE_FIXTURES / "predictions" / "partial.jsonl"), "--json", str(out)]
    argv += ["--ids", "swefix__ledger-1", "--isolation", swe_isolation, "--no-progress"]
    argv += ["--env-cache", str(tmp_path / "envs"), "--offline"]  # no --seed pytest: pytest is missing
    assert main(argv) == 1
    printed = capsys.readouterr().out
    assert "1 of 1 instance(s) could not be judged (status error)" in printed
    result = json.loads(out.read_text())["per_instance"]["swefix__ledger-1"]
    assert result["status"] == "error" and "pytest" in result["reason"], result
