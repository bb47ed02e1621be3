"""`migrator scenarios synth`: scenario files derived from the Oracle source (migrator.evidence)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

EXAMPLES = """examples:
  migrator scenarios synth fixtures/schemas/hr_payroll --out out/hr_payroll.synth.yaml
  migrator scenarios synth SCHEMA_DIR --out S.yaml --budget-steps 48 --pg-dsn postgresql://admin@db/postgres
  # then ground truth for the steps, from Oracle or from a PostgreSQL port the team trusts:
  migrator record SCHEMA_DIR --scenarios S.yaml --oracle user/pw@host:1521/ORCL --out T.yaml
"""


def add_scenarios_parser(sub) -> None:
    sc = sub.add_parser("scenarios", help="scenario files: synthesize them from the Oracle source")
    inner = sc.add_subparsers(dest="scenarios_command", required=True)
    s = inner.add_parser(
        "synth",
        help="derive scenario steps for every routine, view and trigger, kept by the code they execute",
        description="Read the Oracle source, convert and deploy it in the sandbox, and try candidate steps "
        "(inputs from signatures, the export's data and the bodies' literals) until every statement and "
        "branch of each unit's PL/pgSQL is executed or the budget ends. Writes steps only: record their "
        "ground truth with `migrator record --oracle` or `--reference`.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    s.add_argument("src", type=Path, help="schema export directory")
    s.add_argument("--out", type=Path, required=True, help="scenario file to write (YAML)")
    s.add_argument("--schema", help="Oracle owner of unqualified objects (default: the directory name)")
    s.add_argument("--budget-steps", type=int, default=32, help="candidate steps tried per target (default 32)")
    s.add_argument("--report", type=Path, help="also write per-target results (JSON)")
    s.add_argument("--pg-dsn", help="PostgreSQL to synthesize on (default: MIGRATOR_PG_DSN, else embedded)")
    from migrator.cli.main import executor_args

    executor_args(s)
    s.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help="progress bar")


def run_scenarios(args) -> int:
    import os
    from dataclasses import asdict

    from harness.engines.postgres import ENV_DSN, EngineUnavailable
    from harness.ground_truth.scenarios import dump_scenarios
    from migrator.evidence.synth import SynthOptions, synthesize
    from migrator.source.reader import SourceError

    if args.budget_steps < 1:
        print("migrator: error: --budget-steps must be at least 1", file=sys.stderr)
        return 2
    from migrator.cli.executor_choice import chosen_executor

    opts = SynthOptions(schema=args.schema, budget_steps=args.budget_steps, progress=args.progress,
                        engine=args.pg_dsn or os.environ.get(ENV_DSN) or "embedded",
                        executor=chosen_executor(args))  # fmt: skip
    try:
        result = synthesize(args.src, opts)
    except (SourceError, EngineUnavailable) as exc:
        print(f"migrator: error: {exc}", file=sys.stderr)
        return 2
    dump_scenarios(result.scenarios, args.out)
    if args.report:
        args.report.write_text(json.dumps([asdict(t) for t in result.targets], indent=2), encoding="utf-8")
    print(f"{args.out}: {len(result.scenarios.scenarios)} scenarios; {result.summary()}")
    for table, why in sorted(result.unseeded.items()):
        print(f"  no rows made for empty table {table}: {why}")
    for t in result.targets:
        if t.skipped:
            print(f"  no steps for {t.target} ({', '.join(t.units)}): {t.skipped}")
        elif t.probes and t.covered < t.probes:
            shown = ", ".join(t.uncovered[:4]) + (" ..." if len(t.uncovered) > 4 else "")
            print(f"  {t.target}: coverage {t.covered}/{t.probes}; not executed: {shown}")
    return 0
