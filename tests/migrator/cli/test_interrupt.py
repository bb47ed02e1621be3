"""Ctrl-C during `migrate --verify` (issue #30, item 1): one line saying what was kept, exit 130,
nothing left running (conversion workers, the embedded server), and `--resume` then finishes.

A real child process gets a real SIGINT, once while it converts (on two forked workers) and once
while it judges on its embedded server."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from harness.engines.postgres import ENV_SHARED

ROOT = Path(__file__).resolve().parents[3]
LINE = "interrupted; {kept} of {total} units kept; rerun with --resume"


def _child(argv: list[str]) -> subprocess.Popen:
    env = {**os.environ, ENV_SHARED: "0", "PYTHONPATH": str(ROOT)}  # a server of its own, to see it go
    return subprocess.Popen(
        [sys.executable, "-m", "migrator.cli.main", *argv],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,  # its process group and session: what it leaves running is found there
    )


def _wait_for(what, child: subprocess.Popen, timeout: float = 120.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        found = what()
        if found:
            return found
        assert child.poll() is None, f"the run ended before it was interrupted: {child.communicate()}"
        time.sleep(0.02)
    pytest.fail("the run never got there")


def _left_running(child: subprocess.Popen, server_dirs: set[str]) -> list[str]:
    """Processes of the child's session, and postmasters of the servers it started, still alive
    (a zombie has ended: only the container's init, which reaps none, still lists it)."""
    left = []
    for proc in psutil.process_iter(["pid", "cmdline", "status"]):
        try:
            if proc.info["status"] == psutil.STATUS_ZOMBIE:
                continue
            cmd = " ".join(proc.info["cmdline"] or [])
            if os.getsid(proc.pid) == child.pid or any(d in cmd for d in server_dirs):
                left.append(f"{proc.pid}: {cmd}")
        except (ProcessLookupError, psutil.Error):
            continue
    return left


def _still_running(child: subprocess.Popen, server_dirs: set[str], grace: float = 5.0) -> list[str]:
    """_left_running, once processes on their way out (a server's last backends) have had `grace`
    seconds to go."""
    deadline = time.monotonic() + grace
    while (left := _left_running(child, server_dirs)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return left


def _owned_server_dirs(child: subprocess.Popen) -> set[str]:
    """The embedded servers' folders the child claimed (harness.engines.embedded_reaper's owner file)."""
    from harness.engines.postgres import _scratch_root

    root = Path(_scratch_root() or "/tmp")
    dirs = set()
    for owner in root.glob("migrator-pg-*/migrator-owner.json"):
        try:
            if json.loads(owner.read_text())["pid"] == child.pid:
                dirs.add(str(owner.parent))
        except (OSError, ValueError, KeyError):
            continue
    return dirs


def _interrupt(child: subprocess.Popen) -> tuple[str, str]:
    child.send_signal(signal.SIGINT)
    out, err = child.communicate(timeout=120)
    assert child.returncode == 130, (out, err)
    return out, err


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    src = tmp_path_factory.mktemp("gen") / "gen"
    gen = [sys.executable, str(ROOT / "benchmarks" / "gen_schema.py"), str(src), "--modules", "12", "--seed", "3"]
    subprocess.run(gen, check=True, capture_output=True)
    return src


def test_ctrl_c_while_converting_keeps_the_journal_and_resume_finishes(corpus, tmp_path):
    out = tmp_path / "out"
    argv = ["migrate", str(corpus), "--out", str(out), "--verify", "--no-progress", "--workers", "2"]
    child = _child(argv)
    journal = out / ".migrator" / "journal.jsonl"
    _wait_for(lambda: journal.exists() and journal.stat().st_size > 0, child)
    _, err = _interrupt(child)
    kept = len(journal.read_text().splitlines())
    # (the generated corpus has no scenario file: the run warns about it before any work)
    lines = [line for line in err.strip().splitlines() if not line.startswith("migrator: warning: no scenario file")]
    assert len(lines) == 1 and "Traceback" not in err, err
    total = int(lines[0].split(" of ")[1].split()[0])
    assert lines[0] == LINE.format(kept=kept, total=total) and 0 < kept < total
    assert _still_running(child, set()) == []

    resumed = subprocess.run(
        [
            sys.executable,
            "-m",
            "migrator.cli.main",
            "migrate",
            str(corpus),
            "--out",
            str(out),
            "--resume",
            "--no-deploy",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert resumed.returncode in (0, 1), resumed.stderr
    assert f"{total} units" in resumed.stdout and (out / "deploy.sql").exists()
    assert len(journal.read_text().splitlines()) == total


def test_ctrl_c_while_judging_stops_the_server(tmp_path):
    out = tmp_path / "out"
    child = _child(["migrate", "fixtures/schemas/hr_payroll", "--out", str(out), "--verify", "--no-progress"])
    # the embedded server is started once every unit is converted: it is claimed, then running
    servers = _wait_for(lambda: _owned_server_dirs(child), child)
    _wait_for(lambda: any((Path(d) / "pgdata" / "postmaster.pid").exists() for d in servers), child)
    time.sleep(1.0)  # into the deployment and the scenarios
    _, err = _interrupt(child)
    assert re.fullmatch(r"interrupted; (\d+) of \1 units kept; rerun with --resume\n", err), err  # one line
    assert _still_running(child, servers) == []
    assert not any(Path(d).exists() for d in servers)
    assert not (out / "report.json").exists()  # the report is written only by a finished run

    done = _child(
        ["migrate", "fixtures/schemas/hr_payroll", "--out", str(out), "--verify", "--resume", "--no-progress"]
    )
    stdout, stderr = done.communicate(timeout=300)
    assert done.returncode == 0, stderr
    kept = int(err.split()[1])  # every unit was converted before the server started
    assert f"hr_payroll: {kept} units" in stdout and (out / "report.json").exists()


def test_ctrl_c_in_verify_leaves_the_report_as_it_was(tmp_path, monkeypatch, capsys):
    from migrator.batch import verification
    from migrator.cli.main import main

    out = tmp_path / "out"
    assert main(["migrate", str(ROOT / "fixtures" / "schemas" / "hr_payroll"), "--out", str(out), "--no-deploy"]) == 0
    before = (out / "report.json").read_bytes()

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(verification, "attach_verification", interrupted)
    capsys.readouterr()
    assert main(["verify", str(out)]) == 130
    assert capsys.readouterr().err == f"interrupted; {out} is as it was; rerun the same command\n"
    assert (out / "report.json").read_bytes() == before
