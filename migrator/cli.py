"""Thin command line: parse arguments, call the library, print a summary, set the exit code.

Exit codes: 0 every unit converted (and deployed, when asked); 1 some units failed; 2 bad usage
or unreadable input.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from harness.postgres import ENV_DSN

EXAMPLES = """examples:
  migrator migrate fixtures/schemas/hr_payroll --out out/hr_payroll
  migrator migrate SCHEMA_DIR --out OUT --force --no-deploy
  migrator migrate SCHEMA_DIR --out OUT --resume          # continue an interrupted run
  migrator migrate SCHEMA_DIR --out OUT --pg-dsn postgresql://user@host/db
"""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="migrator", description="Oracle → PostgreSQL migration agent.",
                                     epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    m = sub.add_parser("migrate", help="convert a schema export directory to PostgreSQL",
                       description="Read an Oracle schema export (SQL*Plus scripts), split it into units, "
                       "order them by dependency, convert each deterministically, check every output with "
                       "PostgreSQL's parser and deploy it on a scratch PostgreSQL.",
                       epilog=EXAMPLES, formatter_class=argparse.RawDescriptionHelpFormatter)
    m.add_argument("src", type=Path, help="schema export directory")
    m.add_argument("--out", type=Path, required=True, help="output directory (must be empty unless --force/--resume)")
    m.add_argument("--schema", help="Oracle owner of unqualified objects (default: the directory name)")
    m.add_argument("--force", action="store_true", help="overwrite a non-empty output directory")
    m.add_argument("--resume", action="store_true", help="continue an interrupted run; finished units are not redone")
    m.add_argument("--disable-rule", action="append", default=[], metavar="RULE_ID",
                   help="switch a rule off (e.g. expr.nvl, or a whole family: plsql.*); repeatable")
    engine = m.add_mutually_exclusive_group()
    engine.add_argument("--pg-dsn", help="deploy on this PostgreSQL (scratch databases are created and dropped); "
                        "default: MIGRATOR_PG_DSN, else an embedded server")
    engine.add_argument("--pg", choices=["embedded", "testcontainers"], help="which PostgreSQL to deploy on")
    engine.add_argument("--no-deploy", action="store_true", help="convert and parse only; do not deploy")
    m.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="progress bar (default: when stderr is a terminal)")
    return parser


def _print_summary(report, out: Path) -> None:
    s = report.summary
    print(f"{report.schema_name}: {s.units} units in {s.seconds:.1f} s — " +
          ", ".join(f"{k} {v}" for k, v in sorted(s.by_status.items())))
    print(f"  parses with pglast: {s.static_ok}/{s.units}")
    if s.deployed is not None:
        print(f"  deployed on PostgreSQL ({report.engine}): {s.deployed}/{s.units}")
    if report.preamble_error:
        print(f"  preamble failed: {report.preamble_error}")
    errors = [i for i in report.issues if i.severity == "error"]
    for issue in errors:
        print(f"  input error {issue.file}:{issue.line}: {issue.code}: {issue.message}")
    for u in report.units:
        problem = u.error or u.static_error or u.deploy_error
        if problem or u.unconverted:
            what = problem.splitlines()[0] if problem else "; ".join(i.construct for i in u.unconverted)
            print(f"  {u.id} ({u.source}): {u.status}: {what}")
    print(f"  report: {out / 'report.md'}")


def _migrate(args) -> int:
    from migrator.output import OutputDirError
    from migrator.pipeline import MigrateOptions, exit_code, migrate
    from migrator.source import SourceError

    deploy = None if args.no_deploy else (args.pg_dsn or args.pg or os.environ.get(ENV_DSN) or "embedded")
    opts = MigrateOptions(schema=args.schema, force=args.force, resume=args.resume,
                          disabled_rules=frozenset(args.disable_rule), deploy=deploy, progress=args.progress)
    try:
        report = migrate(args.src, args.out, opts)
    except (SourceError, OutputDirError) as exc:
        print(f"migrator: error: {exc}", file=sys.stderr)
        return 2
    _print_summary(report, args.out)
    return exit_code(report)


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "migrate":
        return _migrate(args)
    return 2


if __name__ == "__main__":
    sys.exit(main())
