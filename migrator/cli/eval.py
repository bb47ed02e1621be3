"""`migrator eval ...`: does memory make the agent better? The seed's protocol as one command."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXAMPLES = """examples:
  migrator eval run fixtures/eval/plsql-memory-sensitive.yaml --out out/eval-power     # expect "helps"
  migrator eval run fixtures/eval/plsql-memory-blind.yaml --out out/eval-blind         # expect "no measurable effect"
  migrator eval run my-schema-eval.yaml --out out/eval --progress                       # your schema, your model
  migrator eval make-fixture --out fixtures/eval/plsql                                  # regenerate the PL/SQL fixture
"""


def add_eval_parser(subparsers) -> None:
    ev = subparsers.add_parser(
        "eval",
        help="measure whether memory helps: baselines, grouped split, leakage audit, statistics, pictures",
        description="Run the evaluation protocol of the seed paper on any task adapter (PL/SQL, Text-to-SQL, "
        "SWE): model-free baselines M0-M3, rules-only, the agent without and with memory on the same units and "
        "the same initial prediction; a reference-grouped split with a leakage audit that must read 0; "
        "resolved-only counts; stream orders and repeats; paired group bootstrap, exact McNemar with Holm, "
        "interval-based verdicts; learning curve and monitor figures (eval.json, eval.md, eval.html, PNGs).",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = ev.add_subparsers(dest="eval_command", required=True)
    run = sub.add_parser(
        "run",
        help="run an evaluation config",
        description="Run an evaluation config (see runbooks/measure-memory.md for every field and number).",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument("config", type=Path, help="evaluation config (YAML)")
    run.add_argument(
        "--out", type=Path, required=True, help="output folder: eval.json, eval.md, eval.html, PNGs, runs/"
    )
    run.add_argument("--force", action="store_true", help="replace an earlier evaluation in --out")
    run.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None, help="progress bar (default: on a terminal)"
    )
    fx = sub.add_parser(
        "make-fixture",
        help="write the templated PL/SQL evaluation fixture and its two configs",
        epilog="example:\n  migrator eval make-fixture --out fixtures/eval/plsql",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    fx.add_argument("--out", type=Path, required=True, help="fixture folder (the configs go beside it)")


def run_eval_command(args) -> int:
    if args.eval_command == "make-fixture":
        from migrator.eval.fixture import write_fixture

        for path in write_fixture(args.out):
            print(path)
        return 0
    from migrator.eval.config import load_config
    from migrator.eval.runner import EvalRefused, run_eval

    cfg = load_config(args.config)
    progress = sys.stderr.isatty() if args.progress is None else args.progress
    try:
        data = run_eval(cfg, args.out, force=args.force, progress=progress)
    except EvalRefused as exc:
        print(f"migrator eval: refused: {exc} (see {args.out / 'eval.md'})", file=sys.stderr)
        return 1
    print_summary(data, args.out)
    return 0


def print_summary(data: dict, out: Path) -> None:
    print(
        f"{data['title'] or 'evaluation'}: {data['split']['test_units']} held-out units in {data['split']['test_groups']} groups"
    )
    print(
        f"  leakage: held-out references seen in training {data['leakage']['held_out_seen']}, own-reference retrievals {data['leakage']['retrieved_own_reference']}"
    )
    for s in data["systems"]:
        sp = s["spread"]
        print(
            f"  {s['name']:<18} correct {s['correct']:6.1f} / {s['units']}  (min {sp['min']}, median {sp['median']}, max {sp['max']})"
        )
    for c in data["comparisons"]:
        print(
            f"  {c['a']} - {c['b']}: {c['diff']:+.1f} points [{c['ci_low']:+.1f}, {c['ci_high']:+.1f}], p(Holm) {c['p_holm']:.3g}: {c['verdict']}"
        )
    print(f"  written: {out / 'eval.md'}, {out / 'eval.html'}, {out / 'eval.json'}, {out / 'learning_curve.png'}")
