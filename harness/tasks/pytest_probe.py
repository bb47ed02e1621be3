"""A pytest plugin that runs *inside* the sandbox, in the candidate's own interpreter: one JSON line
per test to the file named by MIGRATOR_PYTEST_REPORT, and a per-test timeout.

It is copied as a file next to the run (never imported from the tool's environment), so it uses
only the standard library and pytest. Status words follow SWE-bench's pytest log parser: passed,
failed, error, skipped, xfail, xpass, plus timeout.

The timeout is SIGALRM around each test's setup, call and teardown (what pytest-timeout's signal
method does); a test that blocks signals is caught by the caller's whole-run timeout instead.
"""

from __future__ import annotations

import json
import os
import signal
import time

import pytest

_REPORT = os.environ.get("MIGRATOR_PYTEST_REPORT", "")
_TIMEOUT = float(os.environ.get("MIGRATOR_PYTEST_TIMEOUT", "0") or 0)
_state: dict[str, dict] = {}


class PerTestTimeout(Exception):
    """Raised in the test's own frame when its time is up."""


def _write(record: dict) -> None:
    if not _REPORT:
        return
    with open(_REPORT, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\n")
        fh.flush()


def _on_alarm(signum, frame):
    raise PerTestTimeout(f"test exceeded the per-test timeout of {_TIMEOUT:g} s")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    _write({"event": "start", "nodeid": item.nodeid, "at": time.time()})
    _state[item.nodeid] = {"status": None, "message": "", "seconds": 0.0}
    armed = _TIMEOUT > 0 and hasattr(signal, "SIGALRM")
    if armed:
        previous = signal.signal(signal.SIGALRM, _on_alarm)
        signal.setitimer(signal.ITIMER_REAL, _TIMEOUT)
    try:
        yield
    finally:
        if armed:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, previous)
    state = _state.pop(item.nodeid, {})
    _write({"event": "result", "nodeid": item.nodeid, **state, "status": state.get("status") or "error"})


def _status(report) -> str | None:
    if hasattr(report, "wasxfail"):
        return "xpass" if report.passed else "xfail"
    if report.when == "call":
        return report.outcome  # passed | failed | skipped
    if report.failed:
        return "error"  # setup or teardown failed
    if report.skipped:
        return "skipped"
    return None


def pytest_runtest_logreport(report):
    state = _state.get(report.nodeid)
    if state is None:
        return
    state["seconds"] += float(getattr(report, "duration", 0.0) or 0.0)
    status = _status(report)
    if report.failed and "PerTestTimeout" in (report.longreprtext or ""):
        status = "timeout"
    if status is None:
        return
    # The worst outcome wins: a passing call followed by a failing teardown is an error.
    if state["status"] in (None, "passed") or status in ("timeout", "error"):
        state["status"] = status
        if report.failed:
            state["message"] = (report.longreprtext or "")[-2000:]


def pytest_collectreport(report):
    if report.failed:
        _write({"event": "collect_error", "nodeid": report.nodeid, "message": (report.longreprtext or "")[-2000:]})
