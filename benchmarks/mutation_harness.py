"""Mutation test of the judge: do the scenarios catch wrong code that deploys fine?

With --synth the scenarios are synthesized from the Oracle source and their ground truth is
recorded on the migration's own output (the trusted port), so the figure measures the
synthesized evidence alone.

Takes the `correct` units of a verified run (`migrator migrate ... --verify`), applies mutations
to their PostgreSQL output (harness.judge_quality.mutation: a constant, a comparison, an exception handler, a
NOTICE, an ORDER BY direction), re-verifies each mutant with that unit's scenarios, and reports
the share caught (category no longer `correct`). Bar: >= 95 %. A surviving mutant means the
scenarios cannot tell that change apart: add a scenario step. A mutant that no input can tell
apart (harness.judge_quality.mutation states why, e.g. `x = NULL` -> `x <> NULL`: both always NULL) is run too,
and counted apart, printed with its reason, when it survives; one that is caught counts as caught
and is flagged: the equivalence claim was wrong.

    python benchmarks/mutation_harness.py fixtures/schemas/hr_payroll [--per-operator 2] [--synth]
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

import psycopg

from harness.engines.postgres import EmbeddedPostgres, scratch_database
from harness.ground_truth.scenarios import load_scenarios, load_transcript
from harness.judge.deploy import deploy_units
from harness.judge.verify import UnitToVerify, verify
from harness.judge_quality.mutation import mutants
from migrator.batch.output import (
    PREAMBLE,
    required_extensions,
)
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.cli.commands import default_evidence


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("schema_dirs", type=Path, nargs="+")
    ap.add_argument("--per-operator", type=int, default=2)
    ap.add_argument("--unit", action="append", default=[], help="only mutate these unit ids (repeatable)")
    ap.add_argument(
        "--synth",
        action="store_true",
        help="judge with scenarios synthesized from the Oracle source (migrator scenarios synth), recorded with "
        "--reference on the migration's own output as the trusted port, instead of the hand-written evidence",
    )
    args = ap.parse_args()
    totals, caught_by = Counter(), Counter()
    survivors: list[str] = []
    overwritten: list[str] = []
    equivalent: list[str] = []
    t0 = time.perf_counter()
    with EmbeddedPostgres(extensions=required_extensions()) as engine:
        for src in args.schema_dirs:
            run_schema(engine, src, args.per_operator, totals, caught_by, survivors, overwritten, set(args.unit),
                       synth=args.synth, equivalent=equivalent)  # fmt: skip
    n, c = sum(totals.values()), sum(caught_by.values())
    print(f"\nmutants: {n}, caught: {c} ({100 * c / max(n, 1):.1f} %), {time.perf_counter() - t0:.0f} s")
    for op in sorted(totals):
        print(f"  {op:<11} {caught_by[op]}/{totals[op]}")
    print(f"not counted: {len(overwritten)} mutants of code a later unit replaces (deployed database unchanged)")
    if equivalent:
        print(f"not counted: {len(equivalent)} equivalent mutants (no input tells them apart; they survived):")
        for s in equivalent:
            print("  " + s)
    if survivors:
        print("surviving mutants (scenario gaps):")
        for s in survivors:
            print("  " + s)


# Everything a deployment defines that behaviour can depend on (routines, views, triggers).
_FINGERPRINT = """
SELECT md5(coalesce(string_agg(d, E'\n' ORDER BY d), '')) FROM (
  SELECT pg_get_functiondef(p.oid) AS d FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
   WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND p.prokind IN ('f', 'p')
  UNION ALL SELECT pg_get_viewdef(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
   WHERE c.relkind IN ('v', 'm') AND n.nspname NOT IN ('pg_catalog', 'information_schema')
  UNION ALL SELECT pg_get_triggerdef(t.oid) FROM pg_trigger t WHERE NOT t.tgisinternal) s
"""


def context(original: str, mutated: str) -> str:
    """The mutated spot: the first differing line, before -> after."""
    for a, b in zip(original.splitlines(), mutated.splitlines()):
        if a != b:
            return f"{a.strip()[:160]}\n   => {b.strip()[:160]}"
    return ""


def fingerprint(engine, preamble: str, units: list[UnitToVerify]) -> str:
    """What the deployed database defines. A mutant whose unit is later replaced (e.g. a package
    spec's helper functions that the body redefines) leaves it unchanged: it cannot be observed
    by any scenario and is counted apart, not as caught or survived."""
    with scratch_database(engine, prefix="fp") as dsn:
        deploy_units(dsn, preamble, [(u.unit_id, u.sql, u.depends_on) for u in units])
        with psycopg.connect(dsn) as conn:
            return conn.execute(_FINGERPRINT).fetchone()[0]


def synthesized_evidence(engine, src: Path, work: Path) -> tuple[Path, Path]:
    """Scenarios synthesized from the Oracle source, and their outcomes recorded on the migration's
    own output (numbered in deploy order) as the trusted port: what the mutants must differ from."""
    from harness.ground_truth.scenarios import dump_scenarios, dump_transcript
    from harness.ground_truth.trusted_port import record_reference
    from migrator.batch.output import preamble_sql
    from migrator.evidence.synth import SynthOptions, synthesize

    port_out = work / "port-conversion"
    report = migrate(src, port_out, MigrateOptions(force=True, progress=False))
    port = work / "port"
    port.mkdir()
    for n, u in enumerate(report.units, 1):
        (port / f"{n:04d}.sql").write_text((port_out / u.output).read_text(encoding="utf-8"), encoding="utf-8")
    t0 = time.perf_counter()
    result = synthesize(src, SynthOptions(engine=engine.admin_dsn(), progress=False))
    t1 = time.perf_counter()
    packages = sorted({u.name for u in report.units if u.kind == "package_spec"})
    rec = record_reference(engine, port, result.scenarios, preamble=preamble_sql(report.schema_name, packages))
    print(f"{report.schema_name}: synthesized {len(result.scenarios.scenarios)} scenarios in {t1 - t0:.1f} s "
          f"({result.summary()}); recorded on the port in {time.perf_counter() - t1:.1f} s")  # fmt: skip
    paths = work / "synth.yaml", work / "synth-transcript.yaml"
    dump_scenarios(result.scenarios, paths[0])
    dump_transcript(rec.transcript, paths[1])
    return paths


def run_schema(
    engine,
    src: Path,
    per_op: int,
    totals: Counter,
    caught_by: Counter,
    survivors: list[str],
    overwritten: list[str],
    only: set[str],
    synth: bool = False,
    equivalent: list[str] | None = None,
) -> None:
    schema = src.name.lower()
    out = Path(tempfile.mkdtemp(prefix="mutation-")) / schema
    scen_path, trans_path = synthesized_evidence(engine, src, out.parent) if synth else default_evidence(src, schema)
    report = migrate(
        src,
        out,
        MigrateOptions(
            force=True, deploy="embedded", verify=True, scenarios=scen_path, transcript=trans_path, progress=False
        ),
    )
    scenarios, transcript = load_scenarios(scen_path), load_transcript(trans_path)
    preamble = (out / PREAMBLE).read_text(encoding="utf-8")
    base = [
        UnitToVerify(u.id, (out / u.output).read_text(encoding="utf-8"), tuple(u.depends_on), bool(u.static_ok))
        for u in report.units
    ]
    targets = [u for u in report.units if u.category == "correct" and u.steps and (not only or u.id in only)]
    print(f"{schema}: {len(targets)} correct units with scenarios")
    reference = fingerprint(engine, preamble, base)
    before_n, before_c = sum(totals.values()), sum(caught_by.values())
    for u in targets:
        own = scenarios.model_copy(update={"scenarios": [s for s in scenarios.scenarios if u.id in s.units]})
        index = next(i for i, b in enumerate(base) if b.unit_id == u.id)
        for m in mutants(base[index].sql, per_op):
            units = list(base)
            units[index] = UnitToVerify(u.id, m.text, base[index].depends_on, True)
            if fingerprint(engine, preamble, units) == reference:
                overwritten.append(f"{u.id}: {m.description}")
                continue
            result = verify(engine, preamble, units, own, transcript, do_nothing=False)
            verdict = result.agent.verdicts[index]
            if m.equivalent and verdict.category == "correct" and equivalent is not None:
                equivalent.append(f"{u.id}: {m.description} ({m.equivalent})\n      {context(base[index].sql, m.text)}")
                continue
            if m.equivalent:
                print(f"  caught a mutant claimed equivalent (the claim is wrong): {u.id}: {m.description}")
            totals[m.operator] += 1
            if verdict.category != "correct":
                caught_by[m.operator] += 1
            else:
                survivors.append(f"{u.id}: {m.description}\n      {context(base[index].sql, m.text)}")
    n, c = sum(totals.values()) - before_n, sum(caught_by.values()) - before_c
    print(f"{schema}: mutants caught {c}/{n} ({100 * c / max(n, 1):.1f} %)")


if __name__ == "__main__":
    main()
