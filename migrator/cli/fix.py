"""`migrator fix ...`: pre-registered fix cycles from the command line (see runbooks/review-a-fix-cycle.md)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from harness.judge.categories import Category

if TYPE_CHECKING:  # imported when a fix command runs, not for `migrator --help`
    from harness.fixcycles.gates import FixCycle

EXAMPLES = """examples:
  migrator fix new "Enable plsql.dbms_output"               # writes fix-cycles/FIX-001.yaml (a draft)
  migrator fix freeze FIX-001                               # hash hypothesis, change, predicates
  migrator fix run FIX-001 --settings settings.yaml         # baseline and candidate arms on the corpus
  migrator fix run FIX-004 --model bedrock:... --kb kb/      # a prompt or KB change: both arms run the agent
  migrator fix propose --kb kb/                             # draft cycles for rules that verified experiences support
  migrator fix show FIX-001                                 # flips with diffs, predicates met or not
  migrator fix decide FIX-001 promote --reviewer ana --reason "4 predicted flips, 0 regressions"
  migrator fix decide FIX-002 promote --reviewer ana --reason "..." --override "flip X blocked by FIX-003"
  migrator fix audit                                        # verify the hash chain of the audit log
"""

SUBCOMMANDS = {
    "new": ("write a draft fix cycle from the template", 'migrator fix new "Enable expr.nvl"'),
    "freeze": (
        "hash the hypothesis, change and predicates; later edits block run and decide",
        "migrator fix freeze FIX-001",
    ),
    "run": (
        "run the baseline and candidate arms on the whole corpus and evaluate the predicates",
        "migrator fix run FIX-001 --settings settings.yaml --corpus fixtures/schemas",
    ),
    "show": ("show state, arms, predicates and every flip with its output diff", "migrator fix show FIX-001"),
    "decide": (
        "promote (applies the change), revert or hold, with reviewer and reason",
        'migrator fix decide FIX-001 promote --reviewer ana --reason "predicted flips, no regressions"',
    ),
    "audit": ("verify the audit log's hash chain and list its entries", "migrator fix audit --cycles fix-cycles"),
    "propose": (
        "store rules that repeated verified experiences support as candidates and draft a cycle to admit each",
        "migrator fix propose --kb kb/ --cycles fix-cycles",
    ),
}


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--cycles",
        type=Path,
        default=Path("fix-cycles"),
        help="directory of FIX-NNN.yaml files and audit.jsonl (default: fix-cycles/)",
    )
    p.add_argument(
        "--settings",
        type=Path,
        default=Path("settings.yaml"),
        help="active settings file the baseline arm uses and promote rewrites (default: settings.yaml)",
    )
    p.add_argument(
        "--corpus",
        type=Path,
        default=Path("fixtures/schemas"),
        help="every schema directory under it is migrated and verified (default: fixtures/schemas)",
    )
    p.add_argument("--kb", type=Path, help="knowledge-base directory (needed for kb and kb_rule changes)")
    p.add_argument(
        "--model",
        help="the repair agent's model for both arms (bedrock:..., openai:..., replay:FILE, scripted:FILE); "
        "prompt and knowledge-base changes act only through the agent and need it",
    )
    p.add_argument("--attempts", type=int, default=3, help="repair attempts per unit in the arms (default 3)")
    p.add_argument(
        "--baselines",
        type=Path,
        help="on promote, write the candidate arm's categories as <schema>.json regression baselines here",
    )
    g = p.add_mutually_exclusive_group()
    g.add_argument("--pg-dsn", help="PostgreSQL for the arms (default: MIGRATOR_PG_DSN, else embedded)")
    g.add_argument("--pg", choices=["embedded", "testcontainers"], help="which PostgreSQL to run the arms on")
    from migrator.cli.main import executor_args

    executor_args(p)


def add_fix_parser(subparsers) -> None:
    fix = subparsers.add_parser(
        "fix",
        help="pre-registered, human-approved fix cycles",
        description="One change per cycle, predicates written before the run, frozen by "
        "hash, both arms run on real PostgreSQL against Oracle transcripts, and a reviewer's "
        "promote / revert / hold. Every state change is appended to a hash-chained audit log.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = fix.add_subparsers(dest="fix_command", required=True)
    parsers = {}
    for name, (help_text, example) in SUBCOMMANDS.items():
        parsers[name] = sub.add_parser(
            name,
            help=help_text,
            description=help_text,
            epilog=f"example:\n  {example}",
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        _common(parsers[name])
        if name == "new":
            parsers[name].add_argument("title", help="one line: what the change is")
        elif name not in ("audit", "propose"):
            parsers[name].add_argument("cycle", help="cycle id, e.g. FIX-001")
    d = parsers["decide"]
    d.add_argument("action", choices=["promote", "revert", "hold"])
    d.add_argument("--reviewer", required=True, help="who decides (recorded)")
    d.add_argument("--reason", required=True, help="why (recorded)")
    d.add_argument("--override", help="promote although a predicate failed; this reason is recorded")


def _context(args):
    from harness.engines.postgres import ENV_DSN
    from migrator.cli.executor_choice import chosen_executor
    from migrator.fixes.cycle import FixContext

    engine = args.pg_dsn or args.pg or os.environ.get(ENV_DSN) or "embedded"
    return FixContext(
        cycles=args.cycles,
        settings=args.settings,
        corpus=args.corpus,
        kb=args.kb,
        engine=engine,
        baselines=args.baselines,
        model=args.model,
        attempts=args.attempts,
        executor=chosen_executor(args)
        if getattr(args, "executor", None) or getattr(args, "cluster_dsn", None)
        else None,
    )


def run_fix(args) -> int:
    from harness.exceptions import HarnessError
    from harness.fixcycles.gates import GateError
    from migrator.errors import MigratorError

    try:
        return _HANDLERS[args.fix_command](args, _context(args))
    except GateError as exc:
        print(f"migrator fix: refused: {exc}", file=sys.stderr)
        return 1
    except BrokenPipeError:  # the reader of our output went away (`| head`): `main` ends quietly
        raise
    except (HarnessError, MigratorError, OSError) as exc:  # OSError: a cycle or settings file we cannot write
        print(f"migrator fix: error: {exc}", file=sys.stderr)
        return 2


def _new(args, ctx) -> int:
    from migrator.fixes.cycle import new_cycle

    path = new_cycle(ctx, args.title)
    print(f"draft written: {path} (fill in hypothesis, change, predicates; then `migrator fix freeze {path.stem}`)")
    return 0


def _freeze(args, ctx) -> int:
    from migrator.fixes.cycle import freeze_cycle

    cycle = freeze_cycle(ctx, args.cycle)
    print(
        f"{cycle.id} frozen: sha256 {cycle.frozen_hash} ({len(cycle.predicates.flips)} predicted flips, "
        f"max {cycle.predicates.max_regressions} regressions)"
    )
    return 0


def _run(args, ctx) -> int:
    from migrator.fixes.cycle import run_cycle

    cycle = run_cycle(ctx, args.cycle)
    for line in _arms(cycle) + _predicates(cycle):
        print(line)
    print(f"next: `migrator fix show {cycle.id}`, then `migrator fix decide {cycle.id} promote|revert|hold`")
    return 0 if cycle.ran.all_met else 1


def _show(args, ctx) -> int:
    from harness.fixcycles import gates
    from harness.fixcycles.gates import GateError
    from migrator.fixes.cycle import describe_change, flip_diffs, guard

    cycle = gates.load_cycle(ctx.cycles, args.cycle)
    print(f"{cycle.id}: {cycle.title} [{cycle.state}]")
    print(f"  hypothesis: {cycle.hypothesis.strip() or '(empty)'}")
    print(f"  change: {describe_change(cycle)}")
    if cycle.state != "draft":
        try:
            guard(ctx, cycle)
            print(f"  frozen: sha256 {cycle.frozen_hash} (intact)")
        except GateError as exc:
            print(f"  TAMPERED: {exc}")
    print(
        f"  predicted flips: {len(cycle.predicates.flips) or 'none'}; max regressions "
        f"{cycle.predicates.max_regressions}; do-nothing below candidate: {cycle.predicates.do_nothing_below}"
    )
    for f in cycle.predicates.flips:
        print(f"    {f.unit} -> {f.to}")
    if cycle.run:
        print(f"  run: {cycle.run.at} with {cycle.run.code or 'unrecorded code version'}")
        for line in _arms(cycle) + _predicates(cycle):
            print(line)
        flips = flip_diffs(cycle)
        predicted = {f.unit for f in cycle.predicates.flips}
        print(
            f"  flips: {len(flips)} ({sum(u not in predicted for u, *_ in flips)} not predicted); verdicts in "
            + ", ".join(f"{s.out_dir}/report.md" for s in cycle.run.candidate.schemas)
        )
        for unit, was, now, diff in flips:
            print(f"  --- {unit}: {was} -> {now}" + ("" if unit in predicted else "  (NOT PREDICTED)"))
            print("".join("      " + ln for ln in diff.splitlines(True)), end="")
    for d in cycle.decisions:
        extra = f"; override: {d.override}" if d.override else ""
        print(
            f"  decision: {d.action} by {d.reviewer} at {d.at}: {d.reason}{extra}"
            + (f"\n    applied: {d.applied}" if d.applied else "")
        )
    return 0


def _arms(cycle: FixCycle) -> list[str]:
    lines = [
        "  | arm | correct | wrong | unverified | rejected | do-nothing correct | steps agreeing |",
        "  |---|---|---|---|---|---|---|",
    ]
    for arm in (cycle.ran.baseline, cycle.ran.candidate):
        cells = [str(arm.total("agent_row", c)) for c in Category]
        steps = f"{sum(s.steps_agreeing for s in arm.schemas)}/{sum(s.steps_total for s in arm.schemas)}"
        lines.append(
            f"  | {arm.label} ({arm.applied}) | {' | '.join(cells)} | "
            f"{arm.total('do_nothing_row', 'correct')} | {steps} |"
        )
    return lines


def _predicates(cycle: FixCycle) -> list[str]:
    lines = [f"  predicates ({'all met' if cycle.ran.all_met else 'NOT all met'}):"]
    lines += [f"    [{'met' if p.met else 'FAILED'}] {p.name}: {p.detail}" for p in cycle.ran.predicates]
    return lines


def _decide(args, ctx) -> int:
    from migrator.fixes.cycle import decide_cycle

    cycle = decide_cycle(ctx, args.cycle, args.action, args.reviewer, args.reason, args.override)
    d = cycle.decisions[-1]
    print(f"{cycle.id}: {d.action} recorded (reviewer {d.reviewer}, {d.at})")
    print(f"  applied: {d.applied}" if d.applied else "  nothing written (only the decision and the audit entry)")
    return 0


def _audit(args, ctx) -> int:
    from harness.fixcycles import gates
    from migrator.fixes.cycle import audit_consistency

    report = gates.verify_chain(ctx.audit)
    entries = gates.audit_entries(ctx.audit) if report.ok else []
    for e in entries:
        print(f"  {e['seq']:>4} {e['at']} {e['cycle']} {e['event']} {_audit_detail(e['detail'])}")
    if not report.ok:
        print(
            f"TAMPERED: {ctx.audit} line {report.first_bad_line}: {report.problem} "
            f"({report.entries} entries before it verify)"
        )
        return 1
    print(f"audit chain intact: {report.entries} entries, head {report.last_hash[:16]}")
    problems = audit_consistency(ctx)
    for problem in problems:
        print(f"INCONSISTENT: {problem}")
    return 1 if problems else 0


def _audit_detail(detail: dict) -> str:
    keys = ("action", "reviewer", "override", "all_met", "flips", "settings_version", "title")
    return " ".join(f"{k}={detail[k]}" for k in keys if detail.get(k) is not None)


def _propose(args, ctx) -> int:
    from migrator.fixes.kb_changes import propose_cycles

    found = propose_cycles(ctx)
    for cycle_id, entry, new in found:
        state = "drafted" if new else "already proposed"
        print(f"  {cycle_id}: rule entry {entry} ({state})")
    fresh = [c for c, _, new in found if new]
    if fresh:
        print(
            f"next: write the predicted flips in {', '.join(fresh)}, then `migrator fix freeze`, `run --model ...`, `decide`"
        )
    elif not found:
        print("no new proposal: no construct has enough verified experiences that no rule stands for yet")
    return 0


_HANDLERS = {
    "new": _new,
    "freeze": _freeze,
    "run": _run,
    "show": _show,
    "decide": _decide,
    "audit": _audit,
    "propose": _propose,
}
