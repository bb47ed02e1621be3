"""The SWE task on `migrator.agent`'s loop: items are instances, a step is one model call, and the
candidate the loop judges is a submitted patch.

Judging inside the episode is the agent's own, execution-grounded verification (reproduction +
the tests it can see). The instance's FAIL_TO_PASS/PASS_TO_PASS tests are never run here: they
are the held-out judge (`judge.py`), applied by the run after the episode, and nothing of their
outcome reaches the knowledge base — an experience's polarity and tier come from the grounded
verification only (G2: reproduction and tests pass by execution; G1: a patch that applies and
compiles; G0: nothing).
"""

from __future__ import annotations

import contextlib
import shutil
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from harness.judge.categories import Category
from harness.tasks.process_sandbox import SandboxUnavailable
from knowledge_base.records import Experience, Provenance
from migrator.agent.loop import Episode, Item
from migrator.agent.tasks.swe.environments import EnvBuildError, EnvOptions, ensure_env
from migrator.agent.tasks.swe.episode import AgentSettings, SweEpisode, SweJudgement, failure_type
from migrator.agent.tasks.swe.grounding import Reproduction
from migrator.agent.tasks.swe.instances import SweInstance
from migrator.agent.tasks.swe.repos import RepoError, find_clone, patch_files, resolve_commit, worktree
from migrator.agent.tasks.swe.tools import ToolLimits, Workspace


@dataclass(frozen=True)
class SweContext:
    repos_dir: Path
    work_dir: Path
    env: EnvOptions
    limits: ToolLimits
    repro_dir: Path | None = None


def offline_script(repro_dir: Path | None, instance_id: str) -> str | None:
    """`<dir>/<id>.py` or `<dir>/<id>/repro.py` (so `fixtures/swe/instances` works as a table)."""
    if repro_dir is None:
        return None
    for path in (repro_dir / f"{instance_id}.py", repro_dir / instance_id / "repro.py"):
        if path.is_file():
            return path.read_text(encoding="utf-8")
    return None


@contextlib.contextmanager
def open_episode(instance: SweInstance, ctx: SweContext, settings: AgentSettings) -> Iterator[SweEpisode]:
    """A worktree at the base commit, the repository's environment, and the reproduction table."""
    clone = find_clone(ctx.repos_dir, instance)
    base = resolve_commit(clone, instance.base_commit)
    env = ensure_env(instance, clone, ctx.env)
    folder = ctx.work_dir / "episodes" / f"{instance.instance_id}-{uuid.uuid4().hex[:8]}"
    try:
        with worktree(clone, base, folder, "tree") as tree:
            ws = Workspace(tree, base, env, folder / "scratch", folder / "private", ctx.limits)
            repro = Reproduction(ws, clone)
            script = offline_script(ctx.repro_dir, instance.instance_id)
            if script is not None:
                repro.offer(script, "offline")
            yield SweEpisode(instance, ws, repro, settings)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


class SweTask:
    name = "swe"

    def __init__(self, instances: list[SweInstance], ctx: SweContext, settings: AgentSettings, run_id: str):
        self.instances, self.ctx, self.settings, self.run_id = instances, ctx, settings, run_id
        self.episodes: dict[str, SweEpisode] = {}
        self.setup_errors: dict[str, str] = {}
        self.outcomes: dict[str, tuple[str, SweJudgement]] = {}

    def items(self) -> Iterator[Item]:
        for inst in self.instances:
            try:
                with open_episode(inst, self.ctx, self.settings) as episode:
                    self.episodes[inst.instance_id] = episode
                    yield Item(inst.instance_id, inst.instance_id, "", inst.problem_statement, {"repo": inst.repo})
            except (RepoError, EnvBuildError, SandboxUnavailable) as exc:
                self.setup_errors[inst.instance_id] = f"{type(exc).__name__}: {exc}"

    def _ep(self, item: Item) -> SweEpisode:
        return self.episodes[item.id]

    def judge(self, item: Item, candidate: str) -> SweJudgement:
        return self._ep(item).verify(candidate)

    def needs_repair(self, judgement: SweJudgement) -> bool:
        return judgement.category != Category.CORRECT

    def classify(self, item: Item, candidate: str, judgement: SweJudgement) -> str:
        ep = self._ep(item)
        latest = ep.turns[-1][1] if ep.turns else judgement.reason
        found = failure_type(latest)
        return found if found != "no failure seen yet" else ep.issue_type

    def query_text(self, item: Item, judgement: SweJudgement) -> str:
        ep = self._ep(item)
        active = ep.planner.active.goal if ep.planner and ep.planner.active else ""
        files = " ".join(f"file:{f}" for f, _ in ep.stats.most_touched())
        return f"{ep.phase or ''} {active}\n{item.source[:1500]}\n{files}".strip()

    def prompt(self, item: Item, candidate: str, judgement: SweJudgement, failure_type: str, hits, strategy: str):
        return self._ep(item).messages(hits)

    def act(self, item: Item, answer: str) -> tuple[str | None, str]:
        return self._ep(item).act(answer)

    def extract(self, answer: str) -> str | None:
        return None  # never called: `act` reads the answer against the instance's workspace

    def commit(self, item: Item, final: str, judgement: SweJudgement) -> None:
        self.outcomes[item.id] = (final, judgement)

    def experience(self, item: Item, episode: Episode, position: int) -> Experience:
        ep = self._ep(item)
        positive = episode.final == Category.CORRECT and episode.initial != Category.CORRECT
        files = patch_files(episode.final_text) or [f for f, _ in ep.stats.most_touched()]
        diagnosis = next((r.action for r in reversed(ep.records) if r.edited), "")
        thought = _last_thought(ep)
        return Experience(
            polarity="+" if positive else "-",
            failure_type=ep.issue_type,
            constructs=tuple(f"file:{f}" for f in files),
            strategy=self.settings.arm,
            context=f"{item.id} ({item.extra['repo']}): {episode.initial} -> {episode.final}\n"
            f"Issue: {item.source[:1200]}\nLast change: {diagnosis}\nReasoning: {thought[:600]}\n"
            f"Outcome: {episode.final_reason[:400]}",
            output=episode.final_text[:6000],
            tier=episode.final_tier,
            provenance=Provenance(
                episode_id=f"{self.run_id}:{item.id}",
                stream_position=position,
                task_id=item.id,
                task_group=item.group,
                reference_target_id=item.extra.get("reference"),
                finalized=True,
            ),
        )


def _last_thought(ep: SweEpisode) -> str:
    """The model's reasoning before its last change: the diagnosis an experience carries on."""
    for (answer, _), record in zip(reversed(ep.turns), reversed(ep.records)):
        if record.edited:
            return answer.split("ACTION:", 1)[0].strip()
    return ""
