"""Run pytest targets of someone else's repository in the sandbox, with its own interpreter, and
read back one status per test.

Statuses come from a plugin written next to the run (`harness/tasks/pytest_probe.py`), not from
scraping the log. A per-test timeout is the plugin's alarm; a test that hangs past it anyway is
caught by the whole run's timeout: the test that had started and not finished is `timeout`, and
the targets that had not started run again in a new pytest process, so one hang costs one test.
A batch that pytest refuses as a whole (exit code 4: usage error, e.g. a node id that does not
exist) is split and every target is run on its own, so one bad id does not fail the others.
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from harness.tasks.process_sandbox import SandboxPolicy, SandboxResult, run_sandboxed, scrubbed_env

PROBE_MODULE = "migrator_pytest_probe"
PASSING = ("passed", "xfail")  # what SWE-bench's grading counts as a pass
USAGE_ERROR = 4


@dataclass(frozen=True)
class PythonEnv:
    """An interpreter to run untrusted code with: its own virtualenv, never the tool's."""

    python: Path
    pythonpath: tuple[Path, ...] = ()  # import roots inside the work directory (the checkout, src/)

    @property
    def bin_dir(self) -> Path:
        return self.python.parent


@dataclass(frozen=True)
class RunLimits:
    per_test_timeout_s: float = 60.0
    run_timeout_s: float | None = None  # default: per test × (targets + 2) + 60
    isolation: str = "auto"


@dataclass
class TestResult:
    nodeid: str
    status: str  # passed failed error skipped xfail xpass timeout missing
    seconds: float = 0.0
    message: str = ""


@dataclass
class PytestRun:
    results: dict[str, TestResult] = field(default_factory=dict)  # every test that reported, by node id
    targets: dict[str, str] = field(default_factory=dict)  # requested target -> its worst status
    batches: int = 0
    seconds: float = 0.0
    isolation: str = ""
    log_tail: str = ""
    notes: list[str] = field(default_factory=list)

    def status(self, target: str) -> str:
        return self.targets.get(target, "missing")


@dataclass
class _Report:
    """What the probe wrote for one batch."""

    started: list[str] = field(default_factory=list)  # node ids, in start order
    results: dict[str, TestResult] = field(default_factory=dict)
    collect_errors: dict[str, str] = field(default_factory=dict)  # node id -> message


def python_policy(env: PythonEnv, workdir: Path, scratch: Path, timeout_s: float, isolation: str, extra=None):
    """The sandbox policy for running `env`'s interpreter in `workdir`: writes go to the work
    directory and the scratch folder (HOME, TMPDIR) only."""
    home = scratch / "home"
    home.mkdir(parents=True, exist_ok=True)
    pythonpath = os.pathsep.join(str(p) for p in env.pythonpath)
    variables = {"PYTHONPATH": pythonpath, "VIRTUAL_ENV": str(env.python.parent.parent), **(extra or {})}
    return SandboxPolicy(
        cwd=workdir,
        env=scrubbed_env(path=[env.bin_dir], home=home, tmpdir=home, extra=variables),
        writable=(workdir, scratch),
        timeout_s=timeout_s,
        isolation=isolation,
    )


def run_pytest(
    targets: Sequence[str], env: PythonEnv, workdir: Path, scratch: Path, limits: RunLimits, extra_args=()
) -> PytestRun:
    run = PytestRun()
    probe_dir = _probe_dir()
    pending = list(dict.fromkeys(targets))
    while pending:
        found, result = _batch(pending, env, workdir, scratch, probe_dir, limits, run, extra_args)
        _account(run, result)
        if result.returncode == USAGE_ERROR and not found.started and len(pending) > 1:
            for target in pending:  # pytest refused the whole batch: find the culprit(s) one by one
                single, res = _batch([target], env, workdir, scratch, probe_dir, limits, run, extra_args)
                _account(run, res)
                _settle(run, [target], single, res)
            break
        pending = _settle(run, pending, found, result)
    return run


def _batch(targets, env, workdir, scratch, probe_dir, limits, run, extra_args) -> tuple[_Report, SandboxResult]:
    run.batches += 1
    report = scratch / f"pytest-report-{run.batches}.jsonl"
    report.unlink(missing_ok=True)
    timeout = limits.run_timeout_s or limits.per_test_timeout_s * (len(targets) + 2) + 60
    with_probe = PythonEnv(env.python, (probe_dir, *env.pythonpath))
    extra = {"MIGRATOR_PYTEST_REPORT": str(report), "MIGRATOR_PYTEST_TIMEOUT": str(limits.per_test_timeout_s)}
    policy = python_policy(with_probe, workdir, scratch, timeout, limits.isolation, extra)
    argv = [str(env.python), "-m", "pytest", "-p", PROBE_MODULE, "--rootdir", str(workdir), "-q"]
    argv += ["--continue-on-collection-errors", *extra_args, "--", *targets]
    result = run_sandboxed(argv, policy)
    return _read_report(report), result


def _account(run: PytestRun, result: SandboxResult) -> None:
    run.seconds += result.seconds
    run.isolation = result.isolation
    run.log_tail = (result.stdout + result.stderr)[-6000:]
    run.notes = sorted(set(run.notes) | set(result.notes))


def _read_report(path: Path) -> _Report:
    found = _Report()
    if not path.is_file():
        return found
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            rec = json.loads(line)
        except json.JSONDecodeError:
            continue  # a line cut by a kill
        if not isinstance(rec, dict):
            continue
        event, nodeid = rec.get("event"), str(rec.get("nodeid", ""))
        if event == "start":
            found.started.append(nodeid)
        elif event == "result":
            found.results[nodeid] = TestResult(
                nodeid, str(rec.get("status")), float(rec.get("seconds") or 0), str(rec.get("message") or "")
            )
        elif event == "collect_error":
            found.collect_errors[nodeid] = str(rec.get("message") or "")
    return found


def _covers(target: str, nodeid: str) -> bool:
    if "::" in target:
        return nodeid == target
    prefix = target.rstrip("/")
    if prefix in ("", "."):
        return True  # the whole suite
    return nodeid == prefix or nodeid.startswith(prefix + "/") or nodeid.startswith(prefix + "::")


def _settle(run: PytestRun, pending: list[str], found: _Report, result: SandboxResult) -> list[str]:
    """Record what this batch decided; return the targets that must run again (after a hang)."""
    run.results.update(found.results)
    hung = [n for n in found.started if n not in found.results] if result.timed_out else []
    for nodeid in hung:
        run.results[nodeid] = TestResult(nodeid, "timeout", 0.0, "the test hung past the run's timeout; killed")
    again = []
    for target in pending:
        statuses = [r.status for n, r in run.results.items() if _covers(target, n)]
        if statuses:
            run.targets[target] = _worst(statuses)
        elif result.timed_out and hung:
            again.append(target)  # not reached before the hang: its own chance in the next batch
        else:
            run.targets[target] = "timeout" if result.timed_out else "missing"
            message = next((m for n, m in found.collect_errors.items() if _covers(n, target)), "")
            if message or not result.timed_out:
                run.results.setdefault(target, TestResult(target, run.targets[target], 0.0, message))
    return again


_SEVERITY = ("timeout", "error", "failed", "xpass", "missing", "skipped", "xfail", "passed")


def _worst(statuses: list[str]) -> str:
    known = [s for s in statuses if s in _SEVERITY]
    return min(known, key=_SEVERITY.index) if known else "error"


@functools.lru_cache(maxsize=1)
def _probe_dir() -> Path:
    """A copy of the plugin in a folder of its own, outside every writable path of the sandbox:
    the candidate's interpreter imports it from there (never from the tool's environment) and
    cannot change it."""
    folder = Path(tempfile.mkdtemp(prefix="migrator-probe-"))
    atexit.register(shutil.rmtree, folder, True)
    source = (Path(__file__).parent / "pytest_probe.py").read_text(encoding="utf-8")
    (folder / f"{PROBE_MODULE}.py").write_text(source, encoding="utf-8")
    return folder
