"""The report files a run owns: every run rewrites or removes each of them, so nothing in OUT
describes an earlier run."""

from __future__ import annotations

import pytest

from migrator.cli import main
from migrator.pipeline import MigrateOptions, migrate
from tests.migrator.agent_support import write_schema

VERIFIED_ONLY = ("report.html", "junit.xml")


@pytest.fixture
def schema(tmp_path):
    return write_schema(tmp_path)


def _verified(schema, pg_engine, **extra) -> MigrateOptions:
    return MigrateOptions(force=True, deploy=pg_engine.admin_dsn(), verify=True, scenarios=schema / "scen.yaml",
                          transcript=schema / "trans.yaml", progress=False, **extra)


@pytest.mark.parametrize("how", ["force", "resume", "force+deploy"])
def test_a_rerun_without_verify_leaves_no_stale_verified_reports(schema, pg_engine, how):
    out = schema / "out"
    migrate(schema / "app", out, _verified(schema, pg_engine))
    assert all((out / f).is_file() for f in VERIFIED_ONLY)
    rerun = MigrateOptions(progress=False, force="force" in how, resume=how == "resume",
                           deploy=pg_engine.admin_dsn() if "deploy" in how else None)
    report = migrate(schema / "app", out, rerun)
    assert report.verification is None
    assert [f for f in VERIFIED_ONLY if (out / f).exists()] == []
    assert (out / "report.json").is_file() and (out / "report.md").is_file()


def test_a_rerun_without_model_leaves_no_stale_run_manifest(schema, pg_engine):
    out = schema / "out"
    migrate(schema / "app", out, _verified(schema, pg_engine, model="scripted", attempts=1))
    assert (out / "run_manifest.json").is_file()
    # re-verifying the same output keeps it: the report still describes that agent run
    assert main(["verify", str(out), "--pg-dsn", pg_engine.admin_dsn(), "--scenarios", str(schema / "scen.yaml"),
                 "--transcript", str(schema / "trans.yaml")]) in (0, 1)
    assert (out / "run_manifest.json").is_file()
    migrate(schema / "app", out, _verified(schema, pg_engine))
    assert not (out / "run_manifest.json").exists()
    assert all((out / f).is_file() for f in VERIFIED_ONLY)
