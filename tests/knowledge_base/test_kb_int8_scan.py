"""The int8 first pass of dense scoring (knowledge_base.dense_int8) changes nothing a retrieval
returns: the bound holds on every row, and search_pool gives the same rows, scores and order as
with every exact float32 score, on random, clustered and duplicated vectors, with ties, pools,
type conditioning and MMR."""

from __future__ import annotations

import random

import numpy as np
import pytest
from kb_testing import exp

from knowledge_base import HashingEmbedder, KBConfig, KnowledgeBase, RetrievalQuery
from knowledge_base.dense import DenseIndex
from knowledge_base.retrieval import search_pool

dense_int8 = pytest.importorskip("knowledge_base.dense_int8")
if not dense_int8.available():
    pytest.skip("onnxruntime is not installed (the float32 scan is used)", allow_module_level=True)


def _vectors(n: int, dim: int, rng: np.random.Generator, kind: str) -> np.ndarray:
    if kind == "random":
        v = rng.standard_normal((n, dim))
    elif kind == "clustered":  # like sentence embeddings: a few topics, small spread
        centres = rng.standard_normal((8, dim))
        v = centres[rng.integers(0, 8, n)] + 0.15 * rng.standard_normal((n, dim))
    else:  # duplicates: many rows share a vector (exact ties in the dense score)
        base = rng.standard_normal((max(2, n // 10), dim))
        v = base[rng.integers(0, len(base), n)]
    v = v.astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _index(vectors: np.ndarray) -> DenseIndex:
    index = DenseIndex(vectors.shape[1])
    index.int8_min_rows = 1
    index.add(np.arange(1, len(vectors) + 1), vectors)
    return index


@pytest.mark.parametrize("kind", ["random", "clustered", "duplicates"])
def test_the_bound_holds_and_exact_values_are_the_full_scans(kind):
    rng = np.random.default_rng(1)
    x = _vectors(3000, 384, rng, kind)
    index = _index(x)
    for _ in range(20):
        q = _vectors(1, 384, rng, "random")[0]
        full = index.scores(q)
        bounded = index.ranking_scores(q)
        assert isinstance(bounded, dense_int8.BoundedScores)
        assert np.all(np.abs(full.astype(np.float64) - bounded.approx) <= bounded.bound)
        rows = rng.choice(len(x), 200, replace=False)
        np.testing.assert_array_equal(bounded.exact(rows), full[rows])  # bit for bit


class _Cat:
    """The catalog columns search_pool reads."""

    def __init__(self, n: int, rng: random.Random):
        from knowledge_base.catalog import EntryColumns, EntryMeta

        self.cat = EntryColumns()
        for i in range(n):
            self.cat.append(
                EntryMeta(
                    id=i + 1,
                    kind="experience",
                    polarity="+" if rng.random() < 0.7 else "-",
                    retrievable=True,
                    advisory=False,
                    stream_position=i,
                    task_id=f"t{i}",
                    task_group=f"g{i % 7}",
                    reference_target_id=f"r{i % 11}",
                    failure_type=rng.choice(["syntax", "type", "runtime"]),
                )
            )


@pytest.mark.parametrize("kind", ["random", "clustered", "duplicates"])
@pytest.mark.parametrize("mmr", [None, 0.5])
def test_search_pool_gives_the_same_outcome_as_the_exact_scan(kind, mmr):
    rng, prng = np.random.default_rng(7), random.Random(7)
    n = 2500
    x = _vectors(n, 384, rng, kind)
    index = _index(x)
    cat = _Cat(n, prng).cat
    cfg = KBConfig(mmr_lambda=mmr)
    for trial in range(30):
        q = _vectors(1, 384, rng, "clustered" if trial % 2 else "random")[0]
        lexical = np.zeros(n, dtype=np.float32)
        hits = rng.choice(n, rng.integers(0, n), replace=False)  # BM25: none, some or most rows match
        lexical[hits] = rng.choice([1.0, 2.5, 4.0], len(hits)).astype(np.float32)
        if trial % 5 == 0:
            lexical[:] = 0.0  # a constant channel
        pool = rng.random(n) < rng.choice([0.05, 0.5, 1.0])
        ftype = prng.choice([None, "syntax", "runtime"])
        k = int(rng.choice([1, 3, 10]))
        full = search_pool(cat, pool, ftype, index.scores(q), lexical, k, cfg, x)
        fast = search_pool(cat, pool, ftype, index.ranking_scores(q), lexical, k, cfg, x)
        assert (fast.eligible, fast.searched, fast.type_conditioned) == (
            full.eligible,
            full.searched,
            full.type_conditioned,
        )
        assert fast.ranked == full.ranked, (kind, trial)


def test_a_store_past_the_threshold_retrieves_what_the_float32_store_does(tmp_path, monkeypatch):
    rng = random.Random(3)
    texts = [f"rule {i} {rng.choice(['nvl', 'decode', 'rownum', 'merge'])} case {i % 13}" for i in range(600)]
    records = [exp(t, polarity="+" if i % 4 else "-", failure_type=rng.choice(["a", "b"])) for i, t in enumerate(texts)]
    vectors = _vectors(600, 384, np.random.default_rng(5), "clustered")
    results = []
    for threshold in (None, 100):
        monkeypatch.setattr(DenseIndex, "int8_min_rows", threshold)
        with KnowledgeBase(tmp_path / f"kb{threshold}", embedder=HashingEmbedder()) as kb:
            kb.add_many(records, vectors=vectors)
            assert (kb.dense._codes is not None) == (threshold is not None)
            out, qrng = [], random.Random(11)
            for i in range(40):
                query = RetrievalQuery(text=f"decode case {i % 13}", failure_type=qrng.choice([None, "a"]))
                r = kb.retrieve_vector(query, vectors[i * 7])
                out.append([(h.id, h.score, h.dense, h.lexical) for h in r.positives + r.negatives])
            kb.add_many(records[:50], vectors=vectors[:50])  # an uncoded tail, scored exactly
            r = kb.retrieve_vector(RetrievalQuery(text="nvl"), vectors[3])
            out.append([(h.id, h.score, h.dense, h.lexical) for h in r.positives + r.negatives])
        results.append(out)
    assert results[0] == results[1]
