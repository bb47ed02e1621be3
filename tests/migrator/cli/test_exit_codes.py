"""Exit codes of the command line: user errors (MigratorError, HarnessError) are bad usage, exit 2
with their message and no traceback; anything else is a bug, exit 3 with a traceback and a request
to report it — an internal ValueError is never passed off as the user's mistake."""

from __future__ import annotations

import pytest
import yaml

from harness.engines.pg_sandbox import SandboxError
from harness.engines.postgres import EngineUnavailable
from harness.exceptions import HarnessError, InputFileError
from harness.fixcycles.gates import GateError
from harness.ground_truth.scenarios import load_scenarios
from migrator.agent.models import ModelSpecError
from migrator.agent.run import KnowledgeBaseUnusable
from migrator.batch.output import OutputDirError
from migrator.batch.verification import ReportFileError
from migrator.cli.main import INTERNAL_ERROR, main
from migrator.convert.registry import UnknownRuleId
from migrator.errors import MigratorError
from migrator.fixes.settings import SettingsError
from migrator.source.reader import SourceError


def _schema(tmp_path):
    src = tmp_path / "app"
    src.mkdir()
    (src / "t.sql").write_text("CREATE TABLE t (a NUMBER);\n")
    return src


def test_user_errors_share_the_two_bases():
    for cls in (SourceError, OutputDirError, UnknownRuleId, SettingsError, ModelSpecError, KnowledgeBaseUnusable):
        assert issubclass(cls, MigratorError), cls
    assert issubclass(ReportFileError, MigratorError)
    for cls in (EngineUnavailable, SandboxError, GateError, InputFileError):
        assert issubclass(cls, HarnessError) and not issubclass(cls, MigratorError), cls
    assert not issubclass(MigratorError, ValueError) and not issubclass(HarnessError, ValueError)


def test_an_internal_value_error_is_exit_3_with_a_traceback_not_a_usage_error(tmp_path, capsys, monkeypatch):
    import migrator.batch.pipeline as pipeline

    def broken(*args, **kwargs):
        raise ValueError("an index went out of step")

    monkeypatch.setattr(pipeline, "migrate", broken)
    code = main(["migrate", str(_schema(tmp_path)), "--out", str(tmp_path / "out"), "--no-deploy"])
    err = capsys.readouterr().err
    assert code == INTERNAL_ERROR == 3
    assert "Traceback (most recent call last)" in err and "ValueError: an index went out of step" in err
    assert "internal error" in err and "please report it" in err
    assert "migrator: error:" not in err


def test_a_user_error_is_exit_2_with_its_message_and_no_traceback(tmp_path, capsys):
    code = main(["migrate", str(tmp_path / "nowhere"), "--out", str(tmp_path / "out"), "--no-deploy"])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("migrator: error: ") and "does not exist" in err
    assert "Traceback" not in err


def test_a_malformed_model_spec_is_a_usage_error(tmp_path, capsys):
    src = _schema(tmp_path)
    code = main(["migrate", str(src), "--out", str(tmp_path / "out"), "--verify", "--model", "vertex:m"])
    err = capsys.readouterr().err
    assert code == 2 and "--model vertex:m: model spec 'vertex:m': unknown backend 'vertex'" in err


def test_a_scenario_file_that_does_not_validate_is_one_clear_line(tmp_path):
    bad = tmp_path / "s.yaml"
    bad.write_text(yaml.safe_dump({"schema": "s", "scenarios": [{"id": "x", "units": ["u"], "typo": 1}]}))
    with pytest.raises(InputFileError) as caught:
        load_scenarios(bad)
    message = str(caught.value)
    assert message.startswith(f"scenario file {bad}: ") and "scenarios.0.typo" in message and "\n" not in message
    (tmp_path / "y.yaml").write_text("schema: [unclosed\n")
    with pytest.raises(InputFileError, match="not valid YAML"):
        load_scenarios(tmp_path / "y.yaml")
    with pytest.raises(InputFileError, match="cannot read"):
        load_scenarios(tmp_path / "missing.yaml")


def test_report_and_baseline_files_are_usage_errors(tmp_path, capsys):
    assert main(["verify", str(tmp_path / "empty")]) == 2
    assert "has no readable report.json" in capsys.readouterr().err
    out = tmp_path / "out"
    assert main(["migrate", str(_schema(tmp_path)), "--out", str(out), "--no-deploy"]) == 0
    capsys.readouterr()
    (tmp_path / "base.json").write_text('{"schema_name": "app"}')
    assert main(["regress", "--report", str(out), "--baseline", str(tmp_path / "base.json")]) == 2
    err = capsys.readouterr().err
    assert f"migrator: error: baseline {tmp_path / 'base.json'}: " in err and "categories" in err
    assert "Traceback" not in err


def test_a_fix_cycle_file_that_does_not_load_is_a_usage_error(tmp_path, capsys):
    cycles = tmp_path / "cycles"
    assert main(["fix", "new", "A title", "--cycles", str(cycles)]) == 0
    path = next(cycles.glob("FIX-*.yaml"))
    path.write_text(path.read_text() + "\nsurprise: 1\n")
    code = main(["fix", "freeze", path.stem, "--cycles", str(cycles), "--settings", str(tmp_path / "s.yaml")])
    err = capsys.readouterr().err
    assert code == 2 and f"migrator fix: error: fix cycle {path}: surprise: " in err
