"""Plain PL/SQL test suites: how many cases pass, counted from each suite's own summary lines, and
what `migrate` spends on suites when no tests are given.

    python benchmarks/bench_plain_suites.py [--pg-dsn DSN] [--reps 3]

1. For each plain-style fixture under fixtures/suites/ (`PLAIN`):
   `migrator migrate LIB --tests FIX/tests --out OUT`, then from OUT/tests.json the tests passed / total and the cases the suite's own summary lines count
   (`migrator.suites.output_lines.count_summaries`, the way a team reads its log).
2. `migrate` of each fixture schema (fixtures/schemas/*, --no-deploy) without --tests, `--reps`
   times, in a fresh interpreter each: the median seconds, and whether any `migrator.suites` module
   was imported (none is: the suite code is only imported under `--tests`, so it adds no time).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PLAIN = [
    "plain_calc",
    "plain_scripts",
    "plain_assert_pkg",
    "plain_raise",
    "plain_onefile",
    "plain_separate",
    "plain_queries",
    "plain_local_asserts",
    "plain_transactions",
]
LIB = {
    "plain_separate": "plain_scripts",
    "plain_queries": "plain_scripts",
    "plain_transactions": "plain_scripts",
}  # a suite of another fixture's library

_NO_TESTS = """
import sys, time
from pathlib import Path
from migrator.batch.pipeline import MigrateOptions, migrate
t0 = time.perf_counter()
migrate(Path(sys.argv[1]), Path(sys.argv[2]), MigrateOptions(schema=sys.argv[3], deploy=None, progress=False, workers=1))
took = time.perf_counter() - t0
print(took, sum(m.startswith("migrator.suites") for m in sys.modules))
"""


def suites(dsn: str | None) -> None:
    from migrator.suites.output_lines import count_summaries

    for name in PLAIN:
        fix = ROOT / "fixtures" / "suites" / name
        with tempfile.TemporaryDirectory(prefix="bench-plain-") as tmp:
            out = Path(tmp) / "out"
            lib = fix.parent / LIB.get(name, name) / "lib"
            cmd = [sys.executable, "-m", "migrator.cli.main", "migrate", str(lib), "--tests", str(fix / "tests")]
            cmd += ["--out", str(out), "--force", "--no-progress"] + (["--pg-dsn", dsn] if dsn else [])
            done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
            path = out / "tests.json"
            if not path.is_file():
                print(f"{name}: no tests.json: {done.stderr[-500:]}")
                continue
            tests = json.loads(path.read_text(encoding="utf-8"))
            t = tests["totals"]
            c = count_summaries([x["output"] for x in tests["tests"]])
            counted = f"{c.passed}/{c.total} cases in {c.lines} summary line(s)" if c.lines else "no summary line"
            print(f"{name}: tests {t['passed']}/{t['total']} passed; own summary lines: {counted}")


def no_tests(reps: int) -> None:
    for schema_dir in sorted((ROOT / "fixtures" / "schemas").iterdir()):
        if not schema_dir.is_dir():
            continue
        times, imported = [], 0
        for _ in range(reps):
            with tempfile.TemporaryDirectory(prefix="bench-notests-") as tmp:
                args = [sys.executable, "-c", _NO_TESTS, str(schema_dir), str(Path(tmp) / "o"), schema_dir.name]
                done = subprocess.run(args, capture_output=True, text=True, cwd=ROOT, check=True)
                took, mods = done.stdout.split()[-2:]
                times.append(float(took))
                imported = max(imported, int(mods))
        print(f"migrate {schema_dir.name} without --tests: median {statistics.median(times):.3f} s over {reps}; "
              f"migrator.suites modules imported: {imported}")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pg-dsn", default=None, help="PostgreSQL server (default: the embedded one)")
    ap.add_argument("--reps", type=int, default=3)
    args = ap.parse_args()
    suites(args.pg_dsn)
    no_tests(args.reps)


if __name__ == "__main__":
    main()
