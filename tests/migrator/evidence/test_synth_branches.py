"""Inputs derived from the conditions that guard a branch (issue 33, item 5).

tests/migrator/evidence/branches holds what synthesis left unexecuted before: a trigger whose
raise path lies between the row's own salary and a cap 10 % above it (every other row's salary is
further away, so the updates it tried were all cuts or refused raises), and an `UPDATE OF dept_id`
trigger testing a column no row of the data holds a value in (a member of staff who left). Two
parameters compared with each other (`p_from_dept = p_to_dept`) are given one value as well.
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from migrator.evidence.candidates import _either_side
from migrator.evidence.synth import SynthOptions, synthesize
from migrator.evidence.targets import compared_params

SRC = Path(__file__).resolve().parent / "branches"


def test_parameters_compared_with_each_other_are_found():
    text = ("IF p_from = p_to THEN NULL; END IF; IF p_a<>p_b OR p_b != p_a OR p_c <= p_a OR p_a = 1 "
            "OR v_x = p_a OR p_a = p_a THEN NULL; END IF;")  # fmt: skip
    assert compared_params(text, ["P_FROM", "p_to", "p_a", "p_b", "p_c"]) == [
        ("p_from", "p_to"), ("p_a", "p_b"), ("p_c", "p_a")]  # fmt: skip


def test_a_number_moved_just_either_side_of_its_own_value_at_its_scale():
    assert _either_side(Decimal("6000")) == [Decimal("6060"), Decimal("5940")]
    assert _either_side(Decimal("12.50")) == [Decimal("12.62"), Decimal("12.38")]  # 1 % (0.125), at 2 places
    assert _either_side(Decimal("5")) == [Decimal("6"), Decimal("4")]  # 1 % of 5 rounds away: one unit
    assert _either_side(Decimal("0")) == [Decimal("1"), Decimal("-1")]


@pytest.mark.slow
def test_every_branch_of_the_fixture_is_executed(pg_engine):
    result = synthesize(SRC, SynthOptions(engine=pg_engine.admin_dsn(), progress=False))
    made = {t.target: t for t in result.targets if t.kept}
    assert set(made) == {"function.transfer_fee", "procedure.move_staff", "trigger.staff_salary_bu",
                         "trigger.staff_dept_bu"}  # fmt: skip
    for name, t in made.items():
        assert t.probes and t.covered == t.probes, (name, t.uncovered)
    # the same department on both sides, and a raise within the cap, are among the kept steps
    steps = [s.postgres for sc in result.scenarios.scenarios for s in sc.steps]
    assert any("p_from_dept => 10, p_to_dept => 10" in s for s in steps)
    assert any(s.startswith("UPDATE staff SET salary = 6060") for s in steps)
