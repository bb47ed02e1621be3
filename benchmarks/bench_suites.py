"""How many of a real library's own tests pass on PostgreSQL: the count, and why each other fails.

    python benchmarks/bench_suites.py [--root ../shared/realworld] [--keep DIR]

Runs the one documented command for semver (with its `debug` dependency), the Pete framework and
semver's own Pete test packages:

    migrator migrate ROOT/semver --out OUT --force --tests ROOT/pete --tests ROOT/semver_tests

and prints, from OUT/tests.json, passed / total test methods (the issue's bar: 22 of 24), then one
line per test that did not pass: its outcome, its message (the assertion, or why it could not run)
and the first DBMS_OUTPUT line naming a failing sample. Nothing is asserted: this prints figures.
Where the root is absent (a checkout without `../shared/realworld`) it says so and exits 0.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_REALWORLD = ROOT.parent / "shared" / "realworld"
SUITES = {"semver": ("semver", ["pete", "semver_tests"])}


def run(root: Path, name: str, out: Path) -> tuple[dict, float, str]:
    library, test_dirs = SUITES[name]
    cmd = [sys.executable, "-m", "migrator.cli.main", "migrate", str(root / library), "--out", str(out), "--force"]
    for d in test_dirs:
        cmd += ["--tests", str(root / d)]
    t0 = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - t0
    path = out / "tests.json"
    if not path.is_file():
        return {}, seconds, done.stdout + done.stderr
    return json.loads(path.read_text(encoding="utf-8")), seconds, " ".join(cmd)


def first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else ""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--root", type=Path, default=DEFAULT_REALWORLD)
    ap.add_argument("--keep", type=Path, help="write the run's output here (default: a temporary folder)")
    args = ap.parse_args(argv)
    if not (args.root / "semver").is_dir():
        print(f"{args.root / 'semver'} is absent: nothing to measure")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-suites-") as tmp:
        out = args.keep or Path(tmp) / "semver"
        tests, seconds, cmd = run(args.root, "semver", out)
        if not tests:
            print(f"semver: no tests.json ({cmd[-2000:]})")
            return 1
        totals = tests["totals"]
        print(f"semver + debug + Pete + semver_tests: {totals['passed']}/{totals['total']} test methods pass "
              f"on PostgreSQL ({totals['failed']} failed, {totals['error']} error, {totals['skipped']} skipped) "
              f"in {seconds:.1f} s")  # fmt: skip
        print(f"  command: {cmd}")
        for t in tests["tests"]:
            if t["outcome"] == "passed":
                continue
            sample = next((line for line in t["output"] if "fail" in line.lower()), "")
            print(f"  {t['name']}: {t['outcome']}: {first_line(t['message'])[:240]}")
            if sample:
                print(f"      first failing sample: {sample[:240]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
