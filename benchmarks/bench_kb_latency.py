"""Hybrid retrieval latency of the knowledge base at 10,000 and 100,000 entries.

Entry vectors are precomputed (random unit vectors: the cost of exact scoring does not depend on
their values); texts are synthetic migration rules, so BM25 works on realistic token statistics.
Query embedding is timed separately. Prints p50/p95 of `retrieve_vector` (eligibility, both polarity
pools, hybrid ranking, hits, trace append), the time from `ingest()` to the next query returning the
correction, and resident memory per 100,000 entries. Bars: p50 <= 5 ms at 10k, <= 20 ms at 100k,
visibility <= 50 ms. Not a test: figures are printed, never asserted.

    python benchmarks/bench_kb_latency.py [--sizes 10000,100000] [--queries 200]
"""

from __future__ import annotations

import argparse
import gc
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
sys.path.insert(0, str(ROOT))

from kb_corpus import filler

from knowledge_base import (
    Approval,
    Correction,
    Experience,
    HashingEmbedder,
    KnowledgeBase,
    Provenance,
    RetrievalQuery,
)
from knowledge_base.embedders import minilm_available

TYPES = ["syntax", "schema", "type", "semantics", "runtime", "dependency", "unknown"]
APPROVAL = Approval(approved_by="bench", approved_at="2026-11-29T00:00:00Z", reference="FIX-BENCH")


def rss_mb() -> float:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * 4096 / 2**20


def _release() -> None:
    """Collect garbage and hand freed heap back to the OS, so RSS deltas measure what is kept."""
    gc.collect()
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):
        pass


def records(n: int, rng: random.Random) -> list[Experience]:
    texts = filler(n, seed=7)
    return [
        Experience(
            polarity="+" if rng.random() < 0.8 else "-",
            failure_type=rng.choice(TYPES),
            context=t,
            provenance=Provenance(
                task_id=f"t{i}", task_group=f"g{i % 500}", stream_position=i, reference_target_id=f"r{i % 3000}"
            ),
        )
        for i, t in enumerate(texts)
    ]


def unit(n: int, dim: int, seed: int) -> np.ndarray:
    v = np.random.default_rng(seed).standard_normal((n, dim)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def pct(values, q) -> float:
    return float(np.percentile(np.asarray(values), q))


def time_queries(kb, n: int, count: int, typed: bool) -> tuple[list[float], list[float]]:
    """Wall-clock and this process's CPU time per query (ms); the machine is shared, so wall time
    includes waiting for a core while CPU time does not."""
    rng = random.Random(3)
    texts, qvecs = filler(count, seed=99), unit(count, kb.dim, 5)
    wall, cpu = [], []
    for i in range(count):
        task = rng.randrange(n)
        q = RetrievalQuery(
            text=texts[i],
            task_id=f"t{task}",
            task_group=f"g{task % 500}",
            stream_position=n,
            failure_type=rng.choice(TYPES) if typed else None,
            held_out_targets=frozenset({f"r{rng.randrange(3000)}"}),
        )
        t0, c0 = time.perf_counter(), time.process_time()
        kb.retrieve_vector(q, qvecs[i])
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
    return wall, cpu


def visibility(kb, rounds: int = 20) -> tuple[list[float], int]:
    times, seen = [], 0
    for i in range(rounds):
        text = f"written back correction number {i} zq{i}x for gap case {i}"
        corr = Correction(construct_id=f"gap-{i}", context=text, fix=f"fix {i}")
        t0 = time.perf_counter()
        cid = kb.ingest(corr, APPROVAL)
        r = kb.retrieve(RetrievalQuery(text=corr.construct_id + " " + text + " " + corr.fix, k_positive=1))
        times.append((time.perf_counter() - t0) * 1000)
        seen += r.positives[0].id == cid
    return times, seen


def run(n: int, queries: int, workdir: Path) -> None:
    _release()
    base_rss = rss_mb()
    t0 = time.perf_counter()
    kb = KnowledgeBase(workdir / f"kb{n}", embedder=HashingEmbedder())
    recs, vecs = records(n, random.Random(1)), unit(n, 384, 11)
    kb.add_many(recs, vectors=vecs)
    build_s = time.perf_counter() - t0
    del recs, vecs
    _release()
    build_mem = rss_mb() - base_rss
    time_queries(kb, n, 20, False)  # warm-up
    plain, typed = time_queries(kb, n, queries, False), time_queries(kb, n, queries, True)
    vis, seen = visibility(kb)
    t1 = time.perf_counter()
    kb.flush()
    flush_ms = (time.perf_counter() - t1) * 1000
    bm25_mb = sum(a.nbytes for a in kb.lexical._base.scores.values() if hasattr(a, "nbytes")) / 2**20
    print(f"{n:>7} entries (built in {build_s:.1f} s)")
    for name, (wall, cpu) in (("whole pools", plain), ("type-cond. ", typed)):
        print(
            f"        retrieval, {name} : p50 {pct(wall, 50):6.2f} ms  p95 {pct(wall, 95):6.2f} ms wall; "
            f"p50 {pct(cpu, 50):6.2f} ms CPU"
        )
    print(
        f"        ingest -> next query   : p50 {pct(vis, 50):6.2f} ms  max {max(vis):6.2f} ms "
        f"({seen}/{len(vis)} returned the new correction first; hashing embedder for the correction)"
    )
    print(f"        index persistence (every {kb.config.flush_every} writes, off the query path): {flush_ms:.0f} ms")
    faiss_mb = len(kb.dense) * 384 * 4 / 2**20
    kb.close()
    del kb
    _release()
    before = rss_mb()
    t1 = time.perf_counter()
    kb = KnowledgeBase(workdir / f"kb{n}")
    open_s = time.perf_counter() - t1
    _release()
    per = (rss_mb() - before) * 100000 / n
    print(
        f"        resident memory per 100,000 entries: {per:.0f} MB for a reopened store (opened in "
        f"{open_s:.1f} s; FAISS vectors {faiss_mb * 100000 / n:.0f} MB, BM25 matrix {bm25_mb * 100000 / n:.0f} MB); "
        f"{build_mem * 100000 / n:.0f} MB right after the bulk build (allocator slack included)"
    )
    kb.close()


def query_embedding() -> None:
    text = ["SELECT x.* FROM orders o, XMLTABLE('/order/line' PASSING o.doc COLUMNS id NUMBER PATH '@id') x"]
    for name, make in (("hashing-v1 (not semantic)", HashingEmbedder),) + (
        (("minilm-l6-v2", _minilm),) if minilm_available() else ()
    ):
        emb = make()
        emb.embed(text)
        times = []
        for _ in range(30):
            t0 = time.perf_counter()
            emb.embed(text)
            times.append((time.perf_counter() - t0) * 1000)
        print(f"query embedding, {name}: p50 {pct(times, 50):.2f} ms")


def _minilm():
    import torch

    from knowledge_base.embedders import MiniLMEmbedder

    torch.set_num_threads(1)
    return MiniLMEmbedder()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--queries", type=int, default=200)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        warm = KnowledgeBase(Path(tmp) / "warm-up", embedder=HashingEmbedder())  # imports, not entries
        warm.add_many(records(600, random.Random(0)), vectors=unit(600, 384, 0))
        warm.retrieve_vector(RetrievalQuery(text="warm up"), unit(1, 384, 1)[0])
        warm.close()
        for n in (int(s) for s in args.sizes.split(",")):
            run(n, args.queries, Path(tmp))
    query_embedding()
    return 0


if __name__ == "__main__":
    sys.exit(main())
