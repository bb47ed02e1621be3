"""The memory a system of `migrator eval` sees, and the checkpoints the monitor reads.

`SystemMemory` is the knowledge base as one memory system uses it (typed or untyped retrieval,
negatives or not, its k); `Checkpoints` snapshots the store at evenly spaced points of the stream
and replays the held-out units' queries against each snapshot, so the monitor can say what memory
would show the panel at each point (EPAM §VIII-D: verified entries, distinct positives shown, top
example share, churn, margin).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

from knowledge_base import KBConfig, KnowledgeBase, RetrievalQuery, make_embedder
from knowledge_base.monitor import PanelMonitor, read_traces
from migrator.eval.adapters.base import Probe
from migrator.eval.config import SystemSpec


class SystemMemory:
    def __init__(self, kb: KnowledgeBase, system: SystemSpec):
        self.kb, self.system = kb, system

    def query(self, query: RetrievalQuery) -> RetrievalQuery:
        s, update = self.system, dict[str, object]()
        if not s.typed:
            update["failure_type"] = None
        if s.k_positive is not None:
            update["k_positive"] = s.k_positive
        if s.k_negative is not None or not s.negatives:
            update["k_negative"] = 0 if not s.negatives else s.k_negative
        return query.model_copy(update=update)

    def retrieve(self, query: RetrievalQuery):
        return self.kb.retrieve(self.query(query))

    def add_experience(self, experience):
        if experience is None or (experience.polarity == "-" and not self.system.negatives):
            return None
        return self.kb.add_experience(experience)

    def take_position(self) -> int:
        return self.kb.take_position()

    def contraindicate(self, entry_id: int, note: str) -> None:
        self.kb.contraindicate(entry_id, note)


def open_memory(path: Path, system: SystemSpec, embedder: str | None) -> KnowledgeBase:
    emb = make_embedder(embedder or "auto")
    return KnowledgeBase(path, embedder=emb, config=KBConfig(mmr_lambda=system.mmr_lambda))


class Checkpoints:
    """Snapshot after every 1/n of the panel units, then replay the probes of the held-out units."""

    def __init__(
        self,
        memory: SystemMemory,
        count: int,
        total: int,
        probes: dict[str, Probe],
        test: list[str],
        groups: dict[str, str],
    ):
        self.monitor = PanelMonitor(memory.kb, memory.query)
        self.marks = sorted({max(1, math.ceil(i * total / count)) for i in range(1, count + 1)})
        self.done = 0
        self.panel = [
            RetrievalQuery(
                text=p.text,
                failure_type=p.failure_type,
                task_id=uid,
                task_group=groups[uid],
                relevant=frozenset(p.tags),
            )
            for uid in test
            if (p := probes.get(uid)) is not None  # a unit that needed no repair never asks memory
        ]

    def after(self, unit: str, episode) -> None:
        self.done += 1
        if self.done in self.marks:
            self.monitor.checkpoint(f"ck{len(self.monitor.taken) + 1:02d}", self.panel, self.done)

    def metrics(self) -> list[dict]:
        return self.monitor.metrics()


def memory_entries(kb: KnowledgeBase) -> dict[int, tuple[str | None, str | None, str]]:
    """Entry id -> (task id, reference target id, output) of every entry: what the audit reads."""
    out = {}
    for entry_id, _gen, _status, raw in kb.sql.records():
        record = json.loads(raw)
        prov = record.get("provenance") or {}
        text = record.get("output") or record.get("fix") or ""
        out[entry_id] = (prov.get("task_id"), prov.get("reference_target_id"), text)
    return out


def own_reference_retrievals(kb: KnowledgeBase, keys: dict[str, tuple[str, ...]]) -> int:
    """Retrievals (live and probes) that returned an entry written by a unit sharing a reference
    key with the querying unit: what the group exclusion must keep at 0."""
    task_of = {i: entry[0] for i, entry in memory_entries(kb).items()}
    found = 0
    for trace in read_traces(kb.traces_path):
        mine = set(keys.get(trace.get("task_id") or "", ()))
        for hit in trace.get("returned", []):
            task = task_of.get(hit["id"])
            if mine and task is not None and set(keys.get(task, ())) & mine:
                found += 1
    return found
