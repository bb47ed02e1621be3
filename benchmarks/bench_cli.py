"""What a user feels before and around the work: `migrator --help`, and a one-file schema with deploy.

Whole processes, interleaved, min / median / max:

* `migrator --help` against the bare interpreter (`python -c pass`): what our imports add. Goal
  < 150 ms.
* `migrator migrate ONE_FILE --out OUT` (deploy on the embedded default) with a server of its own
  against the same attached to the shared server (`migrator pg start`, started once here and
  stopped at the end): what the start-up costs.

    python benchmarks/bench_cli.py [--runs 15]

Independent check: hyperfine -w 3 -r 20 'migrator --help' 'python -c pass'
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def timed(cmd: list[str], env: dict | None = None) -> float:
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env={**os.environ, **(env or {})})
    elapsed = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {r.returncode}:\n{r.stderr[-1500:]}")
    return elapsed * 1000


def spread(values: list[float]) -> str:
    return f"min {min(values):7.1f} / median {statistics.median(values):7.1f} / max {max(values):7.1f} ms"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=15)
    args = ap.parse_args()
    migrator = str(BIN / "migrator")
    print(f"load before: {uptime()}")
    arms = {"migrator --help": [migrator, "--help"], "python -c pass": [sys.executable, "-c", "pass"]}
    for cmd in arms.values():  # warm the page cache and the .pyc files
        timed(cmd)
    times: dict[str, list[float]] = {a: [] for a in arms}
    for i in range(args.runs):
        for name in list(arms)[i % 2 :] + list(arms)[: i % 2]:
            times[name].append(timed(arms[name]))
    for name, t in times.items():
        print(f"{name:<16} {spread(t)}")
    work = Path(tempfile.mkdtemp(prefix="bench-cli-"))
    src = work / "one"
    src.mkdir()
    (src / "t.sql").write_text("CREATE TABLE t (id NUMBER(10) PRIMARY KEY, name VARCHAR2(40));\n")
    print(subprocess.run([migrator, "pg", "start"], capture_output=True, text=True).stdout.strip())
    deploy: dict[str, list[float]] = {"own server": [], "shared server": []}
    try:
        runs = max(3, args.runs // 3)
        for i in range(runs):
            for name in list(deploy)[i % 2 :] + list(deploy)[: i % 2]:
                out = work / f"out-{i}-{name[:3]}"
                env = {"MIGRATOR_PG_SHARED": "0"} if name == "own server" else {}
                deploy[name].append(timed([migrator, "migrate", str(src), "--out", str(out)], env))
    finally:
        subprocess.run([migrator, "pg", "stop", "--force"], capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    for name, t in deploy.items():
        print(f"one-file migrate with deploy, {name:<13} {spread(t)}")
    print(f"load after: {uptime()}  (cores: {os.cpu_count()})")
    helps, bare = statistics.median(times["migrator --help"]), statistics.median(times["python -c pass"])
    own, shared = statistics.median(deploy["own server"]), statistics.median(deploy["shared server"])
    print(
        f"HEADLINE migrator --help median {helps:.0f} ms [goal < 150 ms: {'met' if helps < 150 else 'missed'}] "
        f"(bare interpreter {bare:.0f} ms, {helps / bare:.1f}x); one-file schema with deploy {own:.0f} ms on its own "
        f"server, {shared:.0f} ms after `migrator pg start` ({own / shared:.2f}x)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
