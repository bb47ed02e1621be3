"""Is this checkout's conversion slower than another commit's? Both measured in the same run.

    python benchmarks/bench_convert_ab.py BASE_REF [--modules 60] [--rounds 8] [--workers 2]

The other commit is checked out into a temporary git worktree; both checkouts get their bytecode
compiled first (as an install has it). Then whole `migrate --no-deploy --no-memo --force` processes
on one generated corpus (`gen_schema.py`), into a folder per arm that is reused after the first
run (warm, as bench_convert.py's headline), alternating the two arms and rotating which goes first
each round, so load from elsewhere hits both alike. Prints min / median / max wall time per arm, the
ratio of the medians and the median of the per-round ratios, the ratio of median CPU time (the
process and its workers: it moves far less than wall time with load from elsewhere), and the
machine's load before and after. Not a
test: figures are printed, never asserted.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def run(checkout: Path, corpus: Path, out: Path, workers: int) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process and its workers)."""
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    cmd = [sys.executable, "-m", "migrator.cli.main", "migrate", str(corpus), "--out", str(out)]
    cmd += ["--force", "--no-deploy", "--no-memo", "--no-progress", "--workers", str(workers)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, check=False)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("base", help="the commit (or branch) to compare with")
    ap.add_argument("--modules", type=int, default=60)
    ap.add_argument("--rounds", type=int, default=8)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-ab-") as t:
        tmp = Path(t)
        base = tmp / "base"
        subprocess.run(["git", "worktree", "add", "-q", "--detach", str(base), args.base], cwd=ROOT, check=True)
        try:
            corpus = tmp / "corpus"
            subprocess.run(
                [
                    sys.executable,
                    str(ROOT / "benchmarks" / "gen_schema.py"),
                    str(corpus),
                    "--modules",
                    str(args.modules),
                ],
                check=True,
                capture_output=True,
            )
            arms = {"base": base, "this": ROOT}
            for checkout in arms.values():
                for pkg in ("migrator", "harness", "knowledge_base"):
                    subprocess.run([sys.executable, "-m", "compileall", "-q", str(checkout / pkg)], check=True)
            times: dict[str, list[float]] = {name: [] for name in arms}
            cpu: dict[str, list[float]] = {name: [] for name in arms}
            print("load before:", uptime())
            for name, checkout in arms.items():  # the cold run of each arm, not counted
                run(checkout, corpus, tmp / f"out-{name}", args.workers)
            for r in range(args.rounds):
                order = list(arms) if r % 2 == 0 else list(reversed(arms))
                for name in order:
                    wall, used = run(arms[name], corpus, tmp / f"out-{name}", args.workers)
                    times[name].append(wall)
                    cpu[name].append(used)
            print("load after: ", uptime())
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT, check=False)
    for name, ts in times.items():
        print(f"{name:5s} ({args.base if name == 'base' else 'this checkout'}): wall "
              f"min {min(ts):.3f} s, median {statistics.median(ts):.3f} s, max {max(ts):.3f} s; "
              f"CPU median {statistics.median(cpu[name]):.3f} s")  # fmt: skip
    ratio = statistics.median(times["this"]) / statistics.median(times["base"])
    per_round = statistics.median(a / b for a, b in zip(times["this"], times["base"]))
    cpu_ratio = statistics.median(cpu["this"]) / statistics.median(cpu["base"])
    # CPU time moves far less with other processes' load than wall time does on a shared machine
    print(f"HEADLINE this/base: wall {ratio:.3f} (median of per-round ratios {per_round:.3f}), CPU {cpu_ratio:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
