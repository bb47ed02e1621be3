"""Inner references resolved on the embedded server (no plpgsql_check): pglast + PREPARE.

Every unit below deploys — PostgreSQL defers name resolution inside PL/pgSQL bodies to run time —
and several even agree with their scenario, because the broken line sits in a branch the scenario
never takes or behind a WHEN OTHERS handler. The judge must reject them with the missing name
before any scenario runs, and must not reject a body that only looks odd (use_column, labels,
aliases, %ROWTYPE, loop records, cursors, dynamic SQL, OUT parameters, triggers).
"""

from __future__ import annotations

import psycopg
import pytest

from harness.ground_truth.scenarios import ScenarioFile, TranscriptFile
from harness.judge.verify import UnitToVerify, verify
from harness.resolution.references import METHOD_PREPARE, RoutineTracker, check_references, plpgsql_check_installed

TABLE = """CREATE TABLE t(id int PRIMARY KEY, v int); INSERT INTO t VALUES (1, 10);
CREATE SCHEMA s; CREATE TYPE s.pair AS (a int, b text); CREATE SEQUENCE s1;"""

# Names that look like trouble but all resolve at run time.
GOOD = """CREATE FUNCTION good(p int, OUT o text) LANGUAGE plpgsql AS $$
#variable_conflict use_column
<<blk>>
DECLARE
  v t.v%TYPE; r t%ROWTYPE; q s.pair; rec record; x ALIAS FOR $1;
  c CURSOR (k int) FOR SELECT v FROM t WHERE id = k;
BEGIN
  SELECT v INTO v FROM t WHERE id = p;
  SELECT * INTO r FROM t WHERE id = x;
  q.a := r.v; q.b := 'x';
  FOR rec IN SELECT id, v AS vv FROM t LOOP v := rec.vv + blk.v + good.p; END LOOP;
  FOR i IN 1..p LOOP v := v + i; END LOOP;
  FOR cr IN c(p) LOOP v := cr.v; END LOOP;
  CASE v WHEN 1 THEN NULL; ELSE v := 2; END CASE;
  PERFORM nextval('s1');
  EXECUTE 'SELECT count(*) FROM t WHERE id = $1' INTO v USING p;
  IF p < 0 THEN
    INSERT INTO t(id, v) VALUES (p + 100, v) RETURNING id INTO v;
    CREATE TEMP TABLE scratch_rows(a int);
    INSERT INTO scratch_rows VALUES (1);
  END IF;
  o := q.b || r.id || $1;
EXCEPTION WHEN others THEN RAISE NOTICE '%', SQLERRM; o := NULL;
END $$;"""
LATENT = """CREATE FUNCTION latent(p int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN IF p < 0 THEN RETURN (SELECT no_such_column FROM t LIMIT 1); END IF; RETURN p; END $$;"""
HIDDEN_CALL = """CREATE FUNCTION hidden_call(p int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN IF p < 0 THEN PERFORM missing_fn(p); END IF; RETURN p;
EXCEPTION WHEN OTHERS THEN RETURN 0; END $$;"""
DYNAMIC = """CREATE PROCEDURE purge(p int) LANGUAGE plpgsql AS $$
BEGIN IF p < 0 THEN EXECUTE 'DELETE FROM missing_tbl WHERE id = $1' USING p; END IF; END $$;"""
TRIGGER = """CREATE FUNCTION trg_fn() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN IF NEW.v < 0 THEN NEW.v := NEW.missing; END IF; RETURN NEW; END $$;
CREATE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW EXECUTE FUNCTION trg_fn();"""
BAD_TYPE = """CREATE FUNCTION bad_type() RETURNS int LANGUAGE plpgsql AS $$
DECLARE x no_such_type; BEGIN RETURN 1; END $$;"""
LOOP_FIELD = """CREATE FUNCTION loop_field() RETURNS int LANGUAGE plpgsql AS $$
DECLARE r record; n int := 0;
BEGIN FOR r IN SELECT id FROM t LOOP IF r.id < 0 THEN n := r.nope; END IF; END LOOP; RETURN n; END $$;"""
TARGET_COLUMN = """CREATE PROCEDURE put(p int) LANGUAGE plpgsql AS $$
BEGIN IF p < 0 THEN UPDATE t SET gone = p WHERE id = p; END IF; END $$;"""
SETOF = """CREATE FUNCTION setof_rows(p int) RETURNS SETOF int LANGUAGE plpgsql AS $$
BEGIN IF p < 0 THEN RETURN QUERY SELECT gone_col FROM t; END IF; RETURN QUERY SELECT v FROM t; END $$;"""
CALLER = """CREATE PROCEDURE caller(p int) LANGUAGE plpgsql AS $$
BEGIN IF p < 0 THEN CALL s.nowhere(p); END IF; END $$;"""
# A package body replaces its spec's stub (same OID): what is wrong in the body is the body's.
SPEC = "CREATE FUNCTION pkg_f() RETURNS int LANGUAGE plpgsql AS $$ BEGIN RETURN NULL; END $$;"
BODY = """CREATE OR REPLACE FUNCTION pkg_f() RETURNS int LANGUAGE plpgsql AS $$
BEGIN RETURN (SELECT gone FROM t LIMIT 1); END $$;"""
# A call whose arguments match no signature of an existing function: never a missing name, but an
# unresolved call (harness.resolution.call_resolution) — it fails whenever its line runs.
WRONG_ARGS = """CREATE FUNCTION wrong_args(p int) RETURNS int LANGUAGE plpgsql AS $$
BEGIN IF p < 0 THEN RETURN latent(p, p); END IF; RETURN p; END $$;"""

UNITS = [
    UnitToVerify("table:s.t", TABLE, (), True),
    UnitToVerify("function:s.good", GOOD, ("table:s.t",), True),
    UnitToVerify("function:s.latent", LATENT, ("table:s.t",), True),
    UnitToVerify("function:s.hidden_call", HIDDEN_CALL, (), True),
    UnitToVerify("procedure:s.purge", DYNAMIC, (), True),
    UnitToVerify("trigger:s.trg", TRIGGER, ("table:s.t",), True),
    UnitToVerify("function:s.bad_type", BAD_TYPE, (), True),
    UnitToVerify("function:s.loop_field", LOOP_FIELD, ("table:s.t",), True),
    UnitToVerify("procedure:s.put", TARGET_COLUMN, ("table:s.t",), True),
    UnitToVerify("function:s.wrong_args", WRONG_ARGS, ("function:s.latent",), True),
    UnitToVerify("function:s.setof_rows", SETOF, ("table:s.t",), True),
    UnitToVerify("procedure:s.caller", CALLER, (), True),
    UnitToVerify("package_spec:s.pkg", SPEC, (), True),
    UnitToVerify("package_body:s.pkg", BODY, ("package_spec:s.pkg", "table:s.t"), True),
]


def _step(name: str, sql: str) -> dict:
    return {"name": name, "oracle": f"{sql} FROM dual", "postgres": sql}


# Each scenario agrees with what the deployed code returns: only reference resolution can tell.
SCENARIOS = ScenarioFile.model_validate(
    {
        "schema": "s",
        "scenarios": [
            {"id": "good", "units": ["function:s.good"], "steps": [_step("one", "SELECT good(1)")]},
            {"id": "latent", "units": ["function:s.latent"], "steps": [_step("one", "SELECT latent(1)")]},
            {"id": "hidden", "units": ["function:s.hidden_call"], "steps": [_step("one", "SELECT hidden_call(1)")]},
            {"id": "wrong_args", "units": ["function:s.wrong_args"], "steps": [_step("one", "SELECT wrong_args(1)")]},
        ],
    }
)
TRANSCRIPT = TranscriptFile.model_validate(
    {
        "schema": "s",
        "provenance": {"kind": "authored", "author": "t", "basis": "b"},
        "outcomes": {
            "good": {"one": {"rows": [["x11"]]}},
            "latent": {"one": {"rows": [[1]]}},
            "hidden": {"one": {"rows": [[1]]}},
            "wrong_args": {"one": {"rows": [[1]]}},
        },
    }
)


@pytest.fixture(scope="module")
def verdicts(pg_engine):
    result = verify(pg_engine, "SELECT 1;", UNITS, SCENARIOS, TRANSCRIPT, do_nothing=False)
    if result.references_method != METHOD_PREPARE:
        pytest.skip("this server has plpgsql_check: tests/harness/test_references.py covers it")
    return {v.unit_id: v for v in result.agent.verdicts}


def test_a_clean_body_is_resolved_not_rejected(verdicts):
    good = verdicts["function:s.good"]
    assert good.category == "correct", good.reason
    assert good.references == "resolved by pglast + PostgreSQL (PREPARE)"
    assert good.tier == "G2"  # authored evidence


@pytest.mark.parametrize(
    ("unit", "name"),
    [
        ("function:s.latent", "column no_such_column"),  # an untaken branch; its scenario agrees
        ("function:s.hidden_call", "function missing_fn"),  # behind WHEN OTHERS; its scenario agrees
        ("procedure:s.purge", "table missing_tbl"),  # EXECUTE of a constant string
        ("trigger:s.trg", "field new.missing"),  # NEW of the trigger's table
        ("function:s.loop_field", "field r.nope"),  # a FOR-loop record's field
        ("procedure:s.put", "column t.gone"),  # an UPDATE target column
        ("function:s.setof_rows", "column gone_col"),  # RETURN QUERY
        ("procedure:s.caller", "function s.nowhere"),  # CALL
        ("package_body:s.pkg", "column gone"),  # CREATE OR REPLACE of the spec's stub
    ],
)
def test_missing_names_reject_before_any_scenario(verdicts, unit, name):
    v = verdicts[unit]
    assert v.category == "rejected", v.reason
    assert v.reason.startswith("references missing: ") and name in v.reason
    assert "pglast + PostgreSQL (PREPARE)" in v.references
    assert v.tier == "G1"


def test_a_replaced_stub_belongs_to_the_unit_that_replaced_it(verdicts):
    spec = verdicts["package_spec:s.pkg"]
    assert spec.category == "unverified" and spec.references == "resolved by pglast + PostgreSQL (PREPARE)"


def test_a_missing_declared_type_is_rejected_at_deploy(verdicts):
    v = verdicts["function:s.bad_type"]
    assert v.category == "rejected" and "no_such_type" in v.reason


def test_an_existing_function_called_with_other_arguments_is_unresolved_not_missing(verdicts):
    v = verdicts["function:s.wrong_args"]
    # the branch never runs and the name exists: not rejected, but not correct either
    assert v.category == "unverified" and v.reason == "references unresolved", v.reason
    assert v.references == (
        "unresolved: wrong_args(integer) line 2: call latent(...) matches no signature: "
        "function latent(integer, integer) does not exist"
    )


def test_a_relation_created_by_a_body_is_never_missing(verdicts):
    assert verdicts["function:s.good"].category == "correct"  # scratch_rows is created in GOOD


def test_the_check_runs_as_the_execution_role_and_leaves_nothing_behind(pg_engine, pg_dsn):
    tracker = RoutineTracker()
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(TABLE)
        conn.execute(LATENT)
        tracker(conn, "function:s.latent")
        if plpgsql_check_installed(conn):
            pytest.skip("plpgsql_check installed here")
        before = conn.execute("SELECT count(*) FROM pg_class").fetchone()[0]
    method, found = check_references(pg_dsn, tracker.created)
    assert method == METHOD_PREPARE
    assert found["function:s.latent"].missing == ["column no_such_column (latent(integer) line 2)"]
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM pg_class").fetchone()[0] == before
        assert conn.execute("SELECT current_user").fetchone()[0] == psycopg.conninfo.conninfo_to_dict(pg_dsn)["user"]
