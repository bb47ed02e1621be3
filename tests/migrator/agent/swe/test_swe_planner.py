"""The phase planner and stuck detection as PMCoder specifies them: forward moves at once,
backward moves after 2 consecutive proposals, sub-tasks completed on evidence, the terminal one
only on grounded verification, backtracks after a 10-step floor with an 8-step cooldown."""

from __future__ import annotations

from migrator.agent.tasks.swe.planner import (
    BACKTRACK,
    SKELETON,
    PhasePlanner,
    PlannerConfig,
    detect_phase,
    parse_plan,
)
from migrator.agent.tasks.swe.stuck import StuckConfig, TrajectoryStats, stuck_signals


def test_forward_moves_take_effect_at_once_backward_moves_need_two_steps():
    p = PhasePlanner(list(SKELETON))
    assert p.phase == "reproduce"
    p.step("edit")  # forward, skipping localize: immediate
    assert p.phase == "edit"
    p.step("localize")  # backward: one proposal is noise
    assert p.phase == "edit"
    p.step("edit")  # the pending backward move is forgotten
    p.step("localize")
    assert p.phase == "edit"
    events = p.step("localize")  # the second consecutive proposal moves
    assert p.phase == "localize" and events == ["phase -> localize"]


def test_hysteresis_is_configurable():
    p = PhasePlanner(list(SKELETON), PlannerConfig(hysteresis=3))
    p.step("verify")
    p.step("edit")
    p.step("edit")
    assert p.phase == "verify"
    p.step("edit")
    assert p.phase == "edit"


def test_sub_tasks_complete_on_evidence_and_verify_only_on_grounded_verification():
    p = PhasePlanner(list(SKELETON))
    p.step("reproduce")  # evidence for the reproduce sub-task
    events = p.step("edit")  # past reproduce (done) and localize (no evidence: skipped)
    assert events == ["phase -> edit", "sub-task done: " + SKELETON[0][1], "sub-task skipped: " + SKELETON[1][1]]
    p.step("verify")
    assert p.active.phase == "verify"
    p.step("verify")
    assert p.active.phase == "verify" and p.active.status == "active"  # tests ran, but no grounded verdict
    assert p.verified() == ["sub-task done: " + SKELETON[3][1]]
    assert p.active is None and p.progress() == {"done": 3, "failed": 0, "open": 0}


def test_backtrack_floor_cooldown_recovery_and_depth():
    p = PhasePlanner(list(SKELETON))
    assert not p.can_backtrack(9)
    assert p.can_backtrack(10)
    events = p.backtrack(10, ["repeated action `read x` x8"], edited=False)
    assert p.phase == BACKTRACK and p.backtracks == 1
    assert events[1] == "sub-task failed: " + SKELETON[0][1]
    assert p.active.goal.startswith("Re-explore") and p.active.recovery
    assert not p.can_backtrack(17) and p.can_backtrack(18)
    p.backtrack(18, ["x"], edited=True)
    goals = [t.goal.split(":")[0] for t in reversed(p.stack)]
    assert goals[:2] == ["Re-explore", "Revert-then-refix"]
    p.step("localize")  # leaving BACKTRACK is immediate
    assert p.phase == "localize"
    deep = PhasePlanner(list(SKELETON), PlannerConfig(stack_depth=4))
    events = deep.backtrack(10, ["x"], edited=True)
    assert "goal stack full: no further recovery sub-task pushed" in events and len(deep.stack) == 4


def test_the_detector_orders_mutation_over_tests_over_reproduction_over_inspection():
    assert detect_phase("patch", False) == "edit"
    assert detect_phase("test", False) == "verify"
    assert detect_phase("reproduce", False) == "reproduce"
    assert detect_phase("reproduce", True) == "verify"  # after an edit, rerunning the script verifies
    assert detect_phase("search", True) == "localize"


def test_plan_parsing_falls_back_to_the_skeleton_and_always_ends_in_verify():
    plan, note = parse_plan(
        '```json\n[{"phase": "localize", "goal": "find it"}, {"phase": "edit", "goal": "fix"}]\n```'
    )
    assert plan == [("localize", "find it"), ("edit", "fix"), SKELETON[-1]] and note == "plan: 3 sub-tasks"
    plan, note = parse_plan("I would rather just start.")
    assert plan == list(SKELETON) and "skeleton" in note
    plan, note = parse_plan('[{"phase": "dance", "goal": "x"}]')
    assert plan == list(SKELETON) and "no usable" in note


def test_stuck_signals_and_their_thresholds():
    cfg = StuckConfig()
    stats = TrajectoryStats()
    for _ in range(7):
        stats.record("read a.py", "read", True, ("a.py",), False)
    assert stuck_signals(stats, 0, cfg) == []
    stats.record("read a.py", "read", True, ("a.py",), False)
    assert stuck_signals(stats, 0, cfg) == ["repeated action `read a.py` x8"]
    stats.restart()
    for i in range(5):
        stats.record(f"edit a.py {i}", "edit", False, (), False)
    assert stuck_signals(stats, 0, cfg) == ["5 failing actions in a row"]
    stats.restart()
    for i in range(6):
        stats.record(f"edit a.py {i}", "edit", True, ("a.py",), True)
    assert stuck_signals(stats, 0, cfg) == ["a.py edited 6 times"]
    stats.restart()
    for i in range(15):
        stats.record(f"read f{i}.py", "read", True, (f"f{i}.py",), False)
    assert stuck_signals(stats, 20, cfg) == [
        "15 inspections without an edit (no progress)",
        "20 steps on the active sub-task (budget 20)",
    ]


def test_a_failed_action_issued_again_is_counted():
    stats = TrajectoryStats()
    stats.record("test x", "test", False, (), False)
    stats.record("read y", "read", True, (), False)
    stats.record("test x", "test", False, (), False)
    assert stats.repeated_failures == 1
