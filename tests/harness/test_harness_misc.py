"""Scenario/transcript formats, regression comparison, Oracle engines (skipped without Oracle), timeouts."""

from __future__ import annotations

import datetime as dt
import decimal
import os

import pytest
from pydantic import ValidationError

from harness.engines.oracle import DsnOracle, to_transcript_value
from harness.engines.postgres import docker_available
from harness.ground_truth.scenarios import Provenance, ScenarioFile, TranscriptFile
from harness.judge.regress import Baseline, compare
from harness.judge.verify import UnitToVerify, verify


def test_provenance_must_be_complete():
    with pytest.raises(ValidationError):
        Provenance(kind="oracle", banner="Oracle Database 23ai Free")  # no version/time/recorder
    with pytest.raises(ValidationError):
        Provenance(kind="authored")
    Provenance(kind="authored", author="x", basis="Oracle docs")


def test_scenario_file_rejects_duplicates_and_unknown_keys():
    step = {"name": "a", "oracle": "SELECT 1 FROM dual", "postgres": "SELECT 1"}
    with pytest.raises(ValidationError):
        ScenarioFile.model_validate({"schema": "s", "scenarios": [{"id": "x", "units": ["u"], "steps": [step]}] * 2})
    with pytest.raises(ValidationError):
        ScenarioFile.model_validate(
            {"schema": "s", "scenarios": [{"id": "x", "units": ["u"], "steps": [step], "typo": 1}]}
        )


def test_regression_compare():
    base = Baseline(
        schema_name="s",
        provenance="authored",
        categories={"a": "correct", "b": "wrong", "c": "correct", "d": "rejected"},
    )
    r = compare(base, {"a": "correct", "b": "correct", "c": "wrong", "d": "wrong", "e": "correct"})
    assert r.regressions == [("c", "correct", "wrong")]
    assert r.improvements == [("b", "wrong", "correct")]
    assert r.changes == [("d", "rejected", "wrong")]
    assert r.new_units == ["e"] and not r.ok
    assert compare(base, {"a": "correct", "c": "correct"}).ok


def test_transcript_values_from_the_oracle_driver():
    assert to_transcript_value(decimal.Decimal("5")) == 5
    assert to_transcript_value(decimal.Decimal("2.50")) == 2.5
    assert to_transcript_value(dt.datetime(2024, 1, 31, 13, 5, 0)) == "2024-01-31 13:05:00"
    assert to_transcript_value(b"\x01\xff") == "01ff"


def test_hung_unit_is_killed_and_reported(pg_engine):
    spin = "CREATE FUNCTION spin() RETURNS int LANGUAGE plpgsql AS $$ BEGIN LOOP END LOOP; END $$;"
    scen = ScenarioFile.model_validate(
        {
            "schema": "s",
            "scenarios": [
                {
                    "id": "spin",
                    "units": ["function:s.spin"],
                    "steps": [{"name": "call", "oracle": "SELECT spin FROM dual", "postgres": "SELECT spin()"}],
                }
            ],
        }
    )
    trans = TranscriptFile.model_validate(
        {
            "schema": "s",
            "provenance": {"kind": "authored", "author": "t", "basis": "b"},
            "outcomes": {"spin": {"call": {"rows": [[1]]}}},
        }
    )
    result = verify(
        pg_engine, "SELECT 1;", [UnitToVerify("function:s.spin", spin, (), True)], scen, trans, step_timeout_ms=300
    )
    v = result.agent.verdicts[0]
    assert v.category == "wrong" and v.first_mismatch[2].what == "timeout"


@pytest.mark.oracle
@pytest.mark.skipif(
    not os.environ.get("MIGRATOR_ORACLE_DSN"),
    reason="no Oracle database here (set MIGRATOR_ORACLE_DSN=user/pw@host:port/service)",
)
def test_live_oracle_dsn_connects():
    with DsnOracle(os.environ["MIGRATOR_ORACLE_DSN"]) as engine:
        conn = engine.connect()
        assert conn.cursor().execute("SELECT 1 FROM dual").fetchone() == (1,)


@pytest.mark.docker
@pytest.mark.skipif(
    not docker_available(), reason="no Docker engine answers on this machine (testcontainers cannot start Oracle Free)"
)
def test_oracle_free_container_records_a_transcript():
    from harness.engines.oracle import ContainerOracle, record

    scen = ScenarioFile.model_validate(
        {
            "schema": "s",
            "scenarios": [
                {
                    "id": "one",
                    "units": ["function:s.f"],
                    "steps": [{"name": "call", "oracle": "SELECT f(2) FROM dual", "postgres": "SELECT f(2)"}],
                }
            ],
        }
    )
    with ContainerOracle() as engine:
        transcript, problems = record(
            engine, [("function:s.f", "CREATE FUNCTION f(x NUMBER) RETURN NUMBER IS BEGIN RETURN x * 2; END;")], scen
        )
    assert not problems
    assert transcript.provenance.kind == "oracle"
    assert transcript.outcomes["one"]["call"].rows == [[4]]


@pytest.mark.docker
@pytest.mark.skipif(
    not docker_available(), reason="no Docker engine answers on this machine (testcontainers cannot start Oracle Free)"
)
def test_oracle_recording_freezes_sysdate_and_marks_what_moves_with_the_clock():
    from harness.engines.oracle import ContainerOracle, record

    steps = [
        {"name": "sysdate", "oracle": "SELECT TO_CHAR(SYSDATE, 'YYYY-MM-DD HH24:MI:SS') FROM dual", "postgres": "-"},
        {"name": "ticking", "oracle": "SELECT TO_CHAR(SYSTIMESTAMP, 'HH24:MI:SS.FF6') FROM dual", "postgres": "-"},
    ]
    scen = ScenarioFile.model_validate(
        {
            "schema": "s",
            "scenarios": [{"id": "one", "units": ["u"], "fixed_date": "2024-06-15 10:30:00", "steps": steps}],
        }
    )
    with ContainerOracle() as engine:
        transcript, _problems = record(engine, [], scen)
    outcomes = transcript.outcomes["one"]
    assert outcomes["sysdate"].rows == [["2024-06-15 10:30:00"]] and not outcomes["sysdate"].clock_dependent
    assert outcomes["ticking"].clock_dependent  # FIXED_DATE does not hold SYSTIMESTAMP


def test_fixed_date_freezes_sysdate_in_a_scenario(pg_engine):
    from migrator.convert.oracompat.support import SUPPORT_SQL

    fn = "CREATE FUNCTION today() RETURNS timestamp(0) LANGUAGE sql STABLE AS $$ SELECT oracompat.sysdate() $$;"
    step = {"name": "now", "oracle": "SELECT SYSDATE FROM dual", "postgres": "SELECT today()"}
    scen = ScenarioFile.model_validate(
        {
            "schema": "s",
            "scenarios": [
                {"id": "frozen", "units": ["function:s.today"], "fixed_date": "2024-02-15 10:00:00", "steps": [step]},
                {"id": "live", "units": ["function:s.today"], "steps": [step]},
            ],
        }
    )
    trans = TranscriptFile.model_validate(
        {
            "schema": "s",
            "provenance": {"kind": "authored", "author": "t", "basis": "b"},
            "outcomes": {
                "frozen": {"now": {"rows": [["2024-02-15 10:00:00"]]}},
                "live": {"now": {"rows": [["2024-02-15 10:00:00"]]}},
            },
        }
    )
    result = verify(
        pg_engine, SUPPORT_SQL, [UnitToVerify("function:s.today", fn, (), True)], scen, trans, do_nothing=False
    )
    v = result.agent.verdicts[0]
    # The frozen scenario agrees; the live one sees today's clock and must not.
    assert v.steps == 2 and v.steps_agreeing == 1 and v.first_mismatch[0] == "live"
