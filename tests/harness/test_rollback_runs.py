"""Selection runs that share a database copy (harness.judge.rollback_runs): each scenario sees the
template as it was, as in a clone of its own, and what a rollback cannot hold runs in a clone."""

from __future__ import annotations

import psycopg

from harness.ground_truth.scenarios import Scenario
from harness.judge.runner import iter_runs

SCHEMA = """
CREATE TABLE t(id int PRIMARY KEY, v int);
INSERT INTO t VALUES (1, 10), (2, 20);
CREATE SEQUENCE s;
CREATE SEQUENCE used START 5;
SELECT nextval('used');
CREATE FUNCTION add_row(p int) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE n bigint := nextval('s');
BEGIN
  INSERT INTO t VALUES (p, nextval('used'));
  EXECUTE format('PREPARE pkg_state AS SELECT %L::text', p);  -- package state, as the runtime keeps it
  RETURN n;
END $$;
CREATE FUNCTION state() RETURNS text LANGUAGE sql AS $$
  SELECT substring(statement FROM '''(.*)''') FROM pg_prepared_statements WHERE name = 'pkg_state' $$;
CREATE PROCEDURE commits(p int) LANGUAGE plpgsql AS $$ BEGIN INSERT INTO t VALUES (p, 0); COMMIT; END $$;
CREATE FUNCTION spin() RETURNS int LANGUAGE plpgsql AS $$ BEGIN LOOP END LOOP; END $$;
"""


def _scenario(sid: str, *steps: str) -> Scenario:
    return Scenario.model_validate(
        {
            "id": sid,
            "units": ["u"],
            "steps": [{"name": f"s{n}", "oracle": "-", "postgres": s} for n, s in enumerate(steps)],
        }
    )


def _template(pg_engine, pg_dsn) -> str:
    with psycopg.connect(pg_dsn, autocommit=True) as conn:
        conn.execute(SCHEMA)
    return str(psycopg.conninfo.conninfo_to_dict(pg_dsn)["dbname"])


def _observed(run) -> list:
    return [(o.rows, o.sqlstate) for o in run.observed.values()]


def test_each_shared_scenario_sees_the_template_as_it_was(pg_engine, pg_dsn):
    template = _template(pg_engine, pg_dsn)
    writes = _scenario(
        "w",
        "SELECT add_row(3)",
        "SELECT state()",
        "SELECT add_row(1)",  # a duplicate key: this step fails alone, as in autocommit
        "SELECT id, v FROM t ORDER BY id",
    )
    reads = _scenario(
        "r",
        "SELECT id, v FROM t ORDER BY id",
        "SELECT currval('s')",
        "SELECT nextval('s'), nextval('used')",
        "SELECT state()",
    )
    scenarios = [writes, reads, writes, reads, writes, reads]
    shared = list(iter_runs(pg_engine, template, scenarios, shared=lambda sc: True, parallel=1))
    alone = list(iter_runs(pg_engine, template, scenarios[:2]))
    assert [_observed(r) for r in shared] == [_observed(r) for r in alone] * 3
    assert _observed(shared[0]) == [([[1]], None), ([["3"]], None), (None, "23505"), ([[1, 10], [2, 20], [3, 6]], None)]
    # sequences put back, package state gone: the reads see the template's
    assert _observed(shared[1]) == [([[1, 10], [2, 20]], None), (None, "55000"), ([[1, 6]], None), ([[None]], None)]


def test_what_a_transaction_block_cannot_hold_runs_in_a_clone_of_its_own(pg_engine, pg_dsn):
    template = _template(pg_engine, pg_dsn)
    commits = _scenario("c", "CALL commits(7)", "SELECT count(*) FROM t")
    after = _scenario("a", "SELECT count(*) FROM t")
    runs = list(iter_runs(pg_engine, template, [commits, after, commits], shared=lambda sc: True, parallel=1))
    assert [_observed(r) for r in runs] == [
        [(None, None), ([[3]], None)],
        [([[2]], None)],
        [(None, None), ([[3]], None)],
    ]


def test_a_step_cancelled_by_the_timeout_does_not_end_a_shared_scenario(pg_engine, pg_dsn):
    template = _template(pg_engine, pg_dsn)
    sc = _scenario("t", "SELECT spin()", "SELECT count(*) FROM t")
    [run] = iter_runs(pg_engine, template, [sc], shared=lambda s: True, step_timeout_ms=200)
    assert run.observed["s0"].timed_out
    assert _observed(run)[1] == ([[2]], None)
    [alone] = iter_runs(pg_engine, template, [sc], step_timeout_ms=200)
    assert list(alone.observed) == ["s0"]  # a session of its own stops there
