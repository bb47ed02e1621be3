"""The repair loop's judge: references resolved inside the rolled-back deploy, before any scenario."""

from __future__ import annotations

import psycopg

from harness.ground_truth.scenarios import ScenarioFile, TranscriptFile
from harness.judge.incremental import IncrementalJudge

PREAMBLE = "CREATE TABLE t(id int PRIMARY KEY, v int); INSERT INTO t VALUES (1, 10);"
CALLS_LATER = """CREATE FUNCTION f(p int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN IF p < 0 THEN RETURN later_fn(p); END IF; RETURN (SELECT v FROM t WHERE id = p); END $$;"""
SCENARIOS = ScenarioFile.model_validate(
    {
        "schema": "s",
        "scenarios": [
            {
                "id": "f",
                "units": ["function:s.f"],
                "steps": [{"name": "one", "oracle": "SELECT f(1) FROM dual", "postgres": "SELECT f(1)"}],
            }
        ],
    }
)
TRANSCRIPT = TranscriptFile.model_validate(
    {
        "schema": "s",
        "provenance": {"kind": "authored", "author": "t", "basis": "b"},
        "outcomes": {"f": {"one": {"rows": [[10]]}}},
    }
)


def test_a_missing_name_rejects_the_candidate_before_its_scenarios(pg_engine):
    with IncrementalJudge(pg_engine, PREAMBLE, SCENARIOS, TRANSCRIPT) as judge:
        judged = judge.judge("function:s.f", CALLS_LATER, True)
        assert judged.verdict.category == "rejected"
        assert "function later_fn" in judged.verdict.reason
        assert judged.verdict.steps == 0  # no scenario ran
        # Rolled back: the template holds nothing of the candidate.
        with psycopg.connect(judge._dsn) as conn:
            assert conn.execute("SELECT to_regprocedure('f(integer)')").fetchone()[0] is None


def test_a_name_of_a_unit_not_finalized_yet_is_not_missing(pg_engine):
    with IncrementalJudge(pg_engine, PREAMBLE, SCENARIOS, TRANSCRIPT) as judge:
        judged = judge.judge("function:s.f", CALLS_LATER, True, pending=frozenset({"later_fn"}))
        assert judged.verdict.category == "correct", judged.verdict.reason
        assert judged.verdict.references == "resolved by pglast + PostgreSQL (PREPARE)"
        assert judged.visible.category == "correct" and judged.held_out_disagreeing == 0
