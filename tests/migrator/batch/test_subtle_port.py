"""The converted `subtle` schema beside its trusted PostgreSQL port (fixtures/reference/subtle):
two scratch databases, the same calls in every form Oracle allows, the same results and errors.

`describe_item` has a default before an OUT parameter; `count_by_id` compares a VARCHAR2 bind
with a NUMBER column in dynamic SQL behind a WHEN OTHERS handler (issue 18).
"""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from harness.engines.postgres import scratch_database
from harness.ground_truth.trusted_port import deploy_port, port_statements
from harness.judge.deploy import deploy_units
from migrator.batch.output import PREAMBLE, preamble_sql
from migrator.batch.pipeline import MigrateOptions, migrate

ROOT = Path(__file__).resolve().parents[3]
DO = "DO $$ DECLARE t varchar(100) := 'stale'; n numeric := {id}; BEGIN {call}; RAISE NOTICE '%', t; END $$"
CALLS = [
    # describe_item(p_id, p_prefix DEFAULT 'item', p_text OUT): positional, named, default left out
    "CALL describe_item(1, 'box', NULL)",
    "CALL describe_item(1)",
    "CALL describe_item(p_id => 2, p_text => NULL)",
    "CALL describe_item(p_id => 2)",
    "CALL describe_item(2, NULL, NULL)",
    "CALL describe_item(2, '', NULL)",
    "CALL describe_item(99, 'x', NULL)",  # NO_DATA_FOUND
    DO.format(id=3, call="CALL describe_item(n, 'p', t)"),
    DO.format(id=3, call="CALL describe_item(n, p_text => t)"),
    DO.format(id=2, call="CALL describe_item(p_prefix => 'q', p_id => n, p_text => t)"),
    DO.format(id=2, call="CALL describe_item(p_text => t, p_id => n, p_prefix => '')"),
    # count_by_id(p_id VARCHAR2): the bind converts like Oracle's TO_NUMBER
    "SELECT count_by_id('1')",
    "SELECT count_by_id('2.5')",
    "SELECT count_by_id(' 3 ')",
    "SELECT count_by_id('1e0')",
    "SELECT count_by_id(NULL)",
    "SELECT count_by_id('')",
    "SELECT count_by_id('abc')",  # not a number: ORA-01722, caught
    "SELECT count_by_id(p_id => '2')",
]


def _outcome(dsn: str, statement: str):
    with psycopg.connect(dsn, autocommit=True) as conn:
        printed: list[str] = []
        conn.add_notice_handler(lambda d: printed.append(d.message_primary))
        try:
            cur = conn.execute(statement)
            return ("rows", cur.fetchall() if cur.description else None, printed)
        except psycopg.Error as exc:
            return ("error", exc.sqlstate, printed)


@pytest.fixture(scope="module")
def side_by_side(pg_engine, tmp_path_factory):
    out = tmp_path_factory.mktemp("subtle")
    report = migrate(ROOT / "fixtures" / "schemas" / "subtle", out, MigrateOptions(force=True, progress=False))
    with scratch_database(pg_engine, prefix="conv") as converted, scratch_database(pg_engine, prefix="port") as port:
        items = [(u.id, (out / u.output).read_text(), u.depends_on) for u in report.units]
        pre, outcomes = deploy_units(converted, (out / PREAMBLE).read_text(), items)
        assert pre.ok and [o.error for o in outcomes if not o.ok] == []
        pre, _ = deploy_units(port, preamble_sql("subtle", []), [])  # the port runs after the preamble
        not_deployed, _ = deploy_port(port, port_statements(ROOT / "fixtures" / "reference" / "subtle"))
        assert pre.ok and not_deployed == []
        yield {call: (_outcome(converted, call), _outcome(port, call)) for call in CALLS}


@pytest.mark.parametrize("call", CALLS)
def test_converted_behaves_like_the_trusted_port(side_by_side, call):
    converted, port = side_by_side[call]
    assert converted == port


def test_the_calls_reach_the_code_not_its_handlers(side_by_side):
    """What the port answers, spelled out: the defaults are there, and only a non-number fails."""
    assert side_by_side["CALL describe_item(1)"][0] == ("rows", [("item: apple\nbox",)], [])
    assert side_by_side["CALL describe_item(99, 'x', NULL)"][0] == ("error", "P0002", [])
    counts = {c: side_by_side[c][0][1][0][0] for c in CALLS if c.startswith("SELECT count_by_id")}
    assert list(counts.values()) == [1, 0, 1, 1, 0, 0, -1, 1]
