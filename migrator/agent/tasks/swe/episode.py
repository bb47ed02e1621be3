"""One instance's episode: the model's answers become actions in the worktree, observations go
back to it, and the planner, stuck detection, episodic memory and grounding keep the state.

The loop (`migrator.agent.loop`) drives it: every model call is one step (`act`), and only a
`submit` offers a candidate, which `verify` judges by execution (reproduction + tests). The
planner and memory are advisory: they shape what the model sees, never what it may do.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field

from harness.judge.categories import Category
from migrator.agent.models import Message
from migrator.agent.tasks.swe import prompts
from migrator.agent.tasks.swe.actions import BadAction, ListDir, Reproduce, Submit, Test, normalized, parse_action
from migrator.agent.tasks.swe.grounding import Reproduction, describe
from migrator.agent.tasks.swe.instances import SweInstance
from migrator.agent.tasks.swe.memory import CodeGraph, MemoryNode, policy_for
from migrator.agent.tasks.swe.memory_view import working_set
from migrator.agent.tasks.swe.planner import PhasePlanner, PlannerConfig, detect_phase, parse_plan
from migrator.agent.tasks.swe.stuck import StuckConfig, TrajectoryStats, stuck_signals
from migrator.agent.tasks.swe.tools import Observation, PathRefused, Workspace, tests_pass

_EXC = re.compile(r"\b([A-Z][A-Za-z]*(?:Error|Exception|Mismatch|Exit|Interrupt))\b")


@dataclass(frozen=True)
class AgentSettings:
    planner: bool = True
    memory: bool = True
    max_steps: int = 40
    history_steps: int = 12  # recent steps shown verbatim; older ones only through memory
    stuck: StuckConfig = field(default_factory=StuckConfig)
    planning: PlannerConfig = field(default_factory=PlannerConfig)

    @property
    def arm(self) -> str:
        return {(True, True): "plan+memory", (True, False): "plan", (False, True): "memory"}.get(
            (self.planner, self.memory), "baseline"
        )


@dataclass
class SweJudgement:
    """What the loop reads (Judgement protocol), plus the evidence behind it."""

    category: str
    tier: str
    reason: str
    steps_agreeing: int = 0
    grounded: bool | None = None  # None: no armed reproduction (the tests alone decided)
    tests_ok: bool | None = None


@dataclass
class StepRecord:
    step: int
    tool: str
    action: str
    ok: bool
    note: str
    phase: str | None = None
    subtask: str | None = None
    files: tuple[str, ...] = ()
    edited: bool = False
    events: list[str] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    injected: list[str] = field(default_factory=list)  # memory keys surfaced with this step's result


def failure_type(text: str) -> str:
    """The deterministic failure class of an execution result (never from a model)."""
    if "timed out" in text or "timeout" in text:
        return "hang"
    found = _EXC.findall(text)
    if not found:
        return "no failure seen yet"
    return "assertion" if found[-1] == "AssertionError" else found[-1]


class SweEpisode:
    def __init__(self, instance: SweInstance, ws: Workspace, repro: Reproduction, settings: AgentSettings):
        self.instance, self.ws, self.repro, self.settings = instance, ws, repro, settings
        self.planner: PhasePlanner | None = None
        self.plan_pending = settings.planner
        self.plan_note = ""
        self.stats = TrajectoryStats()
        self.graph = CodeGraph()
        self.nodes: list[MemoryNode] = []
        self.surfaced: set[str] = set()
        self.turns: list[list[str]] = []  # [answer, observation] per step
        self.records: list[StepRecord] = []
        self.calls = 0
        self.test_targets: tuple[str, ...] = ()
        self.verifications: list[dict] = []
        self.issue_type = "no failure seen yet"
        self._last_state: tuple | None = None
        self._prev_files: tuple[str, ...] = ()
        self.task = prompts.task_text(instance.instance_id, instance.repo, instance.problem_statement, *self._intro())

    def _intro(self) -> tuple[str, str]:
        listing = self.ws.list(ListDir()).text
        note = ""
        if self.repro.armed:
            note = f"A reproduction script is armed (it fails on this commit); `reproduce` runs it:\n```python\n{self.repro.script}\n```"
            self.issue_type = failure_type(self.repro.history[0]["base"]) if self.repro.history else self.issue_type
        return listing, note

    # -- what the model sees -----------------------------------------------------------------------
    @property
    def phase(self) -> str | None:
        return self.planner.phase if self.planner else None

    def messages(self, hits) -> list[Message]:
        if self.plan_pending:
            return prompts.plan_messages(self.task)
        self._inject(hits)
        # The task message is the latest user message only before the first action.
        first = prompts.header(self.instance.instance_id, 1 if self.turns else self.calls + 1, self.budget, None)
        shown = self.turns[-self.settings.history_steps :]
        hidden = len(self.turns) - len(shown)
        intro = f"{first}\n{self.task}"
        if hidden:
            intro += f"\n\n[{hidden} earlier step(s) are not shown; the ⟦PLANMEM⟧ blocks recall what matters]"
        out = [Message("system", prompts.SYSTEM), Message("user", intro)]
        for answer, observation in shown:
            out += [Message("assistant", answer), Message("user", observation)]
        return out

    @property
    def budget(self) -> int:
        return self.settings.max_steps

    def _inject(self, hits) -> None:
        """Append the plan/memory block to the latest tool result (or the task at step 1) when the
        plan state changed or memory has something new; never rewrite older turns."""
        if not (self.settings.planner or self.settings.memory):
            return
        state = self._plan_state()
        lines, keys = working_set(self, hits) if self.settings.memory else ([], [])
        if state == self._last_state and not keys:
            return
        self._last_state = state
        lines = self._plan_lines() + lines
        if not lines:
            return
        block = prompts.block(lines)
        if self.turns:
            self.turns[-1][1] += "\n" + block
            if self.records:
                self.records[-1].injected += keys
        else:
            self.task += "\n\n" + block

    def _plan_state(self) -> tuple:
        if self.planner is None:
            return ()
        active = self.planner.active
        return (self.planner.phase, active.goal if active else None, self.planner.backtracks)

    def _plan_lines(self) -> list[str]:
        if self.planner is None:
            return []
        p, active = self.planner, self.planner.active
        prog = p.progress()
        lines = [
            f"plan: phase {p.phase.upper()} · active sub-task: {active.goal if active else 'none'} "
            f"({active.phase if active else '-'}) · done {prog['done']} · failed {prog['failed']} · open {prog['open']}"
        ]
        top = ", ".join(f"{f} x{n}" for f, n in self.stats.most_touched())
        if top:
            lines.append(f"files in focus: {top}")
        if self.records and self.records[-1].stuck:
            lines.append("STUCK: " + "; ".join(self.records[-1].stuck) + " -> follow the recovery sub-task above")
        budget = policy_for(p.phase).budget
        lines.append(f"memory budget for this phase: {budget} tokens")
        return lines

    # -- what the model's answer does -------------------------------------------------------------
    def act(self, answer: str) -> tuple[str | None, str]:
        self.calls += 1
        if self.plan_pending:
            subtasks, self.plan_note = parse_plan(answer)
            self.planner = PhasePlanner(subtasks, self.settings.planning)
            self.plan_pending = False
            return None, self.plan_note
        action = parse_action(answer)
        obs = self._execute(action)
        candidate = None
        if isinstance(action, Submit):
            candidate = self.ws.patch_text()
            self.test_targets = action.targets or self.test_targets
            obs = Observation("submitted; verifying your final change (reproduction and tests) ...", True)
        elif obs.edited:
            verdict = self.repro.check(self.ws.patch_text(), automatic=True)
            if verdict is not None:
                obs.text += "\n[grounding] " + describe(verdict)
        record = self._record(action, obs)
        self.turns.append([answer, self._observation_text(obs)])
        return candidate, f"{record.tool}: {record.note}"

    def _execute(self, action) -> Observation:
        if isinstance(action, BadAction):
            return Observation(f"could not use the answer: {action.message}", False)
        try:
            if isinstance(action, Reproduce):
                return self._reproduce(action)
            if isinstance(action, Test):
                self.test_targets = action.targets or self.test_targets
                return self.ws.run_tests(action.targets)[0]
            if isinstance(action, Submit):
                return Observation("", True)
            return getattr(self.ws, action.tool)(action)
        except PathRefused as exc:
            return Observation(f"refused: {exc}", False)
        except (OSError, UnicodeDecodeError) as exc:
            return Observation(f"{action.tool} failed: {exc}", False)

    def _reproduce(self, action: Reproduce) -> Observation:
        notes = []
        if action.script is not None:
            notes.append(self.repro.offer(action.script, "agent"))
            if self.repro.armed and self.repro.history:
                self.issue_type = failure_type(self.repro.history[0].get("base", ""))
        if not self.repro.armed:
            return Observation(
                "\n".join(notes + ["no reproduction is armed: give a script that fails on this commit"]), False
            )
        verdict = self.repro.check(self.ws.patch_text(), automatic=False)
        return Observation("\n".join(notes + [describe(verdict)]), bool(verdict and verdict.passed))

    def _record(self, action, obs: Observation) -> StepRecord:
        step = self.calls  # a step is a model call (the planning call is step 1 when the planner is on)
        norm = normalized(action)
        self.stats.record(norm, action.tool, obs.ok, obs.files, obs.edited)
        record = StepRecord(step, action.tool, norm, obs.ok, obs.text.splitlines()[0][:160] if obs.text else "")
        record.files, record.edited = obs.files, obs.edited
        if self.planner is not None:
            record.events = self.planner.step(detect_phase(action.tool, bool(self.ws.changed_files())))
            self._check_stuck(step, record)
            record.phase = self.planner.phase
            record.subtask = self.planner.active.goal if self.planner.active else None
        if self.settings.memory:
            self._remember(step, norm, obs)
        self.records.append(record)
        return record

    def _check_stuck(self, step: int, record: StepRecord) -> None:
        if self.planner is None:  # only called with a planner (plan-and-act episodes)
            return
        active = self.planner.active
        signals = stuck_signals(self.stats, active.steps if active else 0, self.settings.stuck)
        if signals and self.planner.can_backtrack(step):
            record.stuck = signals
            record.events += self.planner.backtrack(step, signals, bool(self.stats.edits_per_file))
            self.stats.restart()

    def _remember(self, step: int, norm: str, obs: Observation) -> None:
        node = MemoryNode(f"step:{step}", "observation", obs.text, obs.files, step, obs.edited, norm)
        self.nodes.append(node)
        self.graph.observe(obs.files, self._prev_files)
        self._prev_files = obs.files or self._prev_files
        for rel in obs.files:
            if rel.endswith(".py") and (self.ws.tree / rel).is_file():
                source = (self.ws.tree / rel).read_text(encoding="utf-8", errors="replace")
                self.graph.add_imports(rel, source, lambda c: (self.ws.tree / c).is_file())

    def _observation_text(self, obs: Observation) -> str:
        head = prompts.header(self.instance.instance_id, self.calls + 1, self.budget, self.phase)
        return f"{head}\n{obs.text}"

    # -- judging a submitted candidate ------------------------------------------------------------
    def verify(self, candidate: str) -> SweJudgement:
        if not candidate.strip():
            judgement = SweJudgement(Category.WRONG, "G0", "empty patch: nothing was changed")
        else:
            judgement = self._verify(candidate)
        if self.turns and self.records and self.records[-1].tool == "submit":
            self.turns[-1][1] += f"\n[verification] {judgement.category}: {judgement.reason}"
        return judgement

    def _verify(self, candidate: str) -> SweJudgement:
        if candidate != self.ws.patch_text():
            return SweJudgement(Category.REJECTED, "G0", "the candidate is not the worktree's current change")
        verdict = self.repro.check(candidate, automatic=False)
        obs, run = self.ws.run_tests(self.test_targets)
        ok = tests_pass(run)
        grounded = verdict.passed if verdict is not None else None
        agreeing = sum(r.status == "passed" for r in run.results.values()) + int(bool(grounded))
        parts = [describe(verdict) or "no armed reproduction: the tests alone decide", obs.text.splitlines()[0]]
        correct = ok and grounded is not False
        if correct:
            category, tier = Category.CORRECT, "G2"
            if self.planner is not None:
                self.planner.verified()
        else:
            category, tier = Category.WRONG, "G1"
            if ok and grounded is False:
                parts.append("the tests pass but the reproduction still fails: not counted as a fix")
            elif not ok:
                parts.append(obs.text[:1500])
        self.verifications.append(
            {"step": len(self.records), "category": category, "grounded": grounded, "tests_ok": ok}
        )
        return SweJudgement(category, tier, "; ".join(p for p in parts if p), agreeing, grounded, ok)

    def trajectory(self) -> dict:
        return {
            "instance_id": self.instance.instance_id,
            "arm": self.settings.arm,
            "plan": self.plan_note,
            "subtasks": [asdict(t) for t in (self.planner.finished + self.planner.stack)] if self.planner else [],
            "backtracks": self.planner.backtracks if self.planner else 0,
            "reproduction": {"armed": self.repro.armed, "source": self.repro.source, "history": self.repro.history},
            "verifications": self.verifications,
            "repeated_failed_actions": self.stats.repeated_failures,
            "steps": [asdict(r) for r in self.records],
        }
