"""The report files a run owns: every run rewrites or removes each of them, so nothing in OUT
describes an earlier run."""

from __future__ import annotations

import pytest

from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.cli.main import main
from tests.migrator.agent_support import write_schema

VERIFIED_ONLY = ("report.html", "junit.xml", "steps.json")


@pytest.fixture
def schema(tmp_path):
    return write_schema(tmp_path)


def _verified(schema, pg_engine, **extra) -> MigrateOptions:
    return MigrateOptions(
        force=True,
        deploy=pg_engine.admin_dsn(),
        verify=True,
        scenarios=schema / "scen.yaml",
        transcript=schema / "trans.yaml",
        progress=False,
        **extra,
    )


@pytest.mark.parametrize("how", ["force", "resume", "force+deploy"])
def test_a_rerun_without_verify_leaves_no_stale_verified_reports(schema, pg_engine, how):
    out = schema / "out"
    migrate(schema / "app", out, _verified(schema, pg_engine))
    assert all((out / f).is_file() for f in VERIFIED_ONLY)
    rerun = MigrateOptions(
        progress=False,
        force="force" in how,
        resume=how == "resume",
        deploy=pg_engine.admin_dsn() if "deploy" in how else None,
    )
    report = migrate(schema / "app", out, rerun)
    assert report.verification is None
    assert [f for f in VERIFIED_ONLY if (out / f).exists()] == []
    assert (out / "report.json").is_file() and (out / "report.md").is_file()


def test_a_rerun_without_model_leaves_no_stale_run_manifest(schema, pg_engine):
    out = schema / "out"
    migrate(schema / "app", out, _verified(schema, pg_engine, model="scripted", attempts=1))
    assert (out / "run_manifest.json").is_file()
    # re-verifying the same output keeps it: the report still describes that agent run
    assert main(
        [
            "verify",
            str(out),
            "--pg-dsn",
            pg_engine.admin_dsn(),
            "--scenarios",
            str(schema / "scen.yaml"),
            "--transcript",
            str(schema / "trans.yaml"),
        ]
    ) in (0, 1)
    assert (out / "run_manifest.json").is_file()
    migrate(schema / "app", out, _verified(schema, pg_engine))
    assert not (out / "run_manifest.json").exists()
    assert all((out / f).is_file() for f in VERIFIED_ONLY)


def _cli(schema, pg_engine, *argv) -> int:
    return main(
        [
            *argv,
            "--pg-dsn",
            pg_engine.admin_dsn(),
            "--scenarios",
            str(schema / "scen.yaml"),
            "--transcript",
            str(schema / "trans.yaml"),
        ]
    )


def test_migrate_verify_and_verify_give_one_exit_code_for_the_same_results(schema, pg_engine, capsys):
    out = schema / "out"
    # the table and its rows are `unverified` (no scenario is about them), the functions `correct`
    migrated = _cli(schema, pg_engine, "migrate", str(schema / "app"), "--out", str(out), "--verify", "--no-progress")
    assert migrated == 0
    assert _cli(schema, pg_engine, "verify", str(out)) == migrated
    # a hand edit that makes a unit wrong fails both the same way
    unit = next(out.glob("function/*double_qty*.sql"))
    unit.write_text(unit.read_text().replace("v_qty * 2", "v_qty * 3"))
    assert _cli(schema, pg_engine, "verify", str(out)) == 1
    capsys.readouterr()


def test_a_reverification_does_not_add_its_time_to_the_run(schema, pg_engine):
    import json

    out = schema / "out"
    assert _cli(schema, pg_engine, "migrate", str(schema / "app"), "--out", str(out), "--verify", "--no-progress") == 0
    first = json.loads((out / "report.json").read_text())
    assert first["summary"]["seconds"] > 0 and first["verification"]["seconds"] > 0
    for _ in range(2):
        assert _cli(schema, pg_engine, "verify", str(out)) == 0
    again = json.loads((out / "report.json").read_text())
    assert again["summary"]["seconds"] == first["summary"]["seconds"]
    assert again["verification"]["seconds"] > 0


def test_steps_json_keeps_every_step_beside_the_report(schema, pg_engine):
    from migrator.batch.steps_file import load_steps

    out = schema / "out"
    report = migrate(schema / "app", out, _verified(schema, pg_engine))
    steps = load_steps(out)
    row = report.verification.rows[0]
    entries = [s for sc in steps.scenarios for s in sc.steps]
    assert len(entries) == row.steps_total and sum(s.status == "agrees" for s in entries) == row.steps_agreeing
    for unit in report.units:  # per unit, the steps add up to what report.json counts
        mine = [s for sc in steps.for_unit(unit.id) for s in sc.steps if s.status in ("agrees", "differs")]
        assert len(mine) == (unit.steps or 0) and sum(s.status == "agrees" for s in mine) == (unit.steps_agreeing or 0)
    assert steps.provenance == "authored" and steps.schema_name == report.schema_name
