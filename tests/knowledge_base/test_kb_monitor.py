"""Monitor: per-checkpoint state, distinct positives shown, top-positive share, churn."""

from __future__ import annotations

import pytest
from kb_testing import exp

from knowledge_base import RetrievalQuery
from knowledge_base.monitor import checkpoint_metrics, jaccard_distance, monitor


def trace(ck, query, pos, neg=()):
    return {
        "checkpoint": ck,
        "query": query,
        "task_id": None,
        "failure_type": None,
        "returned": [{"id": i, "polarity": "+"} for i in pos] + [{"id": i, "polarity": "-"} for i in neg],
    }


def test_metrics_hand_computed():
    traces = [
        trace("ck1", "q1", [1, 2]),
        trace("ck1", "q2", [1]),
        trace("ck1", "q3", [], [9]),
        trace("ck2", "q1", [1, 3]),
        trace("ck2", "q2", [4]),
        trace("ck2", "q4", [4, 1]),
    ]
    m1, m2 = checkpoint_metrics(traces, {"ck1": {"state": {"verified_entries": 2, "admitted_rules": 0}}})
    assert (m1.queries, m1.distinct_positive_shown, m1.top_positive_id) == (3, 2, 1)
    assert m1.top_positive_share == 1.0 and m1.churn is None and m1.verified_entries == 2
    # q1: {1,2} vs {1,3} -> 1 - 1/3; q2: {1} vs {4} -> 1; q3, q4 not shared
    assert m2.churn == pytest.approx(((1 - 1 / 3) + 1) / 2) and m2.churn_queries == 2
    assert (m2.distinct_positive_shown, m2.top_positive_id, m2.top_positive_share) == (3, 4, pytest.approx(2 / 3))
    assert m2.verified_entries is None
    assert jaccard_distance(set(), set()) == 0.0


def test_monitor_over_snapshots(kb):
    a = kb.add_experience(exp("null handling coalesce"))
    kb.add_experience(exp("null handling failed attempt", "-"))
    panel = [RetrievalQuery(text="null handling"), RetrievalQuery(text="coalesce")]
    ck1 = kb.snapshot("ck1")
    for q in panel:
        ck1.retrieve(q)
    kb.add_experience(exp("null handling with a default value"))
    ck2 = kb.snapshot("ck2")
    for q in panel:
        ck2.retrieve(q)
    m1, m2 = monitor(kb)
    assert (m1.checkpoint, m1.verified_entries, m1.distinct_positive_shown) == ("ck1", 1, 1)
    assert m1.top_positive_id == a and m1.top_positive_share == 1.0
    assert (m2.checkpoint, m2.verified_entries) == ("ck2", 2)
    assert m2.distinct_positive_shown == 2 and m2.churn_queries == 2
    # each query now returns {a, b} plus the same negative where it had {a} (+ negative): 1/3 each
    assert m2.churn == pytest.approx(1 / 3)


def test_margin_per_checkpoint_hand_computed():
    traces = [
        {**trace("ck1", "q1", [1]), "margin": 0.3},
        {**trace("ck1", "q2", [2]), "margin": -0.1},
        {**trace("ck1", "q3", [2]), "margin": None},  # nothing relevant (or nothing else) in its pool
        {**trace("ck2", "q1", [1]), "margin": 0.2},
    ]
    m1, m2 = checkpoint_metrics(traces, {})
    assert m1.margin_mean == pytest.approx(0.1) and m1.margin_positive_share == 0.5 and m1.margin_queries == 2
    assert m2.margin_mean == pytest.approx(0.2) and m2.margin_positive_share == 1.0
    assert checkpoint_metrics([trace("ck1", "q", [1])], {})[0].margin_mean is None
