"""Running someone else's tests: one status per test from the probe plugin, SWE-bench's status
words, a per-test timeout that costs one test, and bad node ids that do not fail the others."""

from __future__ import annotations

import pytest

from harness.tasks.pytest_runs import PythonEnv, RunLimits, run_pytest

TESTS = """
import time, pytest

def test_ok():
    pass

def test_fail():
    assert 1 == 2

@pytest.fixture
def broken():
    raise RuntimeError("fixture broke")

def test_error(broken):
    pass

def test_skip():
    pytest.skip("not here")

@pytest.mark.xfail
def test_xfail():
    assert 0

@pytest.mark.xfail
def test_xpass():
    pass

def test_hang():
    time.sleep(60)

@pytest.mark.parametrize("x", [1, 2])
def test_param(x):
    assert x == 1

def test_after_the_hang():
    pass
"""


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "repo"
    (root / "tests").mkdir(parents=True)
    (root / "tests" / "test_mix.py").write_text(TESTS)
    (root / "tests" / "test_broken.py").write_text("import no_such_module\n\ndef test_x():\n    pass\n")
    return root


def test_statuses_per_test(repo, tmp_path, untrusted_python, swe_isolation):
    ids = [
        f"tests/test_mix.py::{n}"
        for n in ("test_ok", "test_fail", "test_error", "test_skip", "test_xfail", "test_xpass")
    ]
    ids += ["tests/test_mix.py::test_param[1]", "tests/test_mix.py::test_param[2]"]
    run = run_pytest(
        ids, PythonEnv(untrusted_python, (repo,)), repo, tmp_path / "s", RunLimits(5, isolation=swe_isolation)
    )
    got = {t.split("::")[1]: run.status(t) for t in ids}
    assert got == {
        "test_ok": "passed",
        "test_fail": "failed",
        "test_error": "error",
        "test_skip": "skipped",
        "test_xfail": "xfail",
        "test_xpass": "xpass",
        "test_param[1]": "passed",
        "test_param[2]": "failed",
    }
    assert run.batches == 1


def test_a_hang_costs_one_test(repo, tmp_path, untrusted_python, swe_isolation):
    ids = ["tests/test_mix.py::test_ok", "tests/test_mix.py::test_hang", "tests/test_mix.py::test_after_the_hang"]
    run = run_pytest(
        ids, PythonEnv(untrusted_python, (repo,)), repo, tmp_path / "s", RunLimits(1.0, isolation=swe_isolation)
    )
    assert [run.status(t) for t in ids] == ["passed", "timeout", "passed"]
    assert run.seconds < 30


def test_a_hang_that_ignores_the_alarm_is_killed_and_the_rest_still_runs(
    repo, tmp_path, untrusted_python, swe_isolation
):
    (repo / "tests" / "test_stubborn.py").write_text(
        "import signal, time\n\ndef test_blocks_alarm():\n    signal.signal(signal.SIGALRM, signal.SIG_IGN)\n"
        "    time.sleep(60)\n\ndef test_next():\n    pass\n"
    )
    ids = ["tests/test_stubborn.py::test_blocks_alarm", "tests/test_stubborn.py::test_next"]
    limits = RunLimits(0.5, run_timeout_s=4, isolation=swe_isolation)
    run = run_pytest(ids, PythonEnv(untrusted_python, (repo,)), repo, tmp_path / "s", limits)
    assert [run.status(t) for t in ids] == ["timeout", "passed"]
    assert run.batches == 2


def test_unknown_ids_and_broken_modules_are_missing_without_failing_the_rest(
    repo, tmp_path, untrusted_python, swe_isolation
):
    ids = ["tests/test_mix.py::test_ok", "tests/test_mix.py::no_such_test", "tests/test_broken.py::test_x"]
    run = run_pytest(
        ids, PythonEnv(untrusted_python, (repo,)), repo, tmp_path / "s", RunLimits(5, isolation=swe_isolation)
    )
    assert [run.status(t) for t in ids] == ["passed", "missing", "missing"]
    assert "no_such_module" in run.results["tests/test_broken.py::test_x"].message


def test_a_folder_target_covers_its_tests(repo, tmp_path, untrusted_python, swe_isolation):
    (repo / "tests" / "test_broken.py").unlink()
    (repo / "tests" / "test_mix.py").write_text("def test_a():\n    pass\n\ndef test_b():\n    pass\n")
    run = run_pytest(
        ["tests"], PythonEnv(untrusted_python, (repo,)), repo, tmp_path / "s", RunLimits(5, isolation=swe_isolation)
    )
    assert run.status("tests") == "passed"
    assert set(run.results) == {"tests/test_mix.py::test_a", "tests/test_mix.py::test_b"}
