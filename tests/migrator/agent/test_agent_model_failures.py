"""A model that cannot be used (its extra not installed, no AWS region, an unreachable endpoint)
never costs the run its report: conversion and verification stand, every unit the agent could not
repair says why on its report entry, every report file is written, and the exit code is 1."""

from __future__ import annotations

import json
import socket
import sys

import pytest

from migrator.agent.models import RetryPolicy, load_model
from migrator.batch.pipeline import MigrateOptions, exit_code, migrate
from migrator.cli.main import main
from tests.migrator.agent_support import write_schema

REPORT_FILES = ("report.json", "report.md", "report.html", "junit.xml", "run_manifest.json")


@pytest.fixture
def schema(tmp_path):
    return write_schema(tmp_path)


def _opts(schema, pg_engine, model: str) -> MigrateOptions:
    # with the DBMS_OUTPUT rule off, the rules get all three functions rejected: each needs repair
    return MigrateOptions(
        force=True,
        deploy=pg_engine.admin_dsn(),
        verify=True,
        scenarios=schema / "scen.yaml",
        transcript=schema / "trans.yaml",
        disabled_rules=frozenset({"plsql.dbms_output"}),
        model=model,
        attempts=2,
        progress=False,
    )


def _assert_reported(report, out, reason: str) -> None:
    needing = [u for u in report.units if u.rules_category in ("wrong", "rejected")]
    assert len(needing) == 3
    first, *rest = needing
    assert reason in first.agent_error and not first.agent_error.startswith("not attempted")
    for u in rest:  # the model is not called again once it has failed for a reason no unit avoids
        assert u.agent_error.startswith("not attempted") and reason in u.agent_error
    assert all(u.agent_error is None for u in report.units if u not in needing)
    assert reason in report.agent.model_error
    assert [f for f in REPORT_FILES if not (out / f).is_file()] == []
    stored = json.loads((out / "report.json").read_text())
    assert reason in stored["agent"]["model_error"]
    assert reason in (out / "report.md").read_text()
    assert report.verification is not None and exit_code(report) == 1


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_an_unreachable_endpoint_is_reported_per_unit(schema, pg_engine, monkeypatch):
    # the real registry and backend; only the backoff is shortened
    fast = RetryPolicy(max_attempts=2, sleep=lambda s: None)
    monkeypatch.setattr(
        "migrator.agent.run.load_model", lambda spec, cache_dir: load_model(spec, cache_dir=cache_dir, retry=fast)
    )
    spec = f"openai:http://127.0.0.1:{_closed_port()}/v1#coder"
    report = migrate(schema / "app", schema / "out", _opts(schema, pg_engine, spec))
    _assert_reported(report, schema / "out", "cannot reach")


def test_bedrock_without_boto3_names_the_extra_to_install(schema, pg_engine, monkeypatch):
    monkeypatch.setitem(sys.modules, "boto3", None)  # import boto3 -> ImportError
    monkeypatch.setitem(sys.modules, "botocore", None)
    monkeypatch.setitem(sys.modules, "botocore.exceptions", None)
    monkeypatch.setenv("AWS_REGION", "eu-west-1")
    report = migrate(schema / "app", schema / "out", _opts(schema, pg_engine, "bedrock:anthropic.claude-x"))
    _assert_reported(report, schema / "out", "pip install '.[llm]'")
    assert "boto3" in report.agent.model_error


def test_bedrock_without_a_region_exits_1_with_every_report(schema, pg_engine, monkeypatch, capsys):
    for var in ("AWS_REGION", "AWS_DEFAULT_REGION", "AWS_PROFILE"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(schema / "no-aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(schema / "no-aws-credentials"))
    code = main(
        [
            "migrate",
            str(schema / "app"),
            "--out",
            str(schema / "out"),
            "--verify",
            "--no-progress",
            "--pg-dsn",
            pg_engine.admin_dsn(),
            "--scenarios",
            str(schema / "scen.yaml"),
            "--transcript",
            str(schema / "trans.yaml"),
            "--disable-rule",
            "plsql.dbms_output",
            "--model",
            "bedrock:anthropic.claude-x",
            "--attempts",
            "2",
        ]
    )
    out = capsys.readouterr()
    assert code == 1 and "Traceback" not in out.err
    assert "no AWS region" in out.out and "function:app.stock_note" in out.out
    report = json.loads((schema / "out" / "report.json").read_text())
    assert all("no AWS region" in u["agent_error"] for u in report["units"] if u["kind"] == "function")
    assert [f for f in REPORT_FILES if not (schema / "out" / f).is_file()] == []


def test_a_model_that_cannot_be_loaded_is_reported_on_every_unit(schema, pg_engine):
    report = migrate(schema / "app", schema / "out", _opts(schema, pg_engine, f"scripted:{schema / 'gone.yaml'}"))
    needing = [u for u in report.units if u.rules_category in ("wrong", "rejected")]
    assert needing and all(u.agent_error.startswith("not attempted: cannot load the model") for u in needing)
    assert "gone.yaml" in report.agent.model_error and exit_code(report) == 1
    assert [f for f in REPORT_FILES if not (schema / "out" / f).is_file()] == []


@pytest.mark.parametrize("spec", ["nonsense:x", "openai:gpu-host:8000", f"scripted:{__file__}.missing.yaml"])
def test_a_spec_that_names_no_model_is_a_usage_error_before_any_work(schema, spec, capsys):
    code = main(["migrate", str(schema / "app"), "--out", str(schema / "out"), "--verify", "--model", spec])
    err = capsys.readouterr().err
    assert code == 2 and f"--model {spec}:" in err and "Traceback" not in err
    assert not (schema / "out").exists()
