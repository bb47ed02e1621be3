"""SWE-bench-format issues on `migrator eval` (PMCoder's task): instances judged by their own tests
(FAIL_TO_PASS and PASS_TO_PASS, in a sandbox), repaired by the PMCoder agent on the shared loop.

The reference of an instance is its gold patch (normalised text). There is no initial prediction:
the shared starting point is the empty patch (the do-nothing row), M1 is the issue text as a patch
(never applies), M2 the gold patch of the most similar training issue (TF-IDF over the problem
statements), M3 a random training gold patch. A test verdict is resolved by construction (the
tests ran), so every correct count here is a resolved one.
"""

from __future__ import annotations

import random
import uuid
from pathlib import Path

from harness.tasks.process_sandbox import resolve_isolation
from harness.tasks.pytest_runs import RunLimits
from migrator.agent.loop import AgentConfig, ModelState, run_episode, stream_position
from migrator.agent.tasks.swe.environments import EnvOptions
from migrator.agent.tasks.swe.episode import AgentSettings
from migrator.agent.tasks.swe.instances import load_instances
from migrator.agent.tasks.swe.judge import JudgeContext, judge_patch
from migrator.agent.tasks.swe.task import SweContext, SweTask
from migrator.agent.tasks.swe.tools import ToolLimits
from migrator.errors import MigratorError
from migrator.eval.adapters.base import RunSpec, UnitResult
from migrator.eval.config import EvalConfig, SweData
from migrator.eval.split import EvalUnit, text_key


class SweAdapter:
    name = "swe"
    initial_label = "initial"

    def __init__(self, cfg: EvalConfig, out: Path):
        data = cfg.data
        assert isinstance(data, SweData)
        self.cfg, self.data = cfg, data
        instances, errors = load_instances(data.instances)
        if not instances:
            raise MigratorError(f"{data.instances}: no readable instance ({errors[0] if errors else 'empty'})")
        self.instances = {i.instance_id: i for i in instances}
        try:
            isolation, _ = resolve_isolation(data.isolation)
        except Exception as exc:  # SandboxUnavailable or an unknown mode: a usage problem here
            raise MigratorError(f"isolation {data.isolation!r}: {exc}") from None
        env = EnvOptions(
            cache_dir=data.env_cache or out / "envs", offline=data.offline, seed=data.seed, isolation=isolation
        )
        work = out / "swe-work"
        limits = ToolLimits(data.per_test_timeout_s, isolation=isolation)
        self.context = SweContext(data.repos, work, env, limits, data.repro_dir)
        self.judge_ctx = JudgeContext(data.repos, work, env, RunLimits(data.per_test_timeout_s, isolation=isolation))

    def close(self) -> None:
        pass

    def eval_units(self) -> list[EvalUnit]:
        return [
            EvalUnit(
                i.instance_id,
                i.problem_statement,
                (text_key(i.patch) if i.patch else f"reference:{i.instance_id}",),
                i.patch or None,
            )
            for i in self.instances.values()
        ]

    def initial(self) -> dict[str, str]:
        return {uid: "" for uid in self.instances}  # no initial prediction: the empty patch

    def stream(self, seed: int) -> list[str]:
        order = list(self.instances)
        random.Random(seed).shuffle(order)
        return order

    def run(self, spec: RunSpec) -> dict[str, UnitResult]:
        todo = [self.instances[uid] for uid in spec.stream if uid not in spec.skip]
        if spec.model is None:  # a model-free row: judge the candidate patches as they are
            return {
                i.instance_id: self._judged(i.instance_id, spec.candidates.get(i.instance_id, ""), spec) for i in todo
            }
        settings = AgentSettings(True, spec.system.memory, self.data.max_steps, 12)
        task = SweTask(todo, self.context, settings, f"eval-{spec.system.name}-{uuid.uuid4().hex[:6]}")
        agent_cfg = AgentConfig(
            attempts=self.data.max_steps, policy=(settings.arm,), retrieval_k=(8, 2), retrieval=spec.retrieval
        )
        state, out = ModelState(spec.model, None), {}
        for offset, item in enumerate(task.items()):
            item.group = spec.groups.get(item.id, item.group)
            item.extra["reference"] = spec.references.get(item.id)
            episode = run_episode(task, state, spec.memory, item, stream_position(spec.memory, offset), agent_cfg)
            task.episodes.pop(item.id, None)
            final = task.outcomes.get(item.id, ("", None))[0]
            out[item.id] = self._judged(item.id, final, spec, episode)
        for uid in task.setup_errors:  # could not be set up: unresolved, as an empty patch would be
            out[uid] = UnitResult(uid, "rejected", True, reason=task.setup_errors[uid][:300])
            if spec.progress is not None:
                spec.progress.update(1)
        return out

    def _judged(self, uid: str, patch: str, spec: RunSpec, episode=None) -> UnitResult:
        result = judge_patch(self.instances[uid], patch, self.judge_ctx)
        category = "correct" if result.resolved else ("wrong" if result.status == "unresolved" else "rejected")
        if spec.after is not None and episode is not None:
            spec.after(uid, episode)
        if spec.progress is not None:
            spec.progress.update(1)
        return UnitResult(
            uid,
            category,
            True,
            attempts=len(episode.attempts) if episode else 0,
            calls=sum(a.calls for a in episode.attempts) if episode else 0,
            tokens=episode.tokens if episode else 0,
            reason=result.reason[:300],
        )
