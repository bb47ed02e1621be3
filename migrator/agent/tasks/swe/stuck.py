"""Stuck detection (PMCoder §III-B c): trajectory statistics and the signals drawn from them.

After a minimum-step floor the agent is stuck on any of: persistently failing actions (nonzero
returns, refused edits), one file edited too many times, file reads saturated without an edit (no
progress), one normalized action repeated past a threshold, or the active sub-task outrunning its
step budget. Thresholds are the paper's Table II; the sub-task budget is ours (the paper names a
per-phase token budget for retrieval, not for stuck detection). Counts restart after every
backtrack, so a signal fires again only on fresh evidence.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


@dataclass(frozen=True)
class StuckConfig:
    min_step: int = 10  # no backtrack before this step
    failed_returns: int = 5  # consecutive failing actions
    repeated_edits: int = 6  # edits of one file
    read_saturation: int = 15  # inspections since the last edit
    repeated_action: int = 8  # one normalized action
    subtask_steps: int = 20  # steps on one sub-task without completing it


@dataclass
class TrajectoryStats:
    consecutive_failures: int = 0
    reads_since_edit: int = 0
    edits_per_file: Counter = field(default_factory=Counter)
    actions: Counter = field(default_factory=Counter)
    touched: Counter = field(default_factory=Counter)  # every file read or changed, for the plan signal
    failed_actions: Counter = field(default_factory=Counter)  # normalized actions that failed, ever
    repeated_failures: int = 0  # a failed action issued again (PMCoder's failed-action recurrence)

    def record(self, normalized: str, tool: str, ok: bool, files: tuple[str, ...], edited: bool) -> None:
        self.actions[normalized] += 1
        self.touched.update(files)
        if not ok and self.failed_actions[normalized]:
            self.repeated_failures += 1
        if not ok:
            self.failed_actions[normalized] += 1
        self.consecutive_failures = 0 if ok else self.consecutive_failures + 1
        if edited:
            self.reads_since_edit = 0
            self.edits_per_file.update(files)
        elif tool in ("read", "search", "list"):
            self.reads_since_edit += 1

    def restart(self) -> None:
        """After a backtrack: the window starts again (lifetime counts stay)."""
        self.consecutive_failures = 0
        self.reads_since_edit = 0
        self.edits_per_file.clear()
        self.actions.clear()

    def most_touched(self, n: int = 3) -> list[tuple[str, int]]:
        return self.touched.most_common(n)


def stuck_signals(stats: TrajectoryStats, subtask_steps: int, cfg: StuckConfig) -> list[str]:
    """Every stuck signal that holds now, each with its evidence."""
    signals = []
    if stats.consecutive_failures >= cfg.failed_returns:
        signals.append(f"{stats.consecutive_failures} failing actions in a row")
    if stats.edits_per_file:
        path, count = stats.edits_per_file.most_common(1)[0]
        if count >= cfg.repeated_edits:
            signals.append(f"{path} edited {count} times")
    if stats.reads_since_edit >= cfg.read_saturation:
        signals.append(f"{stats.reads_since_edit} inspections without an edit (no progress)")
    if stats.actions:
        action, count = stats.actions.most_common(1)[0]
        if count >= cfg.repeated_action:
            signals.append(f"repeated action `{action}` x{count}")
    if subtask_steps >= cfg.subtask_steps:
        signals.append(f"{subtask_steps} steps on the active sub-task (budget {cfg.subtask_steps})")
    return signals
