"""Session fixtures for the SWE tests: the fixture repositories built once, their virtualenvs built
once (offline: pytest is copied from this interpreter, nothing is downloaded), and the sandbox
mode this host supports."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.tasks.process_sandbox import namespace_support

ROOT = Path(__file__).resolve().parents[1]
SWE_FIXTURES = ROOT / "fixtures" / "swe"


@pytest.fixture(scope="session")
def swe_isolation() -> str:
    """Namespaces where the host has them (the product's default); else the scrubbed environment,
    so the functional tests still run (the isolation tests skip with the reason)."""
    return "namespaces" if namespace_support()[0] else "none"


@pytest.fixture(scope="session")
def swe_repos(tmp_path_factory) -> Path:
    from migrator.agent.tasks.swe.fixture_repos import build_repos

    dest = tmp_path_factory.mktemp("swe-repos")
    build_repos(SWE_FIXTURES, dest)
    return dest


@pytest.fixture(scope="session")
def swe_env_options(tmp_path_factory, swe_isolation):
    from migrator.agent.tasks.swe.environments import EnvOptions

    return EnvOptions(
        cache_dir=tmp_path_factory.mktemp("swe-envs"), seed=("pytest",), offline=True, isolation=swe_isolation
    )


@pytest.fixture(scope="session")
def swe_instances():
    from migrator.agent.tasks.swe.instances import load_instances

    instances, errors = load_instances(SWE_FIXTURES / "instances.jsonl")
    assert not errors
    return {i.instance_id: i for i in instances}


@pytest.fixture(scope="session")
def swe_judge_ctx(tmp_path_factory, swe_repos, swe_env_options, swe_isolation):
    from harness.tasks.pytest_runs import RunLimits
    from migrator.agent.tasks.swe.judge import JudgeContext

    work = tmp_path_factory.mktemp("swe-judge")
    return JudgeContext(swe_repos, work, swe_env_options, RunLimits(per_test_timeout_s=3.0, isolation=swe_isolation))


@pytest.fixture(scope="session")
def untrusted_python(tmp_path_factory) -> Path:
    """A bare virtualenv of the base interpreter with pytest copied in: the interpreter untrusted
    code runs with in the harness tests."""
    import subprocess

    from migrator.agent.tasks.swe.environments import base_python, seed_distributions

    folder = tmp_path_factory.mktemp("untrusted-venv") / "venv"
    subprocess.run([str(base_python()), "-m", "venv", "--without-pip", str(folder)], check=True)
    seed_distributions(folder, ("pytest",))
    return folder / "bin" / "python"
