"""Open a knowledge base and run N distinct retrieve() calls, then exit: the independent,
whole-process check of bench_kb_latency.py's headline (time it with N and with 0; the difference
divided by N is the mean per query, embedding included).

    python benchmarks/kb_query.py STORE [--queries 300]
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
    ap.add_argument("--queries", type=int, default=300)
    args = ap.parse_args()
    from bench_kb_latency import queries

    from knowledge_base import KnowledgeBase

    kb = KnowledgeBase(args.store, read_only=False)
    n = len(kb)
    kb.embedder.embed(["load the model"])  # what the N=0 run also pays
    # the bench's first 20 + count were used there; these come after them, none repeats
    for q in queries(n, args.queries, offset=1000):
        kb.retrieve(q)
    kb.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
