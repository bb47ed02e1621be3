"""Retrieval traces: one JSON line per retrieval call (what the monitor reads), and for a writable
store a `retrieval` line in the event mirror."""

from __future__ import annotations

import json
import uuid
from typing import Any

from knowledge_base.records import RetrievalResult
from knowledge_base.sqlstore import now

EVENTS = "experience_events.jsonl"  # the store's event mirror (knowledge_base.store)


def write_trace(kb, result: RetrievalResult) -> None:
    q = result.query
    trace: dict[str, Any] = {
        "trace_id": uuid.uuid4().hex[:16],
        "at": now(),
        "snapshot": kb.snapshot_name,
        "checkpoint": q.checkpoint or kb.snapshot_name,
        "embedder": result.embedder,
        "generation": kb.sql.generation(),
        "query": q.text,
        "task_id": q.task_id,
        "task_group": q.task_group,
        "stream_position": q.stream_position,
        "failure_type": q.failure_type,
        "held_out_targets": sorted(q.held_out_targets),
        "eligible": {p: r.eligible for p, r in result.pools.items()},
        "searched": {p: r.searched for p, r in result.pools.items()},
        "type_conditioned": {p: r.type_conditioned for p, r in result.pools.items()},
        "margin": None if result.margin is None else round(result.margin, 6),
        "relevant": sorted(q.relevant),
        "returned": [
            {
                "id": h.id,
                "polarity": h.polarity,
                "score": round(h.score, 6),
                "dense": round(h.dense, 6),
                "lexical": round(h.lexical, 6),
            }
            for h in result.positives + result.negatives
        ],
    }
    with open(kb.traces_path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(trace, sort_keys=True) + "\n")
    if not kb.read_only:
        event = {
            "seq": None,
            "at": trace["at"],
            "kind": "retrieval",
            "trace_id": trace["trace_id"],
            "returned": [r["id"] for r in trace["returned"]],
        }
        with open(kb.root / EVENTS, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(event, sort_keys=True) + "\n")
