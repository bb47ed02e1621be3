"""The hierarchical phase planner (PMCoder §III-B): a deterministic state machine over four phases
— reproduce → localize → edit → verify — plus a BACKTRACK state outside that order.

- One model call at the start decomposes the issue into typed sub-tasks (a JSON list); a parse
  failure falls back to a fixed skeleton, and says so.
- Each step a zero-cost detector proposes a phase from the action (`detect_phase`). Forward moves
  take effect at once; backward or lateral moves need the same proposal on `hysteresis` (2)
  consecutive steps, because the detector is cheap but noisy.
- A sub-task completes when the phase has moved past its own with evidence (at least one step
  in its phase while it was active); without evidence it is marked skipped. The terminal verify
  sub-task completes only on a grounded verification (`verified`).
- On a stuck signal, after the minimum-step floor and outside the cooldown (8 steps), the planner
  backtracks: the active sub-task fails and recovery sub-tasks are pushed on the goal stack
  (re-explore; revert-then-refix when files were edited), bounded by the stack depth (16).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

PHASES = ("reproduce", "localize", "edit", "verify")
BACKTRACK = "backtrack"
RANK = {p: i for i, p in enumerate(PHASES)}
SKELETON = (
    ("reproduce", "Reproduce the issue: a script that fails on the current code"),
    ("localize", "Find the code that causes the issue"),
    ("edit", "Change the code to remove the cause"),
    ("verify", "Show the fix: the reproduction passes and the tests pass, then submit"),
)
RE_EXPLORE = ("localize", "Re-explore: re-read the code the issue names and revise the diagnosis")
REVERT_THEN_REFIX = (
    "edit",
    "Revert-then-refix: revert the edited files to the base commit and fix again from a clean state",
)
_JSON = re.compile(r"```(?:json)?\s*\n(.*?)```", re.DOTALL)


@dataclass(frozen=True)
class PlannerConfig:
    hysteresis: int = 2
    cooldown: int = 8
    stack_depth: int = 16
    min_step: int = 10


@dataclass
class SubTask:
    goal: str
    phase: str
    status: str = "pending"  # pending | active | done | skipped | failed
    steps: int = 0
    evidence: int = 0
    recovery: bool = False


def detect_phase(tool: str, has_edits: bool) -> str:
    """Ordered rules: mutating actions, then test runs, then reproduction, then inspection."""
    if tool in ("edit", "patch", "revert"):
        return "edit"
    if tool in ("test", "submit"):
        return "verify"
    if tool == "reproduce":
        return "verify" if has_edits else "reproduce"
    return "localize"  # read, search, list, and answers that asked for nothing usable


def parse_plan(answer: str) -> tuple[list[tuple[str, str]], str]:
    """Sub-tasks from the planning answer, or the skeleton and why."""
    found = _JSON.search(answer or "")
    try:
        data = json.loads(found.group(1) if found else answer)
        items = [(str(d["phase"]).lower(), str(d["goal"]).strip()) for d in data]
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        return list(SKELETON), f"plan not readable ({type(exc).__name__}); fixed skeleton used"
    items = [(p, g) for p, g in items if p in RANK and g][:8]
    if not items:
        return list(SKELETON), "plan had no usable sub-task; fixed skeleton used"
    if items[-1][0] != "verify":
        items.append(SKELETON[-1])  # the terminal, execution-checked sub-task always exists
    return items, f"plan: {len(items)} sub-tasks"


@dataclass
class PhasePlanner:
    subtasks: list[tuple[str, str]]
    cfg: PlannerConfig = field(default_factory=PlannerConfig)
    phase: str = "reproduce"
    backtracks: int = 0
    last_backtrack: int | None = None

    def __post_init__(self) -> None:
        self.stack = [SubTask(goal, phase) for phase, goal in reversed(self.subtasks)]
        self.finished: list[SubTask] = []
        self._pending: tuple[str | None, int] = (None, 0)
        self._activate()

    @property
    def active(self) -> SubTask | None:
        return self.stack[-1] if self.stack else None

    def _activate(self) -> None:
        if self.active is not None:
            self.active.status = "active"

    def step(self, proposed: str) -> list[str]:
        """One step's proposed phase: move (with hysteresis), count evidence, complete sub-tasks."""
        events = [f"phase -> {self.phase}"] if self._move(proposed) else []
        events += self._complete_passed()
        active = self.active  # the step counts for the sub-task that is active after the move
        if active is not None:
            active.steps += 1
            active.evidence += proposed == active.phase
        return events

    def _move(self, proposed: str) -> bool:
        if proposed == self.phase:
            self._pending = (None, 0)
            return False
        if self.phase == BACKTRACK or RANK[proposed] > RANK[self.phase]:
            self.phase, self._pending = proposed, (None, 0)
            return True
        name, count = self._pending
        count = count + 1 if name == proposed else 1
        if count >= self.cfg.hysteresis:
            self.phase, self._pending = proposed, (None, 0)
            return True
        self._pending = (proposed, count)
        return False

    def _complete_passed(self) -> list[str]:
        events = []
        while (
            self.active is not None
            and self.active.phase != "verify"
            and self.phase != BACKTRACK
            and RANK[self.phase] > RANK[self.active.phase]
        ):
            task = self.stack.pop()
            task.status = "done" if task.evidence else "skipped"
            self.finished.append(task)
            events.append(f"sub-task {task.status}: {task.goal}")
            self._activate()
        return events

    def verified(self) -> list[str]:
        """A grounded verification succeeded: the terminal verify sub-task completes."""
        if self.active is not None and self.active.phase == "verify":
            task = self.stack.pop()
            task.status = "done"
            self.finished.append(task)
            self._activate()
            return [f"sub-task done: {task.goal}"]
        return []

    def can_backtrack(self, step: int) -> bool:
        if step < self.cfg.min_step:
            return False
        return self.last_backtrack is None or step - self.last_backtrack >= self.cfg.cooldown

    def backtrack(self, step: int, signals: list[str], edited: bool) -> list[str]:
        """Fail the active sub-task and push recovery (the caller checked can_backtrack)."""
        events = [f"BACKTRACK at step {step}: {'; '.join(signals)}"]
        if self.active is not None:
            failed = self.stack.pop()
            failed.status = "failed"
            self.finished.append(failed)
            events.append(f"sub-task failed: {failed.goal}")
        recovery = [REVERT_THEN_REFIX, RE_EXPLORE] if edited else [RE_EXPLORE]
        for phase, goal in recovery:  # the last pushed is on top: re-explore first
            if len(self.stack) >= self.cfg.stack_depth:
                events.append("goal stack full: no further recovery sub-task pushed")
                break
            self.stack.append(SubTask(goal, phase, recovery=True))
            events.append(f"recovery pushed: {goal}")
        self._activate()
        self.phase, self._pending = BACKTRACK, (None, 0)
        self.last_backtrack, self.backtracks = step, self.backtracks + 1
        return events

    def progress(self) -> dict[str, int]:
        done = sum(t.status == "done" for t in self.finished)
        failed = sum(t.status == "failed" for t in self.finished)
        return {"done": done, "failed": failed, "open": len(self.stack)}
