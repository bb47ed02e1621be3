"""Inner-reference resolution with plpgsql_check on a real PostgreSQL 15 (Debian's package).

PostgreSQL accepts a PL/pgSQL body that names a missing column; plpgsql_check finds it without
running the code. CI starts Debian's postgresql-15 with postgresql-15-plpgsql-check on loopback
(.ci/start-pg15.sh) and sets MIGRATOR_PLPGSQL_CHECK_DSN; elsewhere these tests are skipped.
"""

from __future__ import annotations

import os

import pytest

from harness.engines.postgres import DsnPostgres
from harness.ground_truth.scenarios import ScenarioFile, TranscriptFile
from harness.judge.verify import UnitToVerify, verify

DSN = os.environ.get("MIGRATOR_PLPGSQL_CHECK_DSN")
pytestmark = pytest.mark.skipif(
    not DSN,
    reason="no PostgreSQL with plpgsql_check here "
    "(CI installs postgresql-15-plpgsql-check and sets MIGRATOR_PLPGSQL_CHECK_DSN)",
)

TABLE = "CREATE TABLE t(id int PRIMARY KEY, v int); INSERT INTO t VALUES (1, 10);"
GOOD = "CREATE FUNCTION good(p int) RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN (SELECT v FROM t WHERE id = p); END $$;"
# Deploys, and its scenario even agrees (the bad branch never runs), but the body names a column
# that does not exist: only plpgsql_check can tell.
LATENT = """CREATE FUNCTION latent(p int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN IF p < 0 THEN RETURN (SELECT no_such_column FROM t LIMIT 1); END IF; RETURN p; END $$;"""
TRIG = """CREATE FUNCTION trg_fn() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW.v := NEW.missing; RETURN NEW; END $$;
CREATE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION trg_fn();"""

SCEN = ScenarioFile.model_validate(
    {
        "schema": "s",
        "scenarios": [
            {
                "id": "good",
                "units": ["function:s.good"],
                "steps": [{"name": "one", "oracle": "SELECT good(1) FROM dual", "postgres": "SELECT good(1)"}],
            },
            {
                "id": "latent",
                "units": ["function:s.latent"],
                "steps": [{"name": "one", "oracle": "SELECT latent(1) FROM dual", "postgres": "SELECT latent(1)"}],
            },
        ],
    }
)
TRANS = TranscriptFile.model_validate(
    {
        "schema": "s",
        "provenance": {"kind": "authored", "author": "t", "basis": "b"},
        "outcomes": {"good": {"one": {"rows": [[10]]}}, "latent": {"one": {"rows": [[1]]}}},
    }
)


def test_plpgsql_check_resolves_references():
    units = [
        UnitToVerify("table:s.t", TABLE, (), True),
        UnitToVerify("function:s.good", GOOD, ("table:s.t",), True),
        UnitToVerify("function:s.latent", LATENT, ("table:s.t",), True),
        UnitToVerify("trigger:s.trg", TRIG, ("table:s.t",), True),
    ]
    with DsnPostgres(DSN) as engine:
        result = verify(engine, "SELECT 1;", units, SCEN, TRANS, do_nothing=False)
    assert result.references_checked
    v = {x.unit_id: x for x in result.agent.verdicts}
    assert v["function:s.good"].category == "correct" and v["function:s.good"].references == "resolved by plpgsql_check"
    assert v["function:s.latent"].category == "unverified"
    assert "no_such_column" in v["function:s.latent"].references
    assert "missing" in v["trigger:s.trg"].references
