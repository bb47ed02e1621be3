"""`migrator assess SRC [--out DIR]`: how big the migration is, before any conversion work."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXAMPLES = """examples:
  migrator assess fixtures/schemas/hr_payroll                       # counts and effort table on stdout
  migrator assess SCHEMA_DIR --out assessment/                     # + assessment.md, .json, .html
  migrator assess SCHEMA_DIR --disable-rule sql.connect_by         # what would not convert without a rule
"""
TOP = 10  # units listed on stdout by effort; the files list every unit


def add_assess_parser(sub) -> None:
    a = sub.add_parser(
        "assess",
        help="before migrating: object counts, constructs, what will not convert, Oracle packages, effort",
        description="Read and convert the export in memory (the same reader and rules as `migrate`; "
        "nothing is written, deployed or run) and report object counts by kind, lines, the "
        "constructs found, per unit the rules that will convert it and what will not convert (with "
        "the construct and line), calls into Oracle-supplied packages, and an effort estimate per "
        "unit and in total, with the model it uses written out.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    a.add_argument("src", type=Path, help="schema export directory")
    a.add_argument("--out", type=Path, help="write assessment.md, assessment.json and assessment.html here")
    a.add_argument("--schema", help="Oracle owner of unqualified objects (default: the directory name)")
    a.add_argument("--disable-rule", action="append", default=[], metavar="RULE_ID", help="as for migrate; repeatable")
    a.add_argument(
        "--scenarios",
        type=Path,
        help="scenario file: units it judges need no new scenario (default: <root>/scenarios/<schema>.yaml as for migrate)",
    )
    a.add_argument(
        "--no-calibration",
        action="store_true",
        help="do not measure rule risks on the fixture corpus (every rule counts as never judged)",
    )


def _print(a, written: list[Path]) -> None:
    from migrator.assess.render import counts_table

    print(f"{a.schema_name}: {a.units_total} units, {a.lines_total} lines (assessed in {a.seconds} s)")
    for line in counts_table(a):
        print("  " + line)
    e = a.effort
    print(f"  estimated effort: {e.total_hours} h — " + ", ".join(f"{c} {n}" for c, n in e.by_complexity.items()))
    missing = [(u, x) for u in a.units for x in u.will_not_convert]
    print(f"  will not convert: {len(missing)} construct(s) in {len({u.id for u, _ in missing})} unit(s)")
    for u, x in missing:
        print(f"    {u.id} ({u.source.rsplit(':', 1)[0]}:{x.file_line or '?'}): {x.construct_name}: {x.message}")
    for u in (u for u in a.units if u.conversion_error):
        print(f"    {u.id} ({u.source}): conversion fails: {u.conversion_error}")
    for p in a.packages:
        print(f"  Oracle package {p.package} ({', '.join(p.members) or '-'}): {p.units} unit(s), {p.status}")
    print(
        "  most effort: "
        + ", ".join(f"{u.id} {u.minutes:g} min" for u in sorted(a.units, key=lambda u: -u.minutes)[:TOP])
    )
    for path in written:
        print(f"  written: {path}")


def run_assess(args) -> int:
    from migrator.assess.assessment import AssessError, AssessOptions, assess
    from migrator.assess.render import write_assessment
    from migrator.batch.output import OutputDirError, check_overlap
    from migrator.cli.commands import default_evidence
    from migrator.convert.registry import UnknownRuleId, check_rule_ids
    from migrator.source.reader import SourceError

    try:
        check_rule_ids(args.disable_rule, "--disable-rule")
        if args.out is not None:
            check_overlap(args.src, args.out)
        scenarios = args.scenarios or default_evidence(args.src, (args.schema or args.src.name).lower())[0]
        opts = AssessOptions(args.schema, frozenset(args.disable_rule), scenarios, calibrate=not args.no_calibration)
        a = assess(args.src, opts)
    except (UnknownRuleId, OutputDirError, SourceError, AssessError) as exc:
        print(f"migrator: error: {exc}", file=sys.stderr)
        return 2
    written = write_assessment(a, args.out) if args.out is not None else []
    _print(a, written)
    return 0
