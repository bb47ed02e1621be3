"""What the memory is doing, per checkpoint: the state behind any learning curve.

- verified entries and admitted rules (from the snapshot manifest written at the checkpoint);
- distinct positive examples shown, and the share of queries whose top positive is the single most
  common one (EPAM Study 1: one verified experience was the top example for 97% of the panel);
- retrieval churn: mean Jaccard distance between the id sets returned for the same query at two
  consecutive checkpoints;
- retrieval margin (EPAM Study 4): for queries that name what is relevant to them, the best
  relevant positive's score minus the best irrelevant one's (> 0: what applies ranks first).
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path

from pydantic import BaseModel, ConfigDict

NO_CHECKPOINT = "(none)"


class CheckpointMetrics(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    checkpoint: str
    queries: int
    verified_entries: int | None
    admitted_rules: int | None
    distinct_positive_shown: int
    top_positive_id: int | None
    top_positive_share: float
    churn: float | None
    churn_queries: int
    margin_mean: float | None = None
    margin_positive_share: float | None = None
    margin_queries: int = 0


def state_counts(sql) -> dict[str, int]:
    """Counts of the live state (verified = retrievable positive experiences and corrections)."""

    def one(where: str) -> int:
        return sql.conn.execute(f"SELECT COUNT(*) FROM entries WHERE {where}").fetchone()[0]

    return {
        "entries": one("1"),
        "verified_entries": one("retrievable = 1 AND polarity = '+' AND kind IN ('experience', 'correction')"),
        "negative_entries": one("retrievable = 1 AND polarity = '-'"),
        "corrections": one("kind = 'correction' AND retrievable = 1"),
        "admitted_rules": one("kind = 'rule' AND status = 'admitted'"),
        "advisory_rules": one("kind = 'rule' AND status = 'admitted' AND advisory = 1"),
        "candidate_rules": one("kind = 'rule' AND status = 'candidate'"),
    }


def read_traces(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    out = []
    for line in path.read_text("utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except ValueError:
            continue  # a torn final line after a crash
    return out


def _key(trace: dict) -> tuple:
    return (trace.get("query"), trace.get("task_id"), trace.get("failure_type"))


def jaccard_distance(a: set, b: set) -> float:
    if not a and not b:
        return 0.0
    return 1.0 - len(a & b) / len(a | b)


def checkpoint_metrics(traces: list[dict], manifests: dict[str, dict]) -> list[CheckpointMetrics]:
    groups: dict[str, list[dict]] = defaultdict(list)
    for trace in traces:
        groups[trace.get("checkpoint") or NO_CHECKPOINT].append(trace)
    out, previous = [], None
    for name, group in groups.items():
        out.append(_one(name, group, previous, manifests.get(name, {}).get("state", {})))
        previous = group
    return out


def _one(name: str, group: list[dict], previous: list[dict] | None, state: dict) -> CheckpointMetrics:
    positives = [[r["id"] for r in t["returned"] if r["polarity"] == "+"] for t in group]
    shown = {i for ids in positives for i in ids}
    tops = Counter(ids[0] for ids in positives if ids)
    top_id, top_n = tops.most_common(1)[0] if tops else (None, 0)
    churn, shared = None, 0
    if previous is not None:
        before = {_key(t): {r["id"] for r in t["returned"]} for t in previous}
        now = {_key(t): {r["id"] for r in t["returned"]} for t in group}
        common = sorted(set(before) & set(now), key=repr)
        shared = len(common)
        if common:
            churn = sum(jaccard_distance(before[k], now[k]) for k in common) / len(common)
    margins = [t["margin"] for t in group if t.get("margin") is not None]
    return CheckpointMetrics(
        checkpoint=name,
        queries=len(group),
        verified_entries=state.get("verified_entries"),
        admitted_rules=state.get("admitted_rules"),
        distinct_positive_shown=len(shown),
        top_positive_id=top_id,
        top_positive_share=top_n / max(1, sum(tops.values())),
        churn=churn,
        churn_queries=shared,
        margin_mean=sum(margins) / len(margins) if margins else None,
        margin_positive_share=sum(m > 0 for m in margins) / len(margins) if margins else None,
        margin_queries=len(margins),
    )


def monitor(kb) -> list[CheckpointMetrics]:
    """Per-checkpoint metrics of a knowledge base from its traces and snapshot manifests."""
    manifests = {}
    for manifest in sorted((kb.root / "snapshots").glob("*/manifest.json")):
        data = json.loads(manifest.read_text())
        manifests[data["name"]] = data
    return checkpoint_metrics(read_traces(kb.traces_path), manifests)


class PanelMonitor:
    """Checkpoints of one run: snapshot the store, replay a panel of queries against the snapshot
    (each traced under the checkpoint's name), and read the monitor over those replays only (a
    run's own retrievals are not a panel: each unit asks once, so nothing could be compared)."""

    def __init__(self, kb, adjust=None):
        self.kb = kb
        self.adjust = adjust or (lambda q: q)  # e.g. a system's own k and type conditioning
        self.taken: list[tuple[str, int]] = []

    def checkpoint(self, name: str, panel: list, position: int) -> None:
        snap = self.kb.snapshot(name)
        try:
            for query in panel:
                snap.retrieve(self.adjust(query.model_copy(update={"checkpoint": name})))
        finally:
            snap.close()
        self.taken.append((name, position))

    def metrics(self) -> list[dict]:
        positions = dict(self.taken)
        traces = [t for t in read_traces(self.kb.traces_path) if t.get("checkpoint") in positions]
        manifests = {n: json.loads((self.kb.root / "snapshots" / n / "manifest.json").read_text()) for n in positions}
        return [{**m.model_dump(), "position": positions[m.checkpoint]} for m in checkpoint_metrics(traces, manifests)]
