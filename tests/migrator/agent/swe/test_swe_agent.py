"""The PMCoder agent end to end on the shipped instances with scripted models: phases change as
specified, stuck detection fires on a looping model, memory from an earlier instance reaches a
later similar one, and a fix the reproduction contradicts is not counted."""

from __future__ import annotations

import re

from knowledge_base.store import KnowledgeBase
from migrator.agent.models import ScriptedModel, ScriptRule, load_script
from migrator.agent.tasks.swe.run import run_swe
from tests.migrator.agent.swe.swe_agent_support import (
    gold_patch,
    plan_rule,
    prompts_of,
    reproduce,
    run_config,
    steps_rule,
    trajectory,
    use_model,
)
from tests.swe_fixtures import SWE_FIXTURES

L4 = "swefix__ledger-4"


def test_the_planner_changes_phase_as_specified(tmp_path, monkeypatch, swe_repos, swe_env_options, swe_isolation):
    answers = [
        reproduce(L4),
        'ACTION: search "def split"',
        "ACTION: read ledger/money.py",
        gold_patch(L4),
        "ACTION: read ledger/money.py",  # one backward proposal: noise, the phase stays
        "ACTION: test tests/test_money.py",
        "ACTION: read ledger/money.py",
        "ACTION: read ledger/money.py",  # the second consecutive one moves back
        "ACTION: submit",
    ]
    model = ScriptedModel([plan_rule(L4), steps_rule(L4, answers)])
    use_model(monkeypatch, model)
    cfg = run_config(tmp_path, swe_repos, swe_env_options, swe_isolation, ids=(L4,), memory=False)
    report = run_swe(cfg)
    steps = trajectory(cfg, L4)["steps"]
    assert [s["phase"] for s in steps] == [
        "reproduce",
        "localize",
        "localize",
        "edit",
        "edit",
        "verify",
        "verify",
        "localize",
        "verify",
    ]
    assert [s["step"] for s in steps] == list(range(2, 11))  # step 1 was the planning call
    assert steps[1]["events"] == ["phase -> localize", "sub-task done: reproduce the issue"]
    assert steps[3]["events"] == ["phase -> edit", "sub-task done: find the cause"]
    assert steps[5]["events"] == ["phase -> verify", "sub-task done: fix it"]
    assert steps[7]["events"] == ["phase -> localize"]
    assert [t["status"] for t in trajectory(cfg, L4)["subtasks"]] == ["done"] * 4  # verify: by grounded verification
    # The plan state reaches the model in the block appended to the latest tool result.
    assert any("⟦PLANMEM⟧\nplan: phase EDIT" in p for p in prompts_of(model, L4))
    record = report.instances[0]
    assert (record.agent, record.grounded, record.judge_status, record.calls) == ("correct", True, "resolved", 10)


def test_stuck_detection_fires_on_a_looping_model(tmp_path, monkeypatch, swe_repos, swe_env_options, swe_isolation):
    model = load_script(SWE_FIXTURES / "models" / "looping.yaml")
    use_model(monkeypatch, model)
    cfg = run_config(tmp_path, swe_repos, swe_env_options, swe_isolation, ids=(L4,), memory=False, max_steps=30)
    report = run_swe(cfg)
    traj = trajectory(cfg, L4)
    assert "skeleton" in traj["plan"]  # the looping answer is no plan
    fired = {s["step"]: s["stuck"] for s in traj["steps"] if s["stuck"]}
    # Floor 10, cooldown 8, counts restart after each backtrack.
    assert fired == {
        10: ["repeated action `read README.md` x9"],
        18: ["repeated action `read README.md` x8"],
        26: ["repeated action `read README.md` x8"],
    }
    assert traj["backtracks"] == 3
    goals = [t["goal"] for t in traj["subtasks"] if t["recovery"]]
    assert goals and all(g.startswith("Re-explore") for g in goals)
    after = next(p for p in prompts_of(model, L4) if "STUCK:" in p)  # the signal and the recovery reach the model
    assert after.startswith("[instance swefix__ledger-4 · step 11 of 30 · phase BACKTRACK]")
    assert "STUCK: repeated action `read README.md` x9" in after and "active sub-task: Re-explore" in after
    record = report.instances[0]
    assert (record.backtracks, record.stuck_signals, record.model_patch, record.calls) == (3, 3, "", 30)
    assert report.signatures["empty_patch_exits"] == 1

    baseline = run_config(
        tmp_path / "b", swe_repos, swe_env_options, swe_isolation, ids=(L4,), planner=False, memory=False, max_steps=30
    )
    use_model(monkeypatch, load_script(SWE_FIXTURES / "models" / "looping.yaml"))
    assert run_swe(baseline).signatures["backtracks"] == 0  # stuck detection belongs to the planner


def _memory_model() -> ScriptedModel:
    ledger2 = [
        reproduce("swefix__ledger-2"),
        "ACTION: read ledger/money.py",
        gold_patch("swefix__ledger-2"),
        "ACTION: test",
        "ACTION: submit",
    ]
    ledger1 = [reproduce("swefix__ledger-1"), gold_patch("swefix__ledger-1"), "ACTION: submit"]
    ledger4 = [reproduce(L4), "ACTION: read ledger/money.py", "ACTION: test", "ACTION: submit"]
    # ledger-4 is fixed only by a model that was shown ledger-2's verified experience.
    recalled = r"(?s)\[instance swefix__ledger-4 ·.*<<<memory id=\d+ kind=experience polarity=\+.*swefix__ledger-2 "
    return ScriptedModel(
        [
            ScriptRule(recalled, [gold_patch(L4)], regex=True),
            steps_rule("swefix__ledger-1", ledger1),
            steps_rule("swefix__ledger-2", ledger2),
            steps_rule(L4, ledger4),
        ]
    )


def test_memory_from_an_earlier_instance_is_retrieved_for_a_later_similar_one(
    tmp_path, monkeypatch, swe_repos, swe_env_options, swe_isolation
):
    ids = ("swefix__ledger-1", "swefix__ledger-2", L4)
    model = _memory_model()
    use_model(monkeypatch, model)
    cfg = run_config(tmp_path, swe_repos, swe_env_options, swe_isolation, ids=ids, planner=False)
    report = run_swe(cfg)
    by_id = {r.instance_id: r for r in report.instances}
    assert [by_id[i].judge_status for i in ids] == ["resolved"] * 3
    exp = {i: by_id[i].experience_id for i in ids}
    shown = [int(m) for p in prompts_of(model, L4) for m in re.findall(r"<<<memory id=(\d+)", p)]
    assert shown[0] == exp["swefix__ledger-2"]  # the same file (money.py) ranks first ...
    assert exp[L4] not in shown  # ... and an episode never recalls itself
    with KnowledgeBase(cfg.out / "kb") as kb:
        assert kb.get(exp["swefix__ledger-2"]).record.polarity == "+"
        assert "file:ledger/money.py" in kb.get(exp["swefix__ledger-2"]).record.constructs

    off = run_config(tmp_path / "off", swe_repos, swe_env_options, swe_isolation, ids=ids, planner=False, memory=False)
    model = _memory_model()
    use_model(monkeypatch, model)
    report = run_swe(off)
    assert {r.instance_id: r.judge_status for r in report.instances}[L4] == "empty patch"
    assert not any("<<<memory" in p for p in prompts_of(model, L4))
    assert not (off.out / "kb").exists()  # a memory-off arm neither reads nor writes experience


def test_a_fix_that_passes_the_tests_but_not_the_reproduction_is_not_counted(
    tmp_path, monkeypatch, swe_repos, swe_env_options, swe_isolation
):
    # Rounds the shares half-even instead of distributing the lost cents: the visible tests still
    # pass, the reproduction (100 split 3 ways adds up to 100) still fails.
    plausible = (
        "Rounding is the problem.\nACTION: edit ledger/money.py\n<<<<<<< SEARCH\n"
        "        share = (self.amount / parts).quantize(CENT, rounding=ROUND_DOWN)\n=======\n"
        "        share = (self.amount / parts).quantize(CENT, rounding=ROUND_HALF_EVEN)\n>>>>>>> REPLACE\n"
    )
    answers = [reproduce(L4), plausible, "ACTION: test tests/test_money.py", "ACTION: submit"]
    model = ScriptedModel([plan_rule(L4), steps_rule(L4, answers)])
    use_model(monkeypatch, model)
    cfg = run_config(tmp_path, swe_repos, swe_env_options, swe_isolation, ids=(L4,), max_steps=8)
    report = run_swe(cfg)
    record = report.instances[0]
    traj = trajectory(cfg, L4)
    first = traj["verifications"][0]
    assert (first["category"], first["grounded"], first["tests_ok"]) == ("wrong", False, True)
    assert record.agent == "wrong" and record.grounded is False
    assert "not counted as a fix" in record.agent_reason
    assert record.calls == 8  # the episode went on after the refused submit
    assert any("not counted as a fix" in p for p in prompts_of(model, L4))
    assert record.judge_status == "unresolved"
    with KnowledgeBase(cfg.out / "kb") as kb:
        experience = kb.get(record.experience_id).record
        assert experience.polarity == "-" and experience.tier == "G1"
