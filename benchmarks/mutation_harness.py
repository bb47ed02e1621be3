"""Mutation test of the judge: do the scenarios catch wrong code that deploys fine?

Takes the `correct` units of a verified run (`migrator migrate ... --verify`), applies mutations
to their PostgreSQL output (harness.mutation: a constant, a comparison, an exception handler, a
NOTICE, an ORDER BY direction), re-verifies each mutant with that unit's scenarios, and reports
the share caught (category no longer `correct`). Bar: >= 95 %. A surviving mutant means the
scenarios cannot tell that change apart: add a scenario step.

    python benchmarks/mutation_harness.py fixtures/schemas/hr_payroll [--per-operator 2]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from harness.mutation import mutants  # noqa: E402
from harness.postgres import EmbeddedPostgres  # noqa: E402
from harness.scenarios import ScenarioFile, load_scenarios, load_transcript  # noqa: E402
from harness.verify import UnitToVerify, verify  # noqa: E402
from migrator.cli_commands import default_evidence  # noqa: E402
from migrator.output import PREAMBLE  # noqa: E402
from migrator.pipeline import MigrateOptions, migrate  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("schema_dirs", type=Path, nargs="+")
    ap.add_argument("--per-operator", type=int, default=2)
    args = ap.parse_args()
    totals, caught_by = Counter(), Counter()
    survivors: list[str] = []
    t0 = time.perf_counter()
    with EmbeddedPostgres() as engine:
        for src in args.schema_dirs:
            run_schema(engine, src, args.per_operator, totals, caught_by, survivors)
    n, c = sum(totals.values()), sum(caught_by.values())
    print(f"\nmutants: {n}, caught: {c} ({100 * c / max(n, 1):.1f} %), {time.perf_counter() - t0:.0f} s")
    for op in sorted(totals):
        print(f"  {op:<11} {caught_by[op]}/{totals[op]}")
    if survivors:
        print("surviving mutants (scenario gaps):")
        for s in survivors:
            print("  " + s)


def run_schema(engine, src: Path, per_op: int, totals: Counter, caught_by: Counter, survivors: list[str]) -> None:
    schema = src.name.lower()
    scen_path, trans_path = default_evidence(src, schema)
    out = Path(tempfile.mkdtemp(prefix="mutation-")) / schema
    report = migrate(src, out, MigrateOptions(force=True, deploy="embedded", verify=True, scenarios=scen_path,
                                              transcript=trans_path, progress=False))
    scenarios, transcript = load_scenarios(scen_path), load_transcript(trans_path)
    preamble = (out / PREAMBLE).read_text(encoding="utf-8")
    base = [UnitToVerify(u.id, (out / u.output).read_text(encoding="utf-8"), tuple(u.depends_on), bool(u.static_ok))
            for u in report.units]
    targets = [u for u in report.units if u.category == "correct" and u.steps]
    print(f"{schema}: {len(targets)} correct units with scenarios")
    for u in targets:
        own = ScenarioFile.model_validate({"schema": schema, "scenarios": [
            s.model_dump() for s in scenarios.scenarios if u.id in s.units]})
        index = next(i for i, b in enumerate(base) if b.unit_id == u.id)
        for m in mutants(base[index].sql, per_op):
            units = list(base)
            units[index] = UnitToVerify(u.id, m.text, base[index].depends_on, True)
            result = verify(engine, preamble, units, own, transcript, do_nothing=False)
            verdict = result.agent.verdicts[index]
            totals[m.operator] += 1
            if verdict.category != "correct":
                caught_by[m.operator] += 1
            else:
                survivors.append(f"{u.id}: {m.description}")


if __name__ == "__main__":
    main()
