"""Scenarios grouped into shards for the cluster.

Every node holds the whole deployed template, so whatever a scenario's steps call — other routines,
triggers its DML fires, views — is there: a shard is closed under calls by construction. What
grouping decides is which scenarios judge together: scenarios that share a unit go in one group, so
a unit's verdict comes from one node (and a node lost mid-run takes whole units with it, never half
a unit). Groups are packed into shards by expected cost — the number of statements the scenario
runs, or its measured seconds from an earlier run when known — largest first onto the lightest
shard (LPT), so no shard holds the run up.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from harness.ground_truth.scenarios import Scenario


@dataclass
class Shard:
    number: int
    members: list[int] = field(default_factory=list)  # positions in the run's scenario sequence
    cost: float = 0.0


def expected_cost(scenario: Scenario, past: Mapping[str, float] | None = None) -> float:
    if past and scenario.id in past:
        return max(past[scenario.id], 1e-3)
    return float(1 + len(scenario.setup) + len(scenario.steps))


def unit_groups(scenarios: Sequence[Scenario]) -> list[list[int]]:
    """Connected components of "shares a unit" (positions), in first-seen order."""
    parent = list(range(len(scenarios)))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    first: dict[str, int] = {}
    for i, s in enumerate(scenarios):
        for unit in s.units:
            if unit in first:
                parent[find(i)] = find(first[unit])
            else:
                first[unit] = i
    groups: dict[int, list[int]] = {}
    for i in range(len(scenarios)):
        groups.setdefault(find(i), []).append(i)
    return list(groups.values())


def make_shards(scenarios: Sequence[Scenario], count: int, past: Mapping[str, float] | None = None) -> list[Shard]:
    """At most `count` non-empty shards of whole unit groups, balanced by expected cost."""
    shards = [Shard(i) for i in range(max(1, count))]
    groups = unit_groups(scenarios)
    costed = sorted(
        ((sum(expected_cost(scenarios[i], past) for i in g), n, g) for n, g in enumerate(groups)),
        key=lambda t: (-t[0], t[1]),
    )
    for cost, _, group in costed:
        target = min(shards, key=lambda sh: (sh.cost, sh.number))
        target.members += group
        target.cost += cost
    return [s for s in shards if s.members]
