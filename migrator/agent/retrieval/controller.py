"""The retrieval controller the agent loop asks once per attempt (`--retrieval bandit`, or one arm).

Per attempt: the context key (task family, failure class of the last verdict, progress so far,
attempt number, duration bucket, model, last arm) → an arm (LinUCB, or the fixed one) → the hits
that arm retrieves. After the attempt is judged: its reward, the progress it added (`reward`).
At the end of the episode: delayed credit with eligibility traces — decision i is credited
Σ_{t≥i} λ^{t−i} r_t (TD(λ) with γ = 1 over an episode whose rewards sum to at most 1), so an arm
that set up a later success gets part of it — then the bandit learns from every decision with its
credit, and an accepted repair (verified `correct`, G2 or better, not a held-out unit) becomes a
skill. Every decision is logged (arm, context key and its fingerprint, scores, reward, credit) and
the state is saved under `<knowledge base>/retrieval/` (snapshotted with the knowledge base).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from migrator.agent.retrieval import arms as arm_module
from migrator.agent.retrieval.linucb import ContextKey, LinUCB, duration_bucket, progress_bucket
from migrator.agent.retrieval.reward import attempt_reward, progress
from migrator.agent.retrieval.skills import SkillStore
from migrator.agent.retrieval.structure import extract_skill

RETRIEVAL_DIR = "retrieval"  # same name as knowledge_base.checkpoints.RETRIEVAL_DIR


@dataclass
class Decision:
    unit: str
    episode: int
    attempt: int
    arm: str
    key: dict[str, str]
    fingerprint: str
    scores: dict[str, float]
    shown: int  # hits the arm put in the prompt
    reward: float = 0.0
    credit: float = 0.0
    progress_after: float = 0.0


@dataclass
class _Episode:
    unit: str
    number: int
    best: float
    decisions: list[Decision] = field(default_factory=list)


class RetrievalController:
    """`mode`: "bandit" or "arm:<name>" (a fixed arm, logged the same way for comparison)."""

    def __init__(
        self,
        mode: str = "bandit",
        state_dir: Path | None = None,
        *,
        model: str = "",
        trace_lambda: float = 0.3,
        alpha: float = 0.4,
        held_out: frozenset[str] = frozenset(),
    ):
        if mode != "bandit" and not (mode.startswith("arm:") and mode[4:] in arm_module.ARMS):
            raise ValueError(
                f"retrieval {mode!r}: use 'bandit' or one of {', '.join('arm:' + a for a in arm_module.ARMS)}"
            )
        self.mode, self.state_dir, self.model, self.trace_lambda = mode, state_dir, model, trace_lambda
        self.held_out = held_out  # unit ids that never give a skill
        self.bandit = LinUCB(arm_module.ARMS, alpha=alpha)
        if state_dir is not None and (state_dir / "bandit.json").exists():
            self.bandit = LinUCB.from_json(json.loads((state_dir / "bandit.json").read_text(encoding="utf-8")))
        self.skills = SkillStore(state_dir / "skills.jsonl" if state_dir is not None else None)
        self.decisions: list[Decision] = []
        self.skill_log: list[dict[str, str]] = []
        self._current: _Episode | None = None
        self._episodes = 0

    @classmethod
    def for_kb(cls, mode: str, kb, **kw) -> RetrievalController:
        root = getattr(kb, "root", None)
        if root is None:
            root = getattr(getattr(kb, "kb", None), "root", None)  # the eval's SystemMemory wraps a KnowledgeBase
        return cls(mode, Path(root) / RETRIEVAL_DIR if root is not None else None, **kw)

    # -- the loop's calls ------------------------------------------------------------------------
    def begin(self, unit: str, judgement: Any) -> None:
        self._episodes += 1
        self._current = _Episode(unit, self._episodes, progress(judgement))

    def choose(
        self,
        kb,
        query,
        *,
        family: str,
        failure: str,
        attempt: int,
        seconds: float,
        source: str,
        candidate: str,
        constructs: tuple[str, ...],
    ):
        """(hits or None, the decision): the arm for this attempt and what it retrieved."""
        ep = self._current
        if ep is None:
            raise RuntimeError("choose() before begin()")
        last = ep.decisions[-1].arm if ep.decisions else ""
        key = ContextKey(family, failure, progress_bucket(ep.best), attempt, duration_bucket(seconds), self.model, last)
        if self.mode == "bandit":
            # an arm already tried in this episode without progress would fill the prompt with the
            # same context again: the controller moves on to one not tried yet (all tried: any)
            spent = tuple(d.arm for d in ep.decisions if d.reward <= 0)
            arm, scores = self.bandit.choose(key, tuple(a for a in self.bandit.arms if a not in spent) or None)
        else:
            arm, scores = self.mode[4:], {}
        hits = arm_module.retrieve(arm, kb, self.skills, arm_module.request(query, source, candidate, constructs))
        shown = len(hits.positives) + len(hits.negatives) if hits is not None else 0
        decision = Decision(ep.unit, ep.number, attempt, arm, key.fields(), key.fingerprint, scores, shown)
        ep.decisions.append(decision)
        return hits, decision

    def current_decisions(self) -> list[Decision]:
        return list(self._current.decisions) if self._current is not None else []

    def observe(self, decision: Decision, judgement: Any) -> float:
        """The attempt's reward: progress added over the best candidate before it."""
        ep = self._current
        after = progress(judgement)
        decision.progress_after = after
        decision.reward = attempt_reward(ep.best, after) if ep is not None else 0.0
        if ep is not None:
            ep.best = max(ep.best, after)
        return decision.reward

    def finish(self, item, episode, before: str, constructs: tuple[str, ...] = ()) -> None:
        """Delayed credit, learning, skill admission, persistence (module docstring)."""
        ep, self._current = self._current, None
        if ep is None:
            return
        rewards = [d.reward for d in ep.decisions]
        for i, decision in enumerate(ep.decisions):
            decision.credit = round(sum(self.trace_lambda ** (t - i) * r for t, r in enumerate(rewards) if t >= i), 6)
            if self.mode == "bandit":
                self.bandit.update(ContextKey.from_fields(decision.key), decision.arm, decision.credit)
        self.decisions += ep.decisions
        if episode.final == "correct" and episode.initial != "correct" and ep.decisions:
            skill = extract_skill(
                before,
                episode.final_text,
                constructs=constructs,
                failure_type=episode.attempts[0].failure_type if episode.attempts else "",
                task_id=item.id,
                task_group=item.group,
                tier=episode.final_tier,
            )
            held = item.id in self.held_out or (item.extra.get("reference") or "") in self.held_out
            self.skill_log.append({"unit": item.id, "skill": self.skills.admit(skill, held)})
        self.save()

    # -- state -----------------------------------------------------------------------------------
    def save(self) -> None:
        if self.state_dir is None:
            return
        self.state_dir.mkdir(parents=True, exist_ok=True)
        (self.state_dir / "bandit.json").write_text(json.dumps(self.bandit.to_json()), encoding="utf-8")
        with (self.state_dir / "decisions.jsonl").open("w", encoding="utf-8") as fh:
            for d in self.decisions:
                fh.write(json.dumps(asdict(d), sort_keys=True) + "\n")

    def summary(self) -> dict[str, Any]:
        counts: dict[str, int] = {}
        for d in self.decisions:
            counts[d.arm] = counts.get(d.arm, 0) + 1
        return {
            "mode": self.mode,
            "decisions": len(self.decisions),
            "arm_counts": counts,
            "skills": len(self.skills.skills),
            "reward": round(sum(d.reward for d in self.decisions), 6),
        }
