"""The directed graph the dependency analysis needs, and no more (importing networkx cost every
`migrate` 60-120 ms of start-up on the development machines).

Nodes keep their insertion order; an edge may carry attributes (`cycle=True` marks an edge that
ordering had to drop). `topological_order` is Kahn's algorithm taking the smallest ready node by
`key` each time, as networkx's `lexicographical_topological_sort`: with keys that are all
distinct the order is the one and only smallest, whatever the implementation.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Iterator
from typing import Any


class DiGraph:
    def __init__(self) -> None:
        self._succ: dict[str, dict[str, dict[str, Any]]] = {}
        self._pred: dict[str, dict[str, dict[str, Any]]] = {}

    def add_node(self, node: str) -> None:
        if node not in self._succ:
            self._succ[node] = {}
            self._pred[node] = {}

    def add_nodes_from(self, nodes: Iterable[str]) -> None:
        for node in nodes:
            self.add_node(node)

    def add_edge(self, a: str, b: str, **attrs: Any) -> None:
        self.add_node(a)
        self.add_node(b)
        data = self._succ[a].setdefault(b, {})
        data.update(attrs)
        self._pred[b][a] = data

    def remove_edge(self, a: str, b: str) -> None:
        del self._succ[a][b]
        del self._pred[b][a]

    def has_edge(self, a: str, b: str) -> bool:
        return b in self._succ.get(a, {})

    def edge_data(self, a: str, b: str) -> dict[str, Any]:
        return self._succ[a][b]

    def predecessors(self, node: str) -> Iterator[str]:
        return iter(self._pred[node])

    def successors(self, node: str) -> Iterator[str]:
        return iter(self._succ[node])

    @property
    def nodes(self) -> list[str]:
        return list(self._succ)

    @property
    def edges(self) -> list[tuple[str, str]]:
        return [(a, b) for a, nbrs in self._succ.items() for b in nbrs]

    def __contains__(self, node: object) -> bool:
        return node in self._succ

    def __len__(self) -> int:
        return len(self._succ)

    def copy(self) -> DiGraph:
        new = DiGraph()
        new.add_nodes_from(self._succ)
        for a, nbrs in self._succ.items():
            for b, data in nbrs.items():
                new.add_edge(a, b, **data)
        return new

    def strongly_connected_components(self) -> list[set[str]]:
        """Tarjan's algorithm, without recursion (a long chain of units must not hit the limit)."""
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        on_stack: set[str] = set()
        stack: list[str] = []
        groups: list[set[str]] = []
        counter = 0
        for root in self._succ:
            if root in index:
                continue
            work: list[tuple[str, Iterator[str]]] = [(root, iter(self._succ[root]))]
            index[root] = low[root] = counter
            counter += 1
            stack.append(root)
            on_stack.add(root)
            while work:
                node, children = work[-1]
                for child in children:
                    if child not in index:
                        index[child] = low[child] = counter
                        counter += 1
                        stack.append(child)
                        on_stack.add(child)
                        work.append((child, iter(self._succ[child])))
                        break
                    if child in on_stack:
                        low[node] = min(low[node], index[child])
                else:
                    work.pop()
                    if work:
                        parent = work[-1][0]
                        low[parent] = min(low[parent], low[node])
                    if low[node] == index[node]:
                        group = set()
                        while True:
                            member = stack.pop()
                            on_stack.discard(member)
                            group.add(member)
                            if member == node:
                                break
                        groups.append(group)
        return groups

    def topological_order(self, key: Callable[[str], Any]) -> list[str]:
        """Every node after its predecessors, the smallest `key` first among the ready ones;
        ValueError if the graph has a cycle."""
        position = {n: i for i, n in enumerate(self._succ)}
        waiting = {n: len(p) for n, p in self._pred.items() if p}
        ready = [(key(n), position[n], n) for n, p in self._pred.items() if not p]
        heapq.heapify(ready)
        order: list[str] = []
        while ready:
            node = heapq.heappop(ready)[2]
            for child in self._succ[node]:
                waiting[child] -= 1
                if waiting[child] == 0:
                    del waiting[child]
                    heapq.heappush(ready, (key(child), position[child], child))
            order.append(node)
        if waiting:
            raise ValueError("graph contains a cycle")
        return order
