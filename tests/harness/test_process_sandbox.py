"""The process sandbox: a scrubbed environment everywhere; where user namespaces exist, no network,
a read-only file system except the writable paths, and a timeout that kills what escaped the
process group. Each isolation claim is proven by an attempt that must fail."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

from harness.tasks import process_sandbox as sb
from harness.tasks.process_sandbox import (
    SandboxPolicy,
    SandboxUnavailable,
    resolve_isolation,
    run_sandboxed,
    scrubbed_env,
)

NAMESPACES, WHY = sb.namespace_support()
needs_ns = pytest.mark.skipif(not NAMESPACES, reason=f"user namespaces unavailable here: {WHY}")


def _policy(tmp_path: Path, isolation: str, **kw) -> SandboxPolicy:
    env = scrubbed_env(path=[], home=tmp_path, tmpdir=tmp_path)
    return SandboxPolicy(cwd=tmp_path, env=env, writable=(tmp_path,), isolation=isolation, **kw)


def test_the_environment_is_scrubbed(tmp_path, monkeypatch):
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "do-not-leak")
    res = run_sandboxed(["/bin/sh", "-c", "env"], _policy(tmp_path, "none"))
    assert res.ok
    assert "do-not-leak" not in res.stdout
    assert sys.prefix not in res.stdout  # the tool's virtualenv is on no path
    assert "VIRTUAL_ENV" not in res.stdout and "PYTHONPATH" not in res.stdout


def test_a_timeout_is_reported_not_raised(tmp_path):
    res = run_sandboxed(["/bin/sh", "-c", "sleep 30"], _policy(tmp_path, "none", timeout_s=0.5))
    assert res.timed_out and res.returncode is None and not res.ok
    assert res.seconds < 10


def test_required_namespaces_that_are_missing_are_refused(monkeypatch):
    monkeypatch.setattr(sb, "namespace_support", lambda: (False, "no unshare here"))
    with pytest.raises(SandboxUnavailable, match="no unshare here"):
        resolve_isolation("namespaces")
    mode, note = resolve_isolation("auto")
    assert mode == "none" and "no unshare here" in note


@needs_ns
def test_only_the_writable_paths_can_be_written(tmp_path):
    protected = Path(sys.prefix)  # the tool's own virtualenv
    work = tmp_path / "work"
    work.mkdir()
    script = f"touch ok; touch {protected}/sandbox-was-here; touch {tmp_path}/outside; exit 0"
    res = run_sandboxed(["/bin/sh", "-c", script], _policy(work, "namespaces"))
    assert res.isolation == "namespaces"
    assert (work / "ok").exists()
    assert not (protected / "sandbox-was-here").exists()
    assert not (tmp_path / "outside").exists()
    assert "Read-only file system" in res.stderr


@needs_ns
def test_no_network(tmp_path):
    code = "import socket\ntry:\n    socket.create_connection(('1.1.1.1', 53), 2)\nexcept OSError as e:\n    print('refused', e.errno)"
    res = run_sandboxed([sys.executable, "-I", "-c", code], _policy(tmp_path, "namespaces"))
    assert "refused" in res.stdout, res.stderr


@needs_ns
def test_the_sandbox_cannot_undo_its_read_only_mounts(tmp_path):
    res = run_sandboxed(["/bin/sh", "-c", "mount -o remount,rw / && echo remounted"], _policy(tmp_path, "namespaces"))
    assert "remounted" not in res.stdout


@needs_ns
def test_a_timeout_kills_processes_that_left_the_group(tmp_path):
    marker = tmp_path / "late"
    script = f"setsid sh -c 'sleep 2; touch {marker}' & sleep 30"
    res = run_sandboxed(["/bin/sh", "-c", script], _policy(tmp_path, "namespaces", timeout_s=0.5))
    assert res.timed_out
    time.sleep(3)
    assert not marker.exists()  # the PID namespace died with its first process


def test_scrubbed_env_puts_the_given_bin_dirs_first(tmp_path):
    env = scrubbed_env(path=[tmp_path / "venv" / "bin"], home=tmp_path, tmpdir=tmp_path)
    assert env["PATH"].split(os.pathsep)[0] == str(tmp_path / "venv" / "bin")
