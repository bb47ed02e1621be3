"""What every adapter gives the evaluation runner."""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from migrator.eval.config import SystemSpec
from migrator.eval.split import EvalUnit


@dataclass
class UnitResult:
    unit: str
    category: str
    resolved: bool  # the verdict's references were resolved (a verdict that did not is never correct)
    attempts: int = 0
    calls: int = 0
    tokens: int = 0
    reason: str = ""  # the final verdict's reason (what the judge saw)

    @property
    def correct(self) -> bool:
        return self.category == "correct" and self.resolved


@dataclass(frozen=True)
class Probe:
    """What a unit asks memory for after its first (failed) judgement: the monitor replays it."""

    text: str
    failure_type: str
    tags: tuple[str, ...]


@dataclass
class RunSpec:
    system: SystemSpec
    stream: list[str]  # every unit id of the task in causal order (panel units and the rest)
    candidates: dict[str, str]  # the system's starting candidate per panel unit
    skip: frozenset[str]  # panel units not run (their objects keep the initial candidate)
    model: Any  # a migrator.agent.models.Model, or None for model-free systems
    memory: Any  # the memory the loop sees (retrieve, add_experience, take_position), or None
    attempts: int
    groups: dict[str, str]  # unit -> reference component (never retrieves its own group's entries)
    references: dict[str, str]  # unit -> the reference target its entries are scored against
    after: Callable[[str, Any], None] | None = None  # (unit id, episode) after each panel unit
    progress: Any = None
    probes: dict[str, Probe] = field(default_factory=dict)  # filled by the run: first-judgement queries
    retrieval: Any = None  # a RetrievalController for the bandit and fixed-arm systems (None: fixed retrieval)


class Adapter(Protocol):
    name: str
    initial_label: str  # what the shared initial prediction is called for this task

    def eval_units(self) -> list[EvalUnit]: ...
    def stream(self, seed: int) -> list[str]: ...
    def initial(self) -> dict[str, str]: ...
    def run(self, spec: RunSpec) -> dict[str, UnitResult]: ...
    def close(self) -> None: ...


def seeded_order(
    ids: list[str], deps: dict[str, list[str]], seed: int, first: frozenset[str] = frozenset()
) -> list[str]:
    """A topological order with seeded tie-breaking: every order respects dependencies, and among
    the units ready at a time a seeded random priority decides (MERIT's orders 0, 1, 2 ...). Units
    in `first` go before the others whenever they are ready (e.g. tables and their rows: a body
    reads the data without naming it as a dependency)."""
    rng = random.Random(seed)
    priority = {uid: (uid not in first, rng.random()) for uid in ids}
    known = set(ids)
    waiting = {uid: {d for d in deps.get(uid, []) if d in known and d != uid} for uid in ids}
    users: dict[str, list[str]] = {uid: [] for uid in ids}
    for uid, ds in waiting.items():
        for d in ds:
            users[d].append(uid)
    ready = [(priority[u], u) for u in ids if not waiting[u]]
    heapq.heapify(ready)
    out = []
    while ready:
        _, uid = heapq.heappop(ready)
        out.append(uid)
        for user in users[uid]:
            waiting[user].discard(uid)
            if not waiting[user]:
                heapq.heappush(ready, (priority[user], user))
    rest = [u for u in ids if u not in set(out)]  # a dependency cycle: kept in the given order
    return out + rest
