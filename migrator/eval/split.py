"""Reference-grouped splits and the leakage audit (EPAM §VIII-A/E).

Units that share a reference target or an expected output form one component (union-find over
their keys); components, never units, are assigned to train or test, so no held-out reference
occurs in training. Components are shuffled with the split seed and each goes to the split with
the largest deficit against the target shares (the seed's procedure). `grouped: false` splits
units one by one: only to show what the audit catches.

The audit does not trust the split: it counts, from the data, held-out units whose reference keys
occur among training units' keys, and later the memory's entries written by training units
(`memory_leaks`) and retrievals that returned an entry scored against the querying unit's own
reference (`retrieval_leaks`). Any of them above 0 and `migrator eval` refuses to report.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass, field


@dataclass(frozen=True)
class EvalUnit:
    id: str
    source: str  # what M1 returns and what the TF-IDF of M2 reads
    keys: tuple[str, ...]  # "reference:<hash>", "expected_output:<hash>": shared key = shared reference
    reference: str | None = None  # the accepted output (a trusted target) when the data has one
    tags: tuple[str, ...] = ()  # what memory must be about to apply (constructs), for the margin


@dataclass
class Split:
    train: list[str]
    test: list[str]
    component: dict[str, str]  # unit id -> component id (the group of the statistics)
    grouped: bool
    sizes: list[int] = field(default_factory=list)  # component sizes, largest first

    @property
    def largest_share(self) -> float:
        total = sum(self.sizes)
        return self.sizes[0] / total if total else 0.0


def components(units: list[EvalUnit], group_by: tuple[str, ...]) -> dict[str, str]:
    parent = {u.id: u.id for u in units}

    def find(x: str) -> str:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    owner: dict[str, str] = {}
    for u in units:
        for key in u.keys:
            if key.split(":", 1)[0] not in group_by:
                continue
            if key in owner:
                a, b = find(owner[key]), find(u.id)
                if a != b:
                    parent[max(a, b)] = min(a, b)
            else:
                owner[key] = u.id
    return {u.id: "g:" + find(u.id) for u in units}


def make_split(units: list[EvalUnit], test_share: float, seed: int, grouped: bool, group_by: tuple[str, ...]) -> Split:
    comp = components(units, group_by) if grouped else {u.id: "u:" + u.id for u in units}
    members: dict[str, list[str]] = defaultdict(list)
    for u in units:
        members[comp[u.id]].append(u.id)
    order = sorted(members)
    random.Random(seed).shuffle(order)
    want = {"train": 1 - test_share, "test": test_share}
    got: dict[str, list[str]] = {"train": [], "test": []}
    for c in order:
        total = len(got["train"]) + len(got["test"]) + len(members[c])
        side = max(("test", "train"), key=lambda s: want[s] * total - len(got[s]))
        got[side] += members[c]
    sizes = sorted((len(m) for m in members.values()), reverse=True)
    if not grouped:  # report the components the data really has, not the one-unit ones
        sizes = sorted(_sizes(components(units, group_by)), reverse=True)
    rank = {u.id: i for i, u in enumerate(units)}
    return Split(
        sorted(got["train"], key=rank.__getitem__), sorted(got["test"], key=rank.__getitem__), comp, grouped, sizes
    )


def _sizes(comp: dict[str, str]) -> list[int]:
    count: dict[str, int] = defaultdict(int)
    for c in comp.values():
        count[c] += 1
    return list(count.values())


def target_leaks(units: list[EvalUnit], split: Split) -> list[str]:
    """Held-out units whose reference keys occur among the training units' keys."""
    by_id = {u.id: u for u in units}
    train_keys = {k for uid in split.train for k in by_id[uid].keys}
    return [uid for uid in split.test if set(by_id[uid].keys) & train_keys]


def memory_leaks(entries: list[tuple[str | None, str | None, str]], units: list[EvalUnit], split: Split) -> list[str]:
    """Held-out reference keys present in training memory. `entries`: (task id, reference target
    id, output text) of every memory entry; a training unit's entry leaks when its reference keys
    or its output's text key is one of a held-out unit's keys."""
    by_id = {u.id: u for u in units}
    test_keys = {k for uid in split.test for k in by_id[uid].keys}
    train = set(split.train)
    found = set()
    for task_id, target, output in entries:
        if task_id not in train:
            continue
        keys = set(by_id[task_id].keys) | {target or "", text_key(output)}
        found |= keys & test_keys
    return sorted(found)


def text_key(text: str) -> str:
    """The reference key of a text: what two units share when they share a target text."""
    import hashlib

    norm = " ".join(text.split()).lower()
    return "reference:" + hashlib.sha256(norm.encode("utf-8")).hexdigest()[:16]
