"""A verified fixture run with `wrong` units, shared by the review tests (real embedded PostgreSQL).

`expr.concat_null` switched off makes nine hr_payroll units disagree with Oracle (|| with a NULL
operand), found by experiment: `migrator migrate fixtures/schemas/hr_payroll --verify
--disable-rule expr.concat_null`. With the environment variable MIGRATOR_REVIEW_ARTIFACTS set, the
run (and the screenshots the browser test takes of it) are kept there, e.g. as CI artifacts.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from migrator.batch.pipeline import MigrateOptions, migrate

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures"
DISABLED = "expr.concat_null"


@pytest.fixture(scope="session")
def artifacts_dir(tmp_path_factory) -> Path:
    kept = os.environ.get("MIGRATOR_REVIEW_ARTIFACTS")
    folder = Path(kept) if kept else tmp_path_factory.mktemp("review-artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="session")
def wrong_run(pg_engine, artifacts_dir):
    """(OUT, report) of hr_payroll verified with expr.concat_null off."""
    out = artifacts_dir / "hr_payroll-review"
    if out.exists():
        shutil.rmtree(out)
    report = migrate(
        FIXTURES / "schemas" / "hr_payroll",
        out,
        MigrateOptions(
            force=True,
            deploy=pg_engine.admin_dsn(),
            verify=True,
            progress=False,
            disabled_rules=frozenset({DISABLED}),
            scenarios=FIXTURES / "scenarios" / "hr_payroll.yaml",
            transcript=FIXTURES / "transcripts" / "hr_payroll.yaml",
        ),
    )
    return out, report
