"""Evidence for a schema nobody wrote scenarios for, timed: synthesize, record, verify.

For each schema directory: `migrator scenarios synth` (convert, deploy, instrument, try
candidates, keep by coverage, stabilise), `record --reference` on the migration's own output as
the trusted port (numbered in deploy order, after the preamble), then `migrate --verify` with the
synthesized scenarios and that transcript — everything `migrate --verify` does, do-nothing arm
included. Prints seconds per phase, per unit, and the total; the goal is synth + record + verify
of a 100-unit schema under 60 s on 2 cores. Each phase runs in this process on one embedded
server started once (as `migrator` does per command); `uptime` is printed for the load.

    python benchmarks/bench_synth.py fixtures/schemas/hr_payroll fixtures/schemas/banking
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.ground_truth.scenarios import dump_scenarios, dump_transcript
from harness.ground_truth.trusted_port import record_reference
from migrator.batch.output import preamble_sql
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.batch.sandboxing import open_engine
from migrator.evidence.synth import SynthOptions, synthesize


def run(src: Path, engine, work: Path) -> dict[str, float]:
    times: dict[str, float] = {}
    t0 = time.perf_counter()
    result = synthesize(src, SynthOptions(engine=engine.admin_dsn(), progress=False))
    times["synth"] = time.perf_counter() - t0
    converted = migrate(src, work / "port-out", MigrateOptions(force=True, progress=False))
    port = work / "port"
    port.mkdir()
    for n, u in enumerate(converted.units, 1):
        (port / f"{n:04d}.sql").write_text((work / "port-out" / u.output).read_text(encoding="utf-8"), encoding="utf-8")
    packages = sorted({u.name for u in converted.units if u.kind == "package_spec"})
    t0 = time.perf_counter()
    rec = record_reference(engine, port, result.scenarios, preamble=preamble_sql(converted.schema_name, packages))
    times["record"] = time.perf_counter() - t0
    dump_scenarios(result.scenarios, work / "s.yaml")
    dump_transcript(rec.transcript, work / "t.yaml")
    t0 = time.perf_counter()
    report = migrate(src, work / "out", MigrateOptions(force=True, deploy=engine.admin_dsn(), verify=True,
                                                       scenarios=work / "s.yaml", transcript=work / "t.yaml",
                                                       progress=False))  # fmt: skip
    times["verify"] = time.perf_counter() - t0
    units = len(report.units)
    cats: dict[str, int] = {}
    for u in report.units:
        cats[u.category or "none"] = cats.get(u.category or "none", 0) + 1
    print(f"{converted.schema_name}: {units} units, {len(result.scenarios.scenarios)} scenarios; {result.summary()}")
    print(f"  categories with synthesized evidence: {dict(sorted(cats.items()))}")
    for phase, secs in times.items():
        print(f"  {phase:<7} {secs:6.1f} s   {1000 * secs / units:6.0f} ms/unit")
    total = sum(times.values())
    print(
        f"  total   {total:6.1f} s   {1000 * total / units:6.0f} ms/unit   (→ {100 * total / units:.0f} s per 100 units)"
    )
    return times


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("schema_dirs", type=Path, nargs="+")
    args = ap.parse_args()
    print(f"load: {os.getloadavg()[0]:.2f} {os.getloadavg()[1]:.2f} {os.getloadavg()[2]:.2f} on {os.cpu_count()} cores")
    with open_engine("embedded") as engine:
        for src in args.schema_dirs:
            run(src, engine, Path(tempfile.mkdtemp(prefix="bench-synth-")))


if __name__ == "__main__":
    main()
