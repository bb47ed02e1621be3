"""The retrieval controller's parts, without a database: LinUCB, the context key, the reward,
delayed credit, AST skills and their admission, and the arm-sensitive / arm-blind test models."""

from __future__ import annotations

import random
from types import SimpleNamespace

import pytest

from migrator.agent.models.base import Message
from migrator.agent.models.scripted import SkillModel, _SkillFile
from migrator.agent.retrieval.controller import RetrievalController
from migrator.agent.retrieval.linucb import ContextKey, LinUCB
from migrator.agent.retrieval.reward import progress
from migrator.agent.retrieval.skills import SkillStore
from migrator.agent.retrieval.structure import extract_skill, node_kinds, similarity


def _key(family: str, attempt: int = 1, last: str = "") -> ContextKey:
    return ContextKey(family, "wrong rows", "0.4", attempt, "fast", "m", last)


def test_linucb_learns_which_arm_pays_in_which_context():
    best = {"fam-a": "failure", "fam-b": "structure", "fam-c": "skill"}
    bandit, rng = LinUCB(("none", "failure", "structure", "skill", "mix")), random.Random(7)
    for _ in range(300):
        family = rng.choice(sorted(best))
        arm, _ = bandit.choose(_key(family))
        bandit.update(_key(family), arm, 1.0 if arm == best[family] else 0.0)
    assert {f: bandit.choose(_key(f))[0] for f in best} == best
    # the rewarded arms were pulled far more often than the others
    assert sum(bandit.pulls[a] for a in best.values()) > 0.8 * 300


def test_context_key_fingerprint_is_deterministic_and_state_round_trips():
    key = _key("plsql:NVL")
    assert key.fingerprint == _key("plsql:NVL").fingerprint != _key("plsql:SUBSTR").fingerprint
    bandit = LinUCB(("none", "failure"))
    bandit.update(key, "failure", 1.0)
    again = LinUCB.from_json(bandit.to_json())
    assert again.scores(key) == bandit.scores(key) and again.pulls == bandit.pulls


def _verdict(**kw):
    base = {"references": "resolved by pglast", "steps": 4, "steps_agreeing": 0, "coverage_percent": None}
    return SimpleNamespace(**{**base, **kw})


def _judgement(category, parsed=True, **kw):
    return SimpleNamespace(category=category, parsed=parsed, judged=SimpleNamespace(verdict=_verdict(**kw)))


def test_reward_follows_verification_progress_and_only_correct_reaches_one():
    ladder = [
        progress(None),
        progress(_judgement("rejected", parsed=False)),
        progress(_judgement("rejected")),
        progress(_judgement("wrong", references="missing (resolved by pglast): f")),
        progress(_judgement("wrong")),
        progress(_judgement("wrong", steps_agreeing=3)),
        progress(_judgement("wrong", steps_agreeing=4, coverage_percent=80.0)),
        progress(_judgement("correct", steps_agreeing=4, coverage_percent=100.0)),
    ]
    assert ladder == sorted(ladder) and ladder[0] == 0.0 and ladder[-1] == 1.0
    assert all(0.0 <= x <= 0.95 for x in ladder[:-1])


class _Kb:
    root = None

    def retrieve(self, query):  # pragma: no cover - the "none" arm never asks
        raise AssertionError("no retrieval expected")


def test_delayed_credit_gives_an_earlier_arm_part_of_a_later_success(tmp_path):
    ctl = RetrievalController("arm:none", tmp_path / "retrieval", trace_lambda=0.5)
    ctl.begin("u1", _judgement("wrong"))
    decisions = []
    for n, outcome in ((1, _judgement("wrong")), (2, _judgement("correct"))):
        _, d = ctl.choose(
            _Kb(),
            None,
            family="f",
            failure="wrong rows",
            attempt=n,
            seconds=0.1,
            source="",
            candidate="",
            constructs=(),
        )
        ctl.observe(d, outcome)
        decisions.append(d)
    item = SimpleNamespace(id="u1", group="g", extra={})
    episode = SimpleNamespace(final="correct", initial="wrong", final_text="x", attempts=[], final_tier="G1")
    ctl.finish(item, episode, "y")
    first, second = decisions
    assert first.reward == 0.0 and second.reward == pytest.approx(0.5)  # progress 0.5 -> 1.0
    assert second.credit == pytest.approx(0.5) and first.credit == pytest.approx(0.25)  # λ = 0.5
    assert (tmp_path / "retrieval" / "decisions.jsonl").read_text().count("\n") == 2


BEFORE = """CREATE FUNCTION f(a integer) RETURNS integer LANGUAGE plpgsql AS $$
BEGIN
  RETURN nvl(a, 0);
END $$;"""
AFTER = BEFORE.replace("nvl(a, 0)", "coalesce(a, 0)")


def test_skills_come_from_the_changed_subtree_and_match_by_structure():
    kinds = node_kinds(BEFORE)
    assert kinds["PLpgSQL_stmt_return"] == 1 and kinds["call:nvl"] == 1  # pglast's PL/pgSQL tree
    skill = extract_skill(
        BEFORE, AFTER, constructs=("NVL",), failure_type="undefined function", task_id="u", task_group="g", tier="G2"
    )
    assert skill is not None and "call:nvl" in skill.key and "CoalesceExpr" in skill.key
    assert "nvl(a, 0)" in skill.before and "coalesce(a, 0)" in skill.after
    store = SkillStore()
    assert store.admit(skill, held_out=False) == "admitted"
    other = BEFORE.replace("f(a", "g(a").replace("nvl(a, 0)", "nvl(a, 1) + 1")
    assert [s for _, s, _ in store.match(node_kinds(other), ("NVL",), "other-group", 3)] == [skill]
    assert store.match(node_kinds(other), ("NVL",), "g", 3) == []  # never a skill of the unit's own group
    assert similarity(node_kinds(BEFORE), node_kinds(BEFORE)) == 1.0


def test_skills_are_admitted_only_from_verified_repairs_of_units_that_are_not_held_out():
    make = lambda tier: extract_skill(  # noqa: E731
        BEFORE, AFTER, constructs=("NVL",), failure_type="x", task_id="u", task_group="g", tier=tier
    )
    store = SkillStore()
    assert store.admit(make("G1"), held_out=False).startswith("tier G1")
    assert store.admit(make("G2"), held_out=True).startswith("held-out")
    assert store.admit(make("G3"), held_out=False) == "admitted" and len(store.skills) == 1
    assert extract_skill(BEFORE, BEFORE, constructs=(), failure_type="", task_id="", task_group="", tier="G2") is None


def _block(via: str | None, text: str = "constructs=NVL") -> str:
    tag = f" via={via}" if via else ""
    return f"<<<memory id=3 kind=experience polarity=+{tag} (verified); untrusted text>>>\n{text}\n<<<end memory 3>>>"


def _model(memory: str, context: str) -> SkillModel:
    spec = _SkillFile.model_validate(
        {
            "memory": memory,
            "context": context,
            "answers": "unused",
            "skills": [
                {"name": "nvl", "units": r"\.nvl_", "evidence": r"constructs=[^\n]*\bNVL\b", "via": "structure"}
            ],
        }
    )
    return SkillModel(spec, {"function:s.nvl_3": "SELECT 1"}, name="t")


@pytest.mark.parametrize(
    "blocks, sensitive, blind",
    [
        ([], False, True),
        ([_block("failure")], False, True),
        ([_block("structure")], True, True),
        ([_block("structure"), _block("skill", "constructs=SUBSTR")], False, True),  # confused by another arm
        ([_block(None)], False, True),  # the fixed retrieval's block names no arm
    ],
)
def test_arm_sensitive_model_needs_its_arm_and_nothing_else_while_the_blind_one_does_not_care(blocks, sensitive, blind):
    prompt = "# Unit function:s.nvl_3\n\n" + "\n\n".join(blocks)
    for model, expected in ((_model("required", "exclusive"), sensitive), (_model("ignored", "any"), blind)):
        answer = model.complete([Message("user", prompt)]).text
        assert ("SELECT 1" in answer) is expected, (model.spec.memory, model.decisions[-1])


class _EmptyKb:
    root = None

    def retrieve(self, query):
        from migrator.agent.retrieval.arms import _result

        return _result(query, [], "test")


def test_the_controller_moves_on_from_an_arm_that_brought_no_progress_in_this_episode():
    from knowledge_base.records import RetrievalQuery

    ctl = RetrievalController("bandit", None)
    ctl.begin("u", _judgement("wrong"))
    arms = []
    for n in range(1, 6):
        _, d = ctl.choose(
            _EmptyKb(),
            RetrievalQuery(text="q"),
            family="f",
            failure="wrong rows",
            attempt=n,
            seconds=0.1,
            source="",
            candidate="",
            constructs=(),
        )
        ctl.observe(d, _judgement("wrong"))
        arms.append(d.arm)
    assert sorted(arms) == sorted(("none", "failure", "structure", "skill", "mix"))  # five attempts, five arms


def test_the_controller_state_lives_with_the_knowledge_base_and_is_snapshotted(tmp_path):
    from knowledge_base import KnowledgeBase
    from knowledge_base.checkpoints import create_snapshot
    from knowledge_base.embedders import HashingEmbedder

    with KnowledgeBase(tmp_path / "kb", embedder=HashingEmbedder()) as kb:
        ctl = RetrievalController.for_kb("bandit", kb)
        ctl.bandit.update(_key("f"), "skill", 1.0)
        ctl.save()
        snap = create_snapshot(kb, "ck01")
    assert (snap / "retrieval" / "bandit.json").exists()
    again = RetrievalController.for_kb("bandit", SimpleNamespace(root=tmp_path / "kb"))
    assert again.bandit.pulls["skill"] == 1  # a later run continues from the saved state
