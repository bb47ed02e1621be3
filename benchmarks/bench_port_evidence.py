"""Synthesized evidence judged against a trusted port, per fixture schema that has one: how many
units are confirmed, how many are covered, and whether any wrong unit is accepted (issue 33).

A fixture schema `fixtures/schemas/S` has a trusted port when `fixtures/reference/S` exists (a
team's hand-written PostgreSQL port). For each: `scenarios synth` from the Oracle source alone,
`record --reference` on the port (its clock frozen at the scenarios' SYSDATE under libfaketime when
the library is there, else the real clock with clock-dependent steps marked), then `migrate
--verify` with every rule on. Printed per schema:

- units with steps: units the synthesized scenarios judge (steps > 0);
- covered: of those, units whose converted statements and branches all ran (coverage 100 %);
- confirmed: of those, units judged `correct`. With every rule on the fixture units are right
  (each schema's tests say so), so confirmed / units with steps is the confirmed share;
- accepted-but-wrong: a second `migrate --verify` with the rules that fix the schema's silently
  wrong units switched off (the FIXED_BY maps of its test module, when it has one): those units
  are wrong then, and any of them judged `correct` is accepted-but-wrong.

Goals: confirmed >= 80 %, covered >= 95 %, accepted-but-wrong 0.

    python benchmarks/bench_port_evidence.py                 # every schema with a port
    python benchmarks/bench_port_evidence.py branch_inputs   # one
    python benchmarks/bench_port_evidence.py --clock real    # the port on the real clock
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.engines.frozen_clock import FrozenClockPostgres, unavailable_reason
from harness.ground_truth.scenarios import dump_scenarios, dump_transcript
from harness.ground_truth.trusted_port import record_reference
from migrator.batch.output import preamble_sql, required_extensions
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.batch.sandboxing import open_engine
from migrator.evidence.synth import SynthOptions, synthesize

SCHEMAS = ROOT / "fixtures" / "schemas"
PORTS = ROOT / "fixtures" / "reference"
# the test module whose FIXED_BY names, per unit, the rules that fix a silently wrong conversion
WRONG_MAPS = {
    "subtle": "tests.migrator.evidence.test_subtle",
    "silent_sql": "tests.migrator.evidence.test_silent_sql",
    "silent_plsql": "tests.migrator.evidence.test_silent_plsql",
}


def ported_schemas() -> list[str]:
    return sorted(p.name for p in PORTS.iterdir() if p.is_dir() and (SCHEMAS / p.name).is_dir())


def fixing_rules(schema: str) -> dict[str, set[str]]:
    """unit -> the rules that fix it (empty when the schema has no silently wrong units)."""
    module = WRONG_MAPS.get(schema)
    if module is None:
        return {}
    fixed = importlib.import_module(module).FIXED_BY
    return {unit: set(v[0] if isinstance(v, tuple) else v) for unit, v in fixed.items()}


def verdicts(src: Path, work: Path, out: str, engine, disabled: frozenset[str] = frozenset()):
    report = migrate(src, work / out, MigrateOptions(
        force=True, deploy=engine.admin_dsn(), verify=True, progress=False, disabled_rules=disabled,
        scenarios=work / "s.yaml", transcript=work / "t.yaml"))  # fmt: skip
    return report.units


def run(schema: str, engine, clock: str, work: Path) -> dict[str, int]:
    src, port = SCHEMAS / schema, PORTS / schema
    t0 = time.perf_counter()
    result = synthesize(src, SynthOptions(engine=engine.admin_dsn(), progress=False))
    freeze = None
    if clock == "frozen":
        extensions = required_extensions()
        freeze = lambda instant: FrozenClockPostgres(instant, extensions)  # noqa: E731
    rec = record_reference(engine, port, result.scenarios, preamble=preamble_sql(schema, []), freeze=freeze,
                           check_clock=True)  # fmt: skip
    dump_scenarios(result.scenarios, work / "s.yaml")
    dump_transcript(rec.transcript, work / "t.yaml")
    units = verdicts(src, work, "on", engine)
    stepped = [u for u in units if u.steps]
    covered = [u for u in stepped if u.coverage_percent is None or u.coverage_percent >= 100]
    confirmed = [u for u in stepped if u.category == "correct"]
    wrong_map = fixing_rules(schema)
    accepted_wrong: list[str] = []
    if wrong_map:
        off = frozenset().union(*wrong_map.values())
        for u in verdicts(src, work, "off", engine, off):
            if u.name.split(".")[-1] in wrong_map and u.category == "correct":
                accepted_wrong.append(u.name)
    secs = time.perf_counter() - t0
    print(f"{schema}: {len(units)} units, {len(stepped)} with steps; "
          f"confirmed {len(confirmed)}/{len(stepped)}, covered {len(covered)}/{len(stepped)}, "
          f"accepted-but-wrong {len(accepted_wrong)}"
          + (f" (of {len(wrong_map)} wrong with their rules off)" if wrong_map else " (no wrong arm)")
          + f"; recording: {len(rec.clock_dependent)} step(s) clock-dependent, {len(rec.unrecorded)} unrecorded, "
          f"{len(rec.left_out)} scenario(s) left out; {secs:.0f} s")  # fmt: skip
    for u in stepped:
        if u.category != "correct" or u not in covered:
            print(f"  {u.name}: {u.category} {u.coverage or ''} — {(u.verdict or '')[:300]}")
    for name in accepted_wrong:
        print(f"  ACCEPTED BUT WRONG: {name}")
    return {"units": len(stepped), "covered": len(covered), "confirmed": len(confirmed),
            "accepted_wrong": len(accepted_wrong)}  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("schemas", nargs="*", help="fixture schema names (default: every one with a port)")
    ap.add_argument("--clock", choices=("auto", "frozen", "real"), default="auto")
    args = ap.parse_args()
    schemas = args.schemas or ported_schemas()
    clock = args.clock
    if clock == "auto":
        clock = "frozen" if unavailable_reason() is None else "real"
    elif clock == "frozen" and unavailable_reason() is not None:
        sys.exit(f"--clock frozen: {unavailable_reason()}")
    print(f"load: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; port clock: {clock}")
    total = {"units": 0, "covered": 0, "confirmed": 0, "accepted_wrong": 0}
    with open_engine("embedded") as engine:
        for schema in schemas:
            for k, v in run(schema, engine, clock, Path(tempfile.mkdtemp(prefix=f"bench-port-{schema}-"))).items():
                total[k] += v
    n = max(total["units"], 1)
    print(f"all: confirmed {total['confirmed']}/{total['units']} = {100 * total['confirmed'] / n:.1f} % (goal 80 %), "
          f"covered {total['covered']}/{total['units']} = {100 * total['covered'] / n:.1f} % (goal 95 %), "
          f"accepted-but-wrong {total['accepted_wrong']} (goal 0)")  # fmt: skip


if __name__ == "__main__":
    main()
