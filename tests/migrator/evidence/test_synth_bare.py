"""A DDL-only export (tests/migrator/evidence/bare: tables, a sequence, a function that reads
them, a trigger; not one row): synthesis makes rows for its tables and puts them in the setup of
every scenario, so the function's lookups find something and the trigger has rows to fire on.
Before, every lookup ended in NO_DATA_FOUND and the trigger had no step at all ("no data to fire
it with"). Judged as in test_synth_ledger.py, on a real PostgreSQL.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from migrator.evidence.seed_rows import Seed, seed_empty_tables
from tests.migrator.evidence.synth_judging import caught, data_view, judge_schema

SRC = Path(__file__).resolve().parent / "bare"


@pytest.fixture(scope="module")
def judged(pg_engine, tmp_path_factory):
    return judge_schema(pg_engine, SRC, "bare", tmp_path_factory.mktemp("bare"))


def test_every_scenario_sets_up_rows_that_fit_the_oracle_columns(judged):
    _report, _base, _preamble, scenarios, _transcript = judged
    assert scenarios.scenarios and all(sc.setup for sc in scenarios.scenarios)
    # (both targets reach both tables: the function reads them, the trigger's table needs its parent)
    seed = scenarios.scenarios[0].setup[0]
    assert all(sc.setup[0] == seed for sc in scenarios.scenarios)
    ora, pg = seed.oracle.splitlines(), seed.postgres.split(";\n")
    assert ora[0] == "BEGIN" and ora[-1] == "END;" and len(ora) == 2 + len(pg) == 8
    # parents first; a NUMBER(4) key within 9999 (PostgreSQL's smallint would take more); the
    # CHECK's literals; a self-reference to the first row; a CHAR(2) unique code
    assert pg[0] == "INSERT INTO teams (team_id, code, status, parent_id) VALUES (9997, 'C1', 'ACTIVE', NULL)"
    assert pg[1] == "INSERT INTO teams (team_id, code, status, parent_id) VALUES (9998, 'C2', 'PAUSED', 9997)"
    # a child row takes a parent's key; numeric keys far from where a sequence starts; the last
    # row leaves a nullable column NULL
    assert pg[3].startswith("INSERT INTO members (member_id, team_id, points, joined_on) VALUES (900001, 9997, 10, ")
    assert "(900003, 9999, NULL, " in pg[5]
    assert "TO_DATE('2024-01-15 00:00:00', 'YYYY-MM-DD HH24:MI:SS')" in ora[4]


def test_the_units_are_judged_and_the_mutants_that_need_rows_are_caught(pg_engine, judged):
    report = judged[0]
    categories = {u.id: u.category for u in report.units}
    assert categories["function:bare.team_points"] == "correct"
    assert categories["trigger:bare.members_bi"] == "correct"
    # NVL(SUM(points), 0) * 2 made * 3: needs a team whose members have points
    assert all(c for _d, c in caught(pg_engine, judged, "function:bare.team_points",
                                     lambda m: m.operator == "constant" and "* (2 + 1)" in m.text))  # fmt: skip
    # NVL(:NEW.points, 5) made 6: a row inserted without points
    assert all(c for _d, c in caught(pg_engine, judged, "trigger:bare.members_bi",
                                     lambda m: m.operator == "constant" and "(5 + 1)" in m.text))  # fmt: skip


def test_a_scenario_holds_the_rows_of_the_tables_its_code_reaches_and_their_parents():
    seed = Seed(
        {},
        {},
        {t: ([f"ora {t}"], [f"pg {t}"]) for t in ("teams", "members", "other")},
        {"members": {"teams"}, "teams": set(), "other": set()},
    )
    assert seed.statement({"members"}).postgres == "pg teams;\npg members"
    assert seed.statement({"other"}).oracle == "BEGIN\n    ora other;\nEND;"
    assert seed.statement(None).postgres == "pg teams;\npg members;\npg other"
    assert seed.statement(set()) is None


def test_an_export_with_data_keeps_its_empty_tables_empty():
    """An empty table beside tables with rows is a fact of the source (an audit log): no rows are
    made up for it (and no database is touched)."""
    view = data_view({"teams": [{"team_id": 1, "code": "C1"}], "members": []})
    view.rows["members"] = []
    seed = seed_empty_tables("postgresql://unused", "bare", view)
    assert seed.statement() is None and not seed.rows and not seed.refused
