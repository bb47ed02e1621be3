"""Open a knowledge base and run N distinct retrieve() calls, then exit: the independent,
whole-process check of bench_kb_latency.py's headline (time it with N and with 0, alternately; the
difference divided by N is the mean per query, embedding included; N = 2000 keeps the ~1 s noise
of opening 100,000 entries small).

    python benchmarks/kb_query.py STORE [--queries 2000] [--print-times]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT.parent))
sys.path.insert(0, str(ROOT))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("store", type=Path)
    ap.add_argument("--queries", type=int, default=2000)
    ap.add_argument("--print-times", action="store_true", help="also print this process's own per-query timing")
    args = ap.parse_args()
    from bench_kb_latency import queries

    from knowledge_base import KnowledgeBase

    kb = KnowledgeBase(args.store, read_only=False)
    n = len(kb)
    kb.embedder.embed(["load the model"])  # what the N=0 run also pays
    # the bench's first 20 + count were used there; these come after them, none repeats
    import time

    times = []
    for q in queries(n, args.queries, offset=1000):
        t0 = time.perf_counter()
        kb.retrieve(q)
        times.append((time.perf_counter() - t0) * 1000)
    kb.close()
    if args.print_times and times:
        times.sort()
        print(f"in-process: p50 {times[len(times) // 2]:.2f} ms, mean {sum(times) / len(times):.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
