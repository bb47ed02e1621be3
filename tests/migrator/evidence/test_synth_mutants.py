"""Synthesized scenarios catch the mutants that need a derivation beyond one call per branch.

tests/migrator/evidence/crew is a small schema whose units each need one: a tree walk whose
order shows only with several roots (a self-referencing column set NULL), a DEFAULT that shows
only for a team with a leaver (kept calls made without their defaulted parameters), a parameter
that decides only when another one is NULL (calls one parameter away from a kept call, varying
another parameter), a LENGTH boundary (texts as long as the body's numbers and one longer), a
view's NVL (the column set NULL), a limit beyond the export's rows (the data copied once), a
trigger's bound per kind (the neighbours of its numbers, with each kind), the SUM of a group
emptied (every row of one foreign key value deleted), a cutoff months before SYSDATE (the dates
moved back by the body's numbers, a day either side), a clamp at 100 (a number column set to a
large value, kept for its new result). Scenarios are synthesized from the Oracle source, recorded on
the migration's own output (the trusted port), and each unit's mutants (harness.judge_quality.mutation) are
judged with them on a real PostgreSQL, as benchmarks/mutation_harness.py --synth does.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.migrator.evidence.synth_judging import caught, judge_schema

SRC = Path(__file__).resolve().parent / "crew"


@pytest.fixture(scope="module")
def judged(pg_engine, tmp_path_factory):
    return judge_schema(pg_engine, SRC, "crew", tmp_path_factory.mktemp("crew"))


@pytest.mark.parametrize(
    ("unit", "pick"),
    [
        # every sort of the walk reversed, the roots' (ORDER SIBLINGS BY in the anchor) among them
        ("procedure:crew.print_crew_tree", lambda m: m.operator == "order_by"),
        ("function:crew.team_size", lambda m: m.operator == "constant" and "DEFAULT (0 + 1)" in m.text),
        ("function:crew.crew_label", lambda m: m.operator == "comparison" and "p_status <> 'S'" in m.text),
        ("function:crew.short_code", lambda m: m.operator == "constant" and "<= (6 + 1)" in m.text),
        ("view:crew.v_crew_bonus", lambda m: m.operator == "constant"),
        # a limit beyond the export's rows: the data copied once first
        ("function:crew.first_crew", lambda m: m.operator == "constant" and "DEFAULT (4 + 1)" in m.text),
        # the neighbours of the bounds, with each kind (the CASE's ELSE too)
        (
            "trigger:crew.shifts_bi",
            lambda m: m.operator == "constant" and ("<= (0 + 1)" in m.text or "> (8 + 1)" in m.text),
        ),
        # every shift of one crew member deleted: the SUM of nothing
        ("trigger:crew.shifts_total_trg", lambda m: m.operator == "constant" and "SUM(s.hours), (0 + 1))" in m.text),
        # a bound the export's rows stay below: a number column set to a large value first
        ("function:crew.load_pct", lambda m: m.operator == "constant" and "(100 + 1)) END" in m.text),
        # the dates either side of SYSDATE moved back by the default's months
        ("procedure:crew.close_stale_postings", lambda m: m.operator == "constant" and "DEFAULT (6 + 1)" in m.text),
    ],
)
def test_the_mutant_is_caught(pg_engine, judged, unit, pick):
    results = caught(pg_engine, judged, unit, pick)
    assert all(caught for _d, caught in results), results


def test_a_text_read_as_a_number_is_tried_with_a_decimal_comma(judged):
    _report, _base, _preamble, scenarios, _transcript = judged
    steps = [st.postgres for sc in scenarios.scenarios if "function:crew.read_amount" in sc.units for st in sc.steps]
    assert any("'1,5'" in s for s in steps), steps


def test_the_hierarchy_is_flattened_by_a_data_change_before_the_call(judged):
    _report, _base, _preamble, scenarios, _transcript = judged
    setups = [st.postgres for sc in scenarios.scenarios if "procedure:crew.print_crew_tree" in sc.units
              for st in sc.setup]  # fmt: skip
    assert "UPDATE crew SET lead_id = NULL" in setups


def test_a_column_written_at_random_is_left_out_of_its_check(judged):
    """A call that writes kept from its run during the selection and one more run: the column
    whose values differ between the two (DBMS_RANDOM) is not compared, the others are."""
    report, _base, _preamble, scenarios, _transcript = judged
    checks = [st.postgres for sc in scenarios.scenarios if "procedure:crew.log_visit" in sc.units
              for st in sc.steps if st.name.startswith("after_")]  # fmt: skip
    # (a call that inserts nothing, p_crew_id NULL refused, leaves the table as it was: read in full)
    assert "SELECT crew_id FROM visits" in checks and not any("token" in c for c in checks), checks
    assert {u.id: u.category for u in report.units}["procedure:crew.log_visit"] == "correct"
