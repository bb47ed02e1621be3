"""The judge end to end on a real PostgreSQL: deploy, isolate, run, compare, decide, do-nothing row."""

from __future__ import annotations

import pytest

from harness.ground_truth.scenarios import ScenarioFile, TranscriptFile
from harness.judge.verify import UnitToVerify, verify

PREAMBLE = "CREATE SCHEMA IF NOT EXISTS app; SET search_path = app, public;"

TABLE = "CREATE TABLE app.acct(id int PRIMARY KEY, bal numeric); INSERT INTO app.acct VALUES (1, 100), (2, 0);"
GOOD = """CREATE FUNCTION app.bal(p int) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE v numeric; BEGIN SELECT bal INTO STRICT v FROM app.acct WHERE id = p; RAISE NOTICE 'bal %', v; RETURN v; END $$;"""
# Deploys fine, but returns the wrong value for a missing account instead of raising NO_DATA_FOUND.
WRONG = """CREATE FUNCTION app.bal2(p int) RETURNS numeric LANGUAGE plpgsql AS $$
DECLARE v numeric; BEGIN SELECT bal INTO v FROM app.acct WHERE id = p; RETURN coalesce(v, 0); END $$;"""
BROKEN = "CREATE FUNCTION app.bal3( RETURNS numeric"
# Empties the table: must not leak into any other scenario (fresh clone per scenario).
WIPE = "CREATE PROCEDURE app.wipe() LANGUAGE sql AS $$ DELETE FROM app.acct $$;"

SCENARIOS = ScenarioFile.model_validate(
    {
        "schema": "app",
        "scenarios": [
            {
                "id": "wipe",
                "units": ["procedure:app.wipe"],
                "steps": [
                    {"name": "call", "oracle": "BEGIN wipe; END;", "postgres": "CALL app.wipe()"},
                    {
                        "name": "after",
                        "oracle": "SELECT count(*) FROM acct",
                        "postgres": "SELECT count(*) FROM app.acct",
                    },
                ],
            },
            {
                "id": "bal",
                "units": ["function:app.bal"],
                "steps": [
                    {"name": "found", "oracle": "SELECT bal(1) FROM dual", "postgres": "SELECT app.bal(1)"},
                    {"name": "missing", "oracle": "SELECT bal(9) FROM dual", "postgres": "SELECT app.bal(9)"},
                ],
            },
            {
                "id": "bal2",
                "units": ["function:app.bal2"],
                "steps": [
                    {"name": "found", "oracle": "SELECT bal2(1) FROM dual", "postgres": "SELECT app.bal2(1)"},
                    {"name": "missing", "oracle": "SELECT bal2(9) FROM dual", "postgres": "SELECT app.bal2(9)"},
                ],
            },
        ],
    }
)

TRANSCRIPT = TranscriptFile.model_validate(
    {
        "schema": "app",
        "provenance": {"kind": "authored", "author": "test", "basis": "documented Oracle semantics"},
        "outcomes": {
            "wipe": {"call": {"rows": None}, "after": {"rows": [[0]]}},
            "bal": {
                "found": {"rows": [[100]], "output": ["bal 100"]},
                "missing": {"error": {"code": "ORA-01403", "message": "no data found"}},
            },
            "bal2": {
                "found": {"rows": [[100]]},
                "missing": {"error": {"code": "ORA-01403", "message": "no data found"}},
            },
        },
    }
)


@pytest.fixture(scope="module")
def result(pg_engine):
    units = [
        UnitToVerify("table:app.acct", TABLE, (), True),
        UnitToVerify("procedure:app.wipe", WIPE, ("table:app.acct",), True),
        UnitToVerify("function:app.bal", GOOD, ("table:app.acct",), True),
        UnitToVerify("function:app.bal2", WRONG, ("table:app.acct",), True),
        UnitToVerify("function:app.bal3", BROKEN, (), False),
    ]
    return verify(pg_engine, PREAMBLE, units, SCENARIOS, TRANSCRIPT)


def _by_id(side):
    return {v.unit_id: v for v in side.verdicts}


def test_categories(result):
    v = _by_id(result.agent)
    assert v["function:app.bal"].category == "correct"
    assert v["procedure:app.wipe"].category == "correct"
    assert v["function:app.bal2"].category == "wrong"
    assert v["function:app.bal2"].first_mismatch[2].what == "missing error"
    assert v["function:app.bal3"].category == "rejected"
    assert v["table:app.acct"].category == "unverified"


def test_scenarios_are_isolated(result):
    # 'wipe' ran first and deleted every row; 'bal' still found account 1 in its own clone.
    assert _by_id(result.agent)["function:app.bal"].steps_agreeing == 2


def test_authored_evidence_stops_at_g2(result):
    assert result.provenance == "authored"
    assert _by_id(result.agent)["function:app.bal"].tier == "G2"
    assert _by_id(result.agent)["function:app.bal3"].tier == "G0"


def test_do_nothing_row_is_measured_not_assumed(result):
    nothing = result.do_nothing
    assert all(v.category == "rejected" for v in nothing.verdicts)
    assert nothing.steps_total == result.agent.steps_total
    assert nothing.steps_agreeing < result.agent.steps_agreeing


def test_references_are_reported_honestly(result):
    # plpgsql_check where the server has it, else pglast + PostgreSQL's own Parse: never silent.
    v = _by_id(result.agent)["function:app.bal"]
    assert result.references_checked
    assert result.references_method in ("plpgsql_check", "pglast + PostgreSQL (PREPARE)")
    assert v.references == f"resolved by {result.references_method}"


def test_every_step_is_kept_with_both_outcomes(result):
    records = {r.scenario: r for r in result.agent.records}
    assert set(records) == {s.id for s in SCENARIOS.scenarios}
    kept = sum(len(r.steps) for r in records.values())
    assert kept == sum(len(s.steps) for s in SCENARIOS.scenarios) == result.agent.steps_total
    # the statuses are the verdicts' own comparisons: agreeing steps add up to the arm's count
    assert sum(s.status == "agrees" for r in records.values() for s in r.steps) == result.agent.steps_agreeing
    missing = next(s for s in records["bal2"].steps if s.step == "missing")
    assert (missing.status, missing.what, missing.first_difference.part) == ("differs", "missing error", "error")
    assert missing.oracle.error == "ORA-01403: no data found"
    assert missing.postgres.error is None and missing.postgres.rows == [["0"]]
    found = next(s for s in records["bal"].steps if s.step == "found")
    assert found.status == "agrees" and found.postgres.output == ["bal 100"] and found.oracle.rows == [["100"]]
    assert found.postgres_sql == "SELECT app.bal(1)"
