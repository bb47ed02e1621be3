"""Ordinary mistakes are usage errors, found before any work (issue #30, items 2, 5, 6).

Every OSError, PostgreSQL connection/DSN error and closed pipe that reaches `main` is the user's
environment, not a bug: a message and exit 2 (a silent exit for a closed pipe), never a traceback.
A typo in a unit id (a scenario file, a fix cycle's predicted flips) is refused with the nearest
names; a missing file named on the command line is refused before the source is read."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
import yaml

from migrator.cli.main import main

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures"
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


def _cli(*argv: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "migrator.cli.main", *argv], cwd=ROOT, env=ENV, capture_output=True, text=True, **kw
    )


def _usage_error(code: int, err: str, *needles: str) -> None:
    assert code == 2, err
    assert err.startswith("migrator: error: ") and "Traceback" not in err and "internal error" not in err, err
    for needle in needles:
        assert needle in err, (needle, err)


def _schema(tmp_path: Path) -> Path:
    src = tmp_path / "app"
    src.mkdir()
    (src / "t.sql").write_text("CREATE TABLE t (a NUMBER);\n")
    return src


# -- the environment's refusals: exit 2 with the system's reason --------------------------------------
@pytest.fixture
def locked(tmp_path):
    """A folder no one may write in, root included (immutable: chattr +i)."""
    folder = tmp_path / "locked"
    folder.mkdir()
    if not shutil.which("chattr") or subprocess.run(["chattr", "+i", str(folder)], capture_output=True).returncode:
        pytest.skip("cannot make a folder immutable here")
    yield folder
    subprocess.run(["chattr", "-i", str(folder)], check=True)


def test_an_out_folder_that_may_not_be_written_is_exit_2_before_any_work(locked):
    out = locked / "out"
    proc = _cli("migrate", str(FIXTURES / "schemas" / "hr_payroll"), "--out", str(out))
    _usage_error(proc.returncode, proc.stderr, f"cannot write the output directory {out}: {locked}: permission denied")
    assert proc.stdout == ""  # refused before reading and converting: no summary


def test_a_write_refused_later_is_exit_2_with_the_file_and_the_reason(locked, tmp_path, capsys, monkeypatch):
    """What the early check cannot see (a folder locked during the run) is still no traceback."""
    from migrator.batch import output

    monkeypatch.setattr(output, "check_writable", lambda out: None)
    code = main(["migrate", str(_schema(tmp_path)), "--out", str(locked / "out"), "--no-deploy"])
    err = capsys.readouterr().err
    _usage_error(code, err, f"cannot use {locked / 'out'}: Operation not permitted")


def test_an_out_below_a_file_is_exit_2(tmp_path, capsys):
    (tmp_path / "f").write_text("x")
    code = main(["migrate", str(_schema(tmp_path)), "--out", str(tmp_path / "f" / "out"), "--no-deploy"])
    _usage_error(code, capsys.readouterr().err, "is not a directory")


def test_any_os_error_reaching_main_is_exit_2_with_its_file_and_reason(tmp_path, capsys, monkeypatch):
    import migrator.batch.pipeline as pipeline

    def full_disk(*args, **kwargs):
        raise OSError(28, "No space left on device", str(tmp_path / "out" / "report.json"))

    monkeypatch.setattr(pipeline, "migrate", full_disk)
    code = main(["migrate", str(_schema(tmp_path)), "--out", str(tmp_path / "out"), "--no-deploy"])
    _usage_error(
        code, capsys.readouterr().err, f"cannot use {tmp_path / 'out' / 'report.json'}: No space left on device"
    )


def test_a_dsn_that_is_not_one_is_exit_2_before_any_work(tmp_path, capsys):
    out = tmp_path / "out"
    code = main(["migrate", str(_schema(tmp_path)), "--out", str(out), "--pg-dsn", "not a dsn at all"])
    _usage_error(code, capsys.readouterr().err, "'not a dsn at all' is not a PostgreSQL connection string")
    assert not out.exists()


def test_a_server_that_refuses_the_connection_is_exit_2(tmp_path, capsys):
    dsn = "host=127.0.0.1 port=1 dbname=x connect_timeout=3"
    code = main(["migrate", str(_schema(tmp_path)), "--out", str(tmp_path / "out"), "--pg-dsn", dsn])
    _usage_error(code, capsys.readouterr().err, "cannot connect to the PostgreSQL DSN", "Connection refused")


def test_a_psycopg_connection_error_from_anywhere_is_exit_2(tmp_path, capsys, monkeypatch):
    import migrator.batch.pipeline as pipeline

    def server_went_away(*args, **kwargs):
        raise psycopg.OperationalError("consuming input failed: server closed the connection unexpectedly")

    monkeypatch.setattr(pipeline, "migrate", server_went_away)
    code = main(["migrate", str(_schema(tmp_path)), "--out", str(tmp_path / "out"), "--no-deploy"])
    _usage_error(code, capsys.readouterr().err, "PostgreSQL: consuming input failed")


def _closed_pipe(*argv: str) -> subprocess.CompletedProcess:
    """The command with its stdout a pipe whose reader is gone (`... | head -0`)."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [sys.executable, "-m", "migrator.cli.main", *argv],
            cwd=ROOT,
            env=ENV,
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
        )
    finally:
        os.close(write)


def test_a_closed_pipe_ends_kb_and_fix_commands_silently(tmp_path):
    from knowledge_base import KnowledgeBase

    with KnowledgeBase(tmp_path / "kb"):
        pass
    cycles = tmp_path / "cycles"
    assert _cli("fix", "new", "a title", "--cycles", str(cycles)).returncode == 0
    for argv in (["kb", "stats", "--kb", str(tmp_path / "kb")], ["fix", "show", "FIX-001", "--cycles", str(cycles)]):
        proc = _closed_pipe(*argv)
        assert (proc.returncode, proc.stderr) == (141, ""), (argv, proc.stderr)


# -- inputs checked before any work ---------------------------------------------------------------------
def test_missing_files_named_on_the_command_line_are_refused_before_reading(tmp_path, capsys):
    src, out = FIXTURES / "schemas" / "hr_payroll", tmp_path / "out"
    code = main(["migrate", str(src), "--out", str(out), "--verify", "--scenarios", str(tmp_path / "nope.yaml")])
    _usage_error(code, capsys.readouterr().err, f"--scenarios {tmp_path / 'nope.yaml'}: no such file or directory")
    assert not out.exists()
    code = main(["regress", str(src), "--baseline", str(tmp_path / "b.json"), "--out", str(out)])
    _usage_error(code, capsys.readouterr().err, f"--baseline {tmp_path / 'b.json'}: no such file or directory")
    assert not out.exists()


def test_a_model_backend_whose_package_is_missing_is_refused_before_any_work(tmp_path, capsys, monkeypatch):
    from migrator.agent.models import registry

    monkeypatch.setitem(registry._EXTRA_PACKAGES, "bedrock", "a_package_that_is_not_installed")
    out = tmp_path / "out"
    code = main(["migrate", str(_schema(tmp_path)), "--out", str(out), "--verify", "--model", "bedrock:m"])
    _usage_error(code, capsys.readouterr().err, "needs a_package_that_is_not_installed, which is not installed")
    assert not out.exists()


def _fixture_layout(root: Path, edit) -> Path:
    """hr_payroll laid out as in fixtures/ (schemas/, scenarios/, transcripts/), its scenarios edited."""
    src = root / "schemas" / "hr_payroll"
    shutil.copytree(FIXTURES / "schemas" / "hr_payroll", src)
    data = yaml.safe_load((FIXTURES / "scenarios" / "hr_payroll.yaml").read_text())
    edit(data)
    (root / "scenarios").mkdir()
    (root / "scenarios" / "hr_payroll.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
    (root / "transcripts").mkdir()
    shutil.copy(FIXTURES / "transcripts" / "hr_payroll.yaml", root / "transcripts" / "hr_payroll.yaml")
    return src


def test_a_scenario_naming_a_unit_that_does_not_exist_is_refused_with_the_nearest_names(tmp_path, capsys):
    def typo(data):
        first = next(s for s in data["scenarios"] if "procedure:hr_payroll.hire_employee" in s["units"])
        first["units"] = ["procedure:hr_payroll.hire_employe"]

    src = _fixture_layout(tmp_path, typo)
    out = tmp_path / "out"
    code = main(["migrate", str(src), "--out", str(out), "--verify"])
    _usage_error(
        code,
        capsys.readouterr().err,
        "procedure:hr_payroll.hire_employe is not a unit of this schema; did you mean procedure:hr_payroll.hire_employee",
    )
    assert not list(out.rglob("*.sql"))  # nothing converted, nothing deployed: no --force needed next time


def test_fix_freeze_refuses_a_flip_for_no_unit_and_for_a_unit_already_there(tmp_path, capsys):
    corpus = tmp_path / "corpus"
    _fixture_layout(corpus, lambda data: None)
    baselines = corpus / "baselines"
    baselines.mkdir()
    shutil.copy(FIXTURES / "baselines" / "hr_payroll.json", baselines)
    cycles = tmp_path / "cycles"
    common = ["--cycles", str(cycles), "--corpus", str(corpus / "schemas"), "--settings", str(tmp_path / "s.yaml")]
    assert main(["fix", "new", "Disable expr.decode", *common]) == 0
    path = cycles / "FIX-001.yaml"
    correct = next(
        u
        for u, c in yaml.safe_load((baselines / "hr_payroll.json").read_text())["categories"].items()
        if c == "correct"
    )
    data = yaml.safe_load(path.read_text()) | {
        "hypothesis": "h",
        "change": {"kind": "rule", "rule_id": "expr.decode", "action": "disable"},
        "predicates": {
            "flips": [{"unit": "procedure:hr_payroll.hire_employe", "to": "wrong"}, {"unit": correct, "to": "correct"}]
        },
    }
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    code = main(["fix", "freeze", "FIX-001", *common])
    err = capsys.readouterr().err
    assert code == 2 and "Traceback" not in err, err
    assert "did you mean procedure:hr_payroll.hire_employee" in err
    assert f"{correct} is correct already" in err
    assert yaml.safe_load(path.read_text())["state"] == "draft"
