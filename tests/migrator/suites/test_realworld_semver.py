"""semver's own Pete suite (../shared/realworld: semver + debug, Pete, semver_tests) through
`migrate --tests`: every one of the 24 test methods is found and reported, and none that does not
pass is silent about why. Skips where the real-world folder is absent. The pass count itself is
printed by benchmarks/bench_suites.py (the issue's bar is 22 of 24)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.suites.session import SuiteOptions

# beside the checkout, as benchmarks/bench_realworld.py looks for it (MIGRATOR_REALWORLD elsewhere)
REALWORLD = Path(
    os.environ.get("MIGRATOR_REALWORLD") or Path(__file__).resolve().parents[3].parent / "shared" / "realworld"
)
METHODS = 24


@pytest.mark.slow
@pytest.mark.skipif(not (REALWORLD / "semver_tests").is_dir(), reason="../shared/realworld is absent")
def test_semver_pete_suite_is_found_and_every_failure_says_why(tmp_path, pg_engine):
    opts = MigrateOptions(
        deploy=pg_engine.admin_dsn(),
        progress=False,
        suite=SuiteOptions(dirs=(REALWORLD / "pete", REALWORLD / "semver_tests")),
    )
    report = migrate(REALWORLD / "semver", tmp_path / "out", opts)
    tests = json.loads((tmp_path / "out" / "tests.json").read_text(encoding="utf-8"))
    assert tests["totals"]["total"] == METHODS
    assert {t["style"] for t in tests["tests"]} == {"framework"}
    assert len({t["suite"] for t in tests["tests"]}) == 6  # the six UT_ packages
    for t in tests["tests"]:
        if t["outcome"] != "passed":
            assert t["message"].strip(), t
    assert report.tests is not None and report.tests.totals["total"] == METHODS
