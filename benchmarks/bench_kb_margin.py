"""Study-4 reproduction: retrieval of a written-back correction as the knowledge base grows, and
what the default embedder's int8 quantisation costs in quality.

12 hand-written Oracle -> PostgreSQL rules, padded with synthetic filler to 120, 1,200 and 12,000
entries (and the bare 12); by default half the filler are hard negatives (neighbouring constructs:
JSON_TABLE, XMLELEMENT, nested tables...). For the XMLTABLE gap case it prints the top 3 before and
after ingesting one approved correction (MISS/HIT), the correct entry's rank, and the margin between
the correct entry and the best irrelevant one in cosine and in L2 distance (EPAM Table XXIV's unit).
The margin is not given in hybrid score: min-max normalisation gives the top hit 1.000 whatever its
lead. Then it ingests seven corrections one by one into the 12-rule base and shows whether a later
one pushes an earlier one out of the top 3. Each embedder is run in turn on the same entries; the
headline compares the default (MiniLM int8, onnxruntime) with its peer, torch MiniLM fp32, and
gives the mean cosine between their vectors. Not a test: figures are printed, never asserted.

    python benchmarks/bench_kb_margin.py [--embedders minilm,minilm-torch] [--sizes 12,120,1200,12000] [--near 0.5]
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
sys.path.insert(0, str(ROOT))

from kb_corpus import GAPS, RULES, filler

from knowledge_base import Approval, Correction, KnowledgeBase, RetrievalQuery, Rule, make_embedder
from knowledge_base.records import entry_text

APPROVAL = Approval(approved_by="reviewer", approved_at="2026-11-29T12:00:00Z", reference="FIX-STUDY4")


def base_records(size: int, near: float = 0.0) -> list[Rule]:
    rules = [
        Rule(construct_id=cid, idiom=title, paragraph=text, status="admitted", advisory=False)
        for cid, title, text in RULES
    ]
    fill = [
        Rule(construct_id=f"filler-{i:05d}", idiom="synthetic", paragraph=text, status="admitted", advisory=False)
        for i, text in enumerate(filler(max(0, size - len(rules)), near=near))
    ]
    return rules + fill


def correction(gap) -> Correction:
    cid, _, context, fix = gap
    return Correction(construct_id=cid, context=context, fix=fix)


def label(kb, hit) -> str:
    return kb.get(hit.id).record.construct_id


def margins(kb, query: RetrievalQuery, qvec, correct_id: int) -> dict:
    hits = kb.retrieve_vector(query.model_copy(update={"k_positive": 10}), qvec).positives
    mine = [h for h in hits if h.id == correct_id]
    other = [h for h in hits if h.id != correct_id]
    dense = kb.dense.scores(qvec)
    ids = kb.dense.ids()
    cos_correct = float(dense[ids == correct_id][0])
    cos_other = float(dense[ids != correct_id].max())
    l2 = lambda c: math.sqrt(max(0.0, 2 - 2 * c))  # noqa: E731
    best_dense = int(ids[ids != correct_id][int(np.argmax(dense[ids != correct_id]))])
    return {
        "rank": 1 + int((dense[ids != correct_id] > cos_correct).sum()),
        "next_hybrid": label(kb, other[0]),
        "hybrid_rank": 1 + [h.id for h in hits].index(correct_id) if mine else None,
        "next_dense": kb.get(best_dense).record.construct_id,
        "cos_correct": cos_correct,
        "cos_next": cos_other,
        "l2_correct": l2(cos_correct),
        "l2_next": l2(cos_other),
    }


def run_size(size: int, records, vectors, embedder, workdir: Path) -> dict:
    gap = GAPS[0]
    query = RetrievalQuery(text=gap[1])
    with KnowledgeBase(workdir / f"kb{size}", embedder=embedder) as kb:
        kb.add_many(records[:size], vectors=vectors[:size])
        qvec = embedder.embed([query.text])[0]
        before = kb.retrieve_vector(query, qvec).positives
        t0 = time.perf_counter()
        cid = kb.ingest(correction(gap), APPROVAL)
        after = kb.retrieve_vector(query, qvec).positives
        visible_ms = (time.perf_counter() - t0) * 1000
        m = margins(kb, query, qvec, cid)
        hit = "HIT" if cid in [h.id for h in after] else "MISS"
        was = "HIT" if gap[0] in [label(kb, h) for h in before] else "MISS"
        print(f"{size:>6} | {was} -> {hit:<4} | top-3 before: {', '.join(label(kb, h) for h in before)}")
        print(
            f"{'':>6} |              | top-3 after:  {', '.join(label(kb, h) for h in after)}"
            f"  (ingest + next query {visible_ms:.1f} ms)"
        )
        print(
            f"{'':>6} | rank: hybrid {m['hybrid_rank']}, cosine {m['rank']} | cosine {m['cos_correct']:.3f} vs "
            f"{m['cos_next']:.3f} margin {m['cos_correct'] - m['cos_next']:+.3f} | L2 {m['l2_correct']:.3f} "
            f"vs {m['l2_next']:.3f} margin {m['l2_next'] - m['l2_correct']:+.3f}"
        )
        print(f"{'':>6} | best irrelevant: by hybrid score {m['next_hybrid']}, by cosine {m['next_dense']}")
        return {"size": size, "hit": hit, "margin": m["cos_correct"] - m["cos_next"], "rank": m["rank"]}


def independence(records, vectors, embedder, workdir: Path) -> int:
    print(
        "\nSeven corrections ingested one by one into the 12-rule base "
        "(rank of each correction for its own gap query; '-' = out of the top 3)"
    )
    print("after ingesting      | " + " ".join(f"{g[0][:12]:>12}" for g in GAPS))
    worst_pushout = 0
    with KnowledgeBase(workdir / "kb-seven", embedder=embedder) as kb:
        kb.add_many(records[:12], vectors=vectors[:12])
        qvecs = embedder.embed([g[1] for g in GAPS])
        ids: list[int] = []
        for i, gap in enumerate(GAPS):
            ids.append(kb.ingest(correction(gap), APPROVAL))
            ranks = []
            for j in range(i + 1):
                top = [h.id for h in kb.retrieve_vector(RetrievalQuery(text=GAPS[j][1]), qvecs[j]).positives]
                ranks.append(top.index(ids[j]) + 1 if ids[j] in top else None)
            worst_pushout += sum(r is None for r in ranks)
            cells = [f"{'-' if r is None else r:>12}" for r in ranks] + [f"{'':>12}"] * (len(GAPS) - i - 1)
            print(f"{i + 1}. {gap[0]:<17} | " + " ".join(cells))
    print(
        f"pushed out of the top 3 by a later correction: {worst_pushout} of {len(GAPS) * (len(GAPS) + 1) // 2} checks"
    )
    return worst_pushout


def _one_thread() -> None:
    """On a shared 2-core machine torch's second thread mostly contends; one is faster here."""
    try:
        import torch

        torch.set_num_threads(1)
    except ImportError:
        pass


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--embedders",
        default="minilm,minilm-torch",
        help="comma-separated; the first is measured, the second is its peer (default: minilm,minilm-torch; "
        "also hashing, minilm-int8, bge-m3:PATH)",
    )
    ap.add_argument("--sizes", default="12,120,1200,12000")
    ap.add_argument(
        "--near",
        type=float,
        default=0.5,
        help="share of filler that are hard negatives about neighbouring constructs (0..1; default 0.5)",
    )
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    _one_thread()
    records = base_records(max(sizes), args.near)
    texts = [entry_text(r) for r in records]
    results, vectors_by = {}, {}
    for spec in args.embedders.split(","):
        embedder = make_embedder(spec)
        t0 = time.perf_counter()
        vectors = embedder.embed(texts)
        vectors_by[embedder.name] = vectors
        print(f"\n=== embedder: {embedder.name}; embedded {len(records)} entries in {time.perf_counter() - t0:.1f} s")
        print(f"filler: synthetic, {args.near:.0%} hard negatives about neighbouring constructs")
        print("gap case: XMLTABLE; correct = the ingested correction, next = best irrelevant entry\n")
        print("  size | before -> after")
        with tempfile.TemporaryDirectory() as tmp:
            rows = [run_size(size, records, vectors, embedder, Path(tmp)) for size in sizes]
            pushed = independence(records, vectors, embedder, Path(tmp))
        results[embedder.name] = (rows, pushed)
    names = list(results)
    print()
    if len(names) == 2:
        a, b = (vectors_by[n] for n in names)
        agree = (a * b).sum(axis=1)
        print(
            f"cosine between the two embedders' vectors of the same {len(a)} entries: mean {agree.mean():.4f}, "
            f"min {agree.min():.4f}"
        )
    for name in names:
        rows, pushed = results[name]
        last = rows[-1]
        print(
            f"HEADLINE {name}: at {last['size']} entries ({args.near:.0%} hard negatives) {last['hit']}, cosine rank "
            f"{last['rank']}, cosine margin {last['margin']:+.3f}; margins by size "
            + ", ".join(f"{r['size']}: {r['margin']:+.3f}" for r in rows)
            + f"; pushed out by a later correction: {pushed}"
        )
    if len(names) == 2:
        ours, peer = (results[n][0][-1]["margin"] for n in names)
        print(
            f"HEADLINE quality cost of {names[0]} vs {names[1]}: cosine margin {ours:+.3f} vs {peer:+.3f} "
            f"({ours - peer:+.3f}; ratio {ours / peer:.2f})"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
