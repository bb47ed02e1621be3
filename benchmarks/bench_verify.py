"""Verification cost per unit, as `migrator migrate --verify` pays it: whole processes, per schema.

`migrate --verify` reads and converts, starts (or attaches to) PostgreSQL, opens the sandbox
(execution role, scratch databases), deploys every unit into a template, resolves every body's
inner references (plpgsql_check where installed; on the embedded server pglast + PostgreSQL's
PREPARE of each statement), runs each scenario on its own clone of the template, runs the
do-nothing arm the same way, and writes the reports. Arms, each a whole `migrator` process,
interleaved schema by schema with the order rotating every round:

* `verify`          `migrate SRC --out OUT --verify` on the embedded default (a server of its own)
* `verify, shared`  the same with `migrator pg start` done once before: attached, no start-up
* `convert only`    `migrate SRC --out OUT --no-deploy`: what the verification is added to

Headline: verification time per unit = (verify - convert only) / units, summed over the fixture
schemas, median over rounds; the peer ratio is verify / convert only, per round. The report's own
figures (references method, scenario time median/p95, verification seconds) are printed beside.

    python benchmarks/bench_verify.py [--rounds 3] [fixtures/schemas/hr_payroll ...]

Independent whole-process check: `hyperfine -r 3 -p 'rm -rf OUT' 'migrator migrate SRC --out OUT --verify'`
for each schema, minus the same with --no-deploy, divided by the units.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MIGRATOR = [sys.executable, "-m", "migrator.cli.main"]
ARMS = {
    "verify": (["--verify"], {"MIGRATOR_PG_SHARED": "0"}),
    "verify, shared": (["--verify"], {}),
    "convert only": (["--no-deploy"], {"MIGRATOR_PG_SHARED": "0"}),
}


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def run(src: Path, out: Path, flags: list[str], env: dict[str, str]) -> tuple[float, dict]:
    shutil.rmtree(out, ignore_errors=True)
    cmd = [*MIGRATOR, "migrate", str(src), "--out", str(out), *flags]
    t0 = time.perf_counter()
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env={**os.environ, **env})
    elapsed = time.perf_counter() - t0
    if r.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stderr[-2000:]}")
    return elapsed, json.loads((out / "report.json").read_text())


def spread(values: list[float], unit: str) -> str:
    return f"min {min(values):.1f} / median {statistics.median(values):.1f} / max {max(values):.1f} {unit}"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("schemas", nargs="*", type=Path)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    dirs = args.schemas or sorted(p for p in (ROOT / "fixtures" / "schemas").iterdir() if p.is_dir())
    print(f"load before: {uptime()}")
    started = subprocess.run([*MIGRATOR, "pg", "start"], capture_output=True, text=True, cwd=ROOT)
    print(started.stdout.strip())
    work = Path(tempfile.mkdtemp(prefix="bench-verify-"))
    arms = list(ARMS)
    totals: dict[str, list[float]] = {a: [] for a in arms}
    units = 0
    reports: dict[str, dict] = {}
    try:
        for r in range(args.rounds):
            round_total = dict.fromkeys(arms, 0.0)
            units = 0
            for k, src in enumerate(dirs):
                order = arms[(r + k) % len(arms) :] + arms[: (r + k) % len(arms)]
                for arm in order:
                    flags, env = ARMS[arm]
                    elapsed, report = run(src, work / src.name / arm.replace(" ", "_").replace(",", ""), flags, env)
                    round_total[arm] += elapsed
                    if arm == "verify":
                        reports[src.name] = report
                units += len(reports[src.name]["units"])
            for arm in arms:
                totals[arm].append(round_total[arm])
            print(
                f"round {r + 1}: "
                + ", ".join(f"{a} {round_total[a]:.2f} s" for a in arms)
                + f" ({len(dirs)} schemas, {units} units)"
            )
    finally:
        shutil.rmtree(work, ignore_errors=True)
        print(
            subprocess.run(
                [*MIGRATOR, "pg", "stop", "--force"], capture_output=True, text=True, cwd=ROOT
            ).stdout.strip()
        )
    print()
    for name, rep in reports.items():
        v = rep["verification"] or {}
        rows = {row["arm"]: row["by_category"] for row in v.get("rows", [])}
        print(
            f"{name}: {len(rep['units'])} units; references: {v.get('references_method')}; verification "
            f"{v.get('seconds')} s in-process; scenario median {v.get('scenario_seconds_median')} s, "
            f"p95 {v.get('scenario_seconds_p95')} s; arms: {rows}"
        )
    per_unit = {a: [1000 * (t - c) / units for t, c in zip(totals[a], totals["convert only"])] for a in arms[:2]}
    for arm in arms:
        print(f"{arm:<15} whole processes, all schemas: {spread(totals[arm], 's')}")
    for arm in arms[:2]:
        print(f"{arm:<15} verification per unit (minus convert only): {spread(per_unit[arm], 'ms')}")
    ratios = [v / c for v, c in zip(totals["verify"], totals["convert only"])]
    shared = [v / s for v, s in zip(totals["verify"], totals["verify, shared"])]
    print(f"verify / convert only, per round: {spread(ratios, 'x')}")
    print(f"verify (own server) / verify (shared server), per round: {spread(shared, 'x')}")
    print(f"load after: {uptime()}  (cores: {os.cpu_count()})")
    print(
        f"HEADLINE migrate --verify (everything it does, own embedded server): "
        f"{statistics.median(per_unit['verify']):.0f} ms per unit over {units} units "
        f"({statistics.median(totals['verify']):.1f} s whole processes vs {statistics.median(totals['convert only']):.1f} s "
        f"converting only, {statistics.median(ratios):.1f}x); with `migrator pg start`: "
        f"{statistics.median(per_unit['verify, shared']):.0f} ms per unit"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
