"""Held-out steps: one deterministic split, by hash, that every consumer shares."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.ground_truth.scenarios import Scenario, held_out, held_out_steps, load_scenarios

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "scenarios"


def _scenario(sid: str, names: list[str]) -> Scenario:
    steps = [{"name": n, "oracle": f"SELECT '{n}' FROM dual", "postgres": f"SELECT '{n}'"} for n in names]
    return Scenario.model_validate({"id": sid, "units": ["function:s.f"], "steps": steps})


def test_the_split_is_fixed_by_scenario_id_and_step_name():
    # Literal expectations: a change of the rule would silently change what prompts may quote.
    assert held_out_steps(_scenario("x", ["a", "b", "c"])) == {"b", "c"}
    assert held_out_steps(_scenario("tag.codes", [f"code_{c}" for c in "abcdef"])) == held_out_steps(
        _scenario("tag.codes", [f"code_{c}" for c in "fedcba"])
    )  # the order of the steps in the file does not matter
    assert held_out_steps(_scenario("other", ["a", "b", "c"])) != held_out_steps(_scenario("x", ["a", "b", "c"]))


def test_one_step_stays_visible_and_two_steps_hold_one_out():
    assert held_out_steps(_scenario("solo", ["only"])) == frozenset()
    for sid in ("p", "q", "r", "s", "t"):
        pair = _scenario(sid, ["first", "second"])
        assert len(held_out_steps(pair)) == 1
    for n in range(2, 9):
        scenario = _scenario(f"n{n}", [f"s{i}" for i in range(n)])
        held = held_out_steps(scenario)
        assert 1 <= len(held) < n
        assert {s.name for s in scenario.steps if held_out(scenario, s)} == held


@pytest.mark.parametrize("schema", ["hr_payroll", "banking", "inventory"])
def test_fixture_scenarios_keep_visible_and_held_out_steps(schema):
    scenarios = load_scenarios(FIXTURES / f"{schema}.yaml").scenarios
    total = held = 0
    for scenario in scenarios:
        names = held_out_steps(scenario)
        assert len(names) < len(scenario.steps)
        assert len(scenario.steps) < 2 or names
        total, held = total + len(scenario.steps), held + len(names)
    assert 0.2 < held / total < 0.5  # about one in three
