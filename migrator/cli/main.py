"""Thin command line: parse arguments, call the library, print a summary, set the exit code.

Exit codes: 0 success (every unit converted/deployed; no regression); 1 some units failed or a
regression; 2 bad usage or unreadable input (a MigratorError or HarnessError: its message, no
traceback; also an OSError — a folder that may not be written, a full disk — and a PostgreSQL
connection or DSN error: the environment's refusal, not a bug); 3 an internal error — a bug,
printed with its traceback and a request to report it, never passed off as the user's mistake;
130 interrupted (Ctrl-C: one line saying what was kept); 141 the reader of the output went away
(`| head`: nothing printed).

Only argparse and the parser builders are imported here: a command's handler (and with it
psycopg, numpy, the converter, the knowledge base) is imported when that command runs, so
`migrator --help` and a usage error answer at once (benchmarks/bench_cli.py measures it).
"""

from __future__ import annotations

import argparse
import atexit
import difflib
import importlib
import os
import sys
from pathlib import Path
from typing import NoReturn

from knowledge_base.cli import add_kb_parser
from migrator.cli.assess import add_assess_parser
from migrator.cli.data import add_data_parser
from migrator.cli.eval import add_eval_parser
from migrator.cli.fix import add_fix_parser
from migrator.cli.pg import add_pg_parser
from migrator.cli.review import add_review_parser
from migrator.cli.scenarios import add_scenarios_parser
from migrator.cli.swe import add_swe_parser
from migrator.cli.text2sql import add_text2sql_parser

INTERNAL_ERROR = 3

EXAMPLES = """examples:
  migrator migrate fixtures/schemas/hr_payroll --out out/hr_payroll
  migrator migrate fixtures/schemas/hr_payroll --out out/hr --force --verify
  migrator migrate SCHEMA_DIR --out OUT --resume          # continue an interrupted run
  migrator migrate SCHEMA_DIR --out OUT --tests tests/    # also run the team's own PL/SQL tests on PostgreSQL
  migrator migrate SCHEMA_DIR --out OUT --verify --model bedrock:anthropic.claude-3-5-sonnet-20240620-v1:0 --kb kb/
  migrator verify out/hr --scenarios fixtures/scenarios/hr_payroll.yaml --transcript fixtures/transcripts/hr_payroll.yaml
  migrator regress fixtures/schemas/hr_payroll --baseline fixtures/baselines/hr_payroll.json
  migrator record fixtures/schemas/hr_payroll --oracle testcontainers --out transcript.yaml
  migrator record fixtures/schemas/hr_payroll --reference port/ --out transcript.yaml   # a trusted PostgreSQL port
  migrator swe run INSTANCES.jsonl --repos CLONES --model M --out OUT   # SWE-bench-format repair (PMCoder)
  migrator review out/hr --open                            # static review site: OUT/review/index.html
  migrator assess fixtures/schemas/hr_payroll --out assessment/   # size and effort, before migrating
  migrator eval run fixtures/eval/plsql-memory-sensitive.yaml --out out/eval   # does memory help?
  migrator data load export/data --pg-dsn $DSN --out load/   # table data at volume: COPY, rejects, checksums
"""


def _positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, got {value}")
    return value


def _engine_args(p: argparse.ArgumentParser) -> None:
    g = p.add_mutually_exclusive_group()
    g.add_argument(
        "--pg-dsn",
        help="PostgreSQL server to deploy on: only scratch databases are created and dropped "
        "there. A superuser or CREATEROLE role gets a dedicated unprivileged execution role per run; a "
        "CREATEDB-only role runs converted code itself (refused if it holds a server-file/program role). "
        "See the README's Security model. Default: MIGRATOR_PG_DSN, else an embedded server",
    )
    g.add_argument("--pg", choices=["embedded", "testcontainers"], help="which PostgreSQL to deploy on")
    executor_args(p)


def executor_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--executor",
        metavar="local|ray[:ADDRESS]",
        help="where scenarios run: here (local, the default) or on a Ray cluster (ray: a local one; ray:auto: "
        "the one this machine belongs to; ray:HOST:PORT or ray:ray://HOST:10001). Needs the `cluster` extra. "
        "Default: the settings file's harness.executor",
    )
    p.add_argument(
        "--cluster-dsn",
        action="append",
        default=[],
        metavar="DSN",
        help="with --executor ray: a PostgreSQL server for one node (repeatable; a pool, one server per "
        "node); default: an embedded server on every node",
    )


def _evidence_args(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--scenarios",
        type=Path,
        help="scenario file (default: fixtures-style sibling "
        "<root>/scenarios/<schema>.yaml next to <root>/schemas/<schema>)",
    )
    p.add_argument("--transcript", type=Path, help="Oracle transcript (default: <root>/transcripts/<schema>.yaml)")


def _add_migrate(sub) -> None:
    m = sub.add_parser(
        "migrate",
        help="convert a schema export directory to PostgreSQL",
        description="Read an Oracle schema export (SQL*Plus scripts), split it into units, order "
        "them by dependency, convert each deterministically, check every output with PostgreSQL's "
        "parser, deploy it on a scratch PostgreSQL and (with --verify) judge it against Oracle.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    m.add_argument("src", type=Path, help="schema export directory")
    m.add_argument("--out", type=Path, required=True, help="output directory (must be empty unless --force/--resume)")
    m.add_argument("--schema", help="Oracle owner of unqualified objects (default: the directory name)")
    m.add_argument(
        "--multi-schema",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="read SRC as a folder of schema exports, one schema per top-level folder (named after it). "
        "Default: detected when SRC holds no SQL file itself and two or more folders that do; "
        "--no-multi-schema reads the whole tree as one schema",
    )
    m.add_argument(
        "--schema-map",
        action="append",
        default=[],
        metavar="FOLDER=SCHEMA",
        help="in a multi-schema run, the schema owning a folder's objects (default: the folder's name); repeatable",
    )
    m.add_argument(
        "--directory",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="map an Oracle directory object (UTL_FILE's location, BFILENAME's directory) to a folder on the "
        "PostgreSQL server, written into support/00_extensions.sql for the administrator who installs it "
        "(during verification every directory is a scratch folder of the sandbox); repeatable",
    )
    m.add_argument("--force", action="store_true", help="overwrite a non-empty output directory")
    m.add_argument("--resume", action="store_true", help="continue an interrupted run; finished units are not redone")
    m.add_argument(
        "--disable-rule",
        action="append",
        default=[],
        metavar="RULE_ID",
        help="switch a rule off (e.g. expr.decode, or a whole family: plsql.*); unknown ids are "
        "refused; the ids are in migrator/convert/registry.py and in each unit's rules_applied; repeatable",
    )
    m.add_argument(
        "--settings",
        type=Path,
        help="active settings file (disabled rules, prompt paragraphs, harness); changed only through fix cycles",
    )
    m.add_argument("--no-deploy", action="store_true", help="convert and parse only; do not deploy")
    m.add_argument("--verify", action="store_true", help="run the scenarios and compare with Oracle's transcript")
    m.add_argument(
        "--model",
        help="repair units the rules get wrong with an LLM: bedrock:<modelId>, "
        "openai:<base_url>#<model>, replay:<file.jsonl>, scripted[:<file.yaml>] (needs --verify)",
    )
    m.add_argument("--kb", type=Path, help="knowledge base directory (experience memory) for the repair agent")
    m.add_argument("--attempts", type=int, default=3, help="repair attempts per unit (default 3)")
    m.add_argument(
        "--retrieval",
        default="fixed",
        choices=["fixed", "bandit", *(f"arm:{a}" for a in ("none", "failure", "structure", "skill", "mix"))],
        help="with --kb: what fills each repair prompt's memory section: the store's fixed typed retrieval "
        "(default), the LinUCB controller choosing an arm per attempt (bandit), or always one arm",
    )
    m.add_argument(
        "--checkpoint-every",
        type=int,
        metavar="N",
        help="with --kb: snapshot the memory every N units and report the monitor's figures "
        "(default: about eight checkpoints per run, at least 50 units apart)",
    )
    m.add_argument(
        "--oracle-version",
        metavar="V",
        help="the Oracle release the export was written for, as conditional compilation sees it "
        "(DBMS_DB_VERSION; default 19.0)",
    )
    m.add_argument(
        "--plsql-ccflags",
        metavar="FLAGS",
        help="PLSQL_CCFLAGS for conditional compilation ($$flag), e.g. 'debug:FALSE,level:2' (default: none)",
    )
    m.add_argument(
        "--memo",
        action=argparse.BooleanOptionalAction,
        default=True,
        help="reuse a converted SQL fragment when the same text comes again in this run (default on; "
        "--no-memo converts every fragment, as benchmarks/bench_convert.py's headline does)",
    )
    m.add_argument(
        "--workers",
        type=_positive_int,
        metavar="N",
        help="conversion processes (default: one per core, at most 8, for schemas of 200 units or more "
        "or 200,000 characters of source; 1 below that, where starting processes costs more than it "
        "saves); 1 converts in this process",
    )
    _engine_args(m)
    _evidence_args(m)
    _test_args(m)
    m.add_argument(
        "--progress",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="progress bar (default: when stderr is a terminal)",
    )


def _test_args(p: argparse.ArgumentParser) -> None:
    g = p.add_argument_group(
        "the team's own tests",
        "A folder of PL/SQL tests (and any test framework written in PL/SQL that they need) is converted with "
        "the library's rules, deployed after it and run on PostgreSQL in the sandbox, each test in its own "
        "rolled-back transaction; outcomes, DBMS_OUTPUT lines and durations go to OUT/tests.json, junit.xml "
        "and the review site. A passing test is evidence (at most G2) for the units it executed; a unit a "
        "failing test executed is `wrong`.",
    )
    g.add_argument(
        "--tests",
        action="append",
        type=Path,
        default=[],
        metavar="DIR",
        help="folder of the team's tests (repeatable: e.g. the framework's folder, then the test packages')",
    )
    g.add_argument(
        "--test-style",
        choices=["utplsql", "framework", "plain"],
        help="how the tests are written (default: detected). utplsql: utPLSQL v3 annotated packages; "
        "framework: a PL/SQL test framework's convention (Pete: UT_ packages, each parameterless public "
        "procedure a test); plain: anonymous blocks (else parameterless procedures) reporting through "
        "DBMS_OUTPUT (OK / FAILED lines, 'N tests, P passed, F failed') or by raising",
    )
    g.add_argument(
        "--test-pattern",
        metavar="REGEX",
        help="plain style: the regex of a result line in DBMS_OUTPUT, with a named group (?P<fail>...) "
        "and/or (?P<pass>...), case-insensitive (default: a line starting OK, PASS, PASSED, SUCCESS, "
        "FAIL, FAILED, FAILURE, ERROR or NOT OK)",
    )
    g.add_argument(
        "--oracle-test-log",
        type=Path,
        metavar="FILE",
        help="the same suite's run on Oracle (tests.json, JUnit XML, or text lines naming a test with PASS/OK): "
        "tests that passed there and here raise the units they executed to G3",
    )
    g.add_argument(
        "--test-timeout",
        type=_positive_int,
        default=300,
        metavar="SECONDS",
        help="statement timeout of each test (default 300)",
    )


def _add_verify_regress_record(sub) -> None:
    v = sub.add_parser(
        "verify",
        help="judge an existing output directory against Oracle transcripts",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    v.add_argument("out", type=Path, help="output directory of an earlier `migrate`")
    _engine_args(v)
    _evidence_args(v)
    r = sub.add_parser(
        "regress",
        help="fail when a unit that was correct in the baseline is not correct now",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    r.add_argument("src", type=Path, nargs="?", help="schema directory to migrate and verify now")
    r.add_argument("--report", type=Path, help="use this existing verified output directory instead of migrating")
    r.add_argument("--baseline", type=Path, required=True, help="baseline JSON (unit id -> category)")
    r.add_argument(
        "--update-baseline",
        action="store_true",
        help="rewrite the baseline from this run; refused (exit 1, the regressions listed) when a unit "
        "correct in the old baseline is not correct now, unless --accept-regressions",
    )
    r.add_argument(
        "--accept-regressions",
        action="store_true",
        help="with --update-baseline: write the baseline even though units regressed (they are listed)",
    )
    r.add_argument("--out", type=Path, help="where to write the run (default: a temporary directory)")
    r.add_argument("--settings", type=Path, help="active settings file (as for migrate)")
    _engine_args(r)
    _evidence_args(r)
    rec = sub.add_parser(
        "record",
        help="record ground truth: from a live Oracle, or from a trusted PostgreSQL port (at most G2)",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rec.add_argument("src", type=Path, help="schema directory")
    truth = rec.add_mutually_exclusive_group(required=True)
    truth.add_argument("--oracle", help="'testcontainers' or user/password@host:port/service")
    truth.add_argument(
        "--reference",
        type=Path,
        metavar="DIR",
        help="a PostgreSQL port you trust (.sql files, deployed in name order into a sandbox scratch "
        "database); each scenario's PostgreSQL form is recorded on it. Provenance `reference`: never G3",
    )
    rec.add_argument("--scenarios", type=Path, help="scenario file (default as for migrate)")
    rec.add_argument("--out", type=Path, required=True, help="transcript file to write")
    rec.add_argument(
        "--clock",
        choices=("auto", "frozen", "real"),
        default="auto",
        help="--reference: the port's clock. frozen: each scenario's fixed_date instant, on a private server "
        "started under libfaketime (error when it cannot start); real: the server's clock, each scenario "
        "recorded again at local clocks 26 h apart and steps that answer differently marked clock-dependent; "
        "auto (default): frozen when libfaketime is installed, else real",
    )
    _engine_args(rec)
    rec.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None, help="progress bar (default: on a terminal)"
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="migrator",
        description="Oracle → PostgreSQL migration agent.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", required=True)
    _add_migrate(sub)
    _add_verify_regress_record(sub)
    add_scenarios_parser(sub)
    add_review_parser(sub)
    add_assess_parser(sub)
    add_fix_parser(sub)
    add_kb_parser(sub)
    add_text2sql_parser(sub)
    add_swe_parser(sub)
    add_eval_parser(sub)
    add_pg_parser(sub)
    add_data_parser(sub)
    return parser


# command -> "module:function", imported only when that command runs
HANDLERS = {
    "migrate": "migrator.cli.commands:run_migrate",
    "verify": "migrator.cli.commands:run_verify",
    "regress": "migrator.cli.commands:run_regress",
    "record": "migrator.cli.commands:run_record",
    "scenarios": "migrator.cli.scenarios:run_scenarios",
    "review": "migrator.cli.review:run_review",
    "assess": "migrator.cli.assess:run_assess",
    "fix": "migrator.cli.fix:run_fix",
    "kb": "knowledge_base.cli:run_kb",
    "text2sql": "migrator.cli.text2sql:run_text2sql",
    "swe": "migrator.cli.swe:run_swe_command",
    "eval": "migrator.cli.eval:run_eval_command",
    "pg": "migrator.cli.pg:run_pg",
    "data": "migrator.cli.data:run_data",
}


def handler(command: str):
    module, name = HANDLERS[command].split(":")
    return getattr(importlib.import_module(module), name)


# Commands after which the program ends at once (exit_now): every file they write is closed when
# their handler returns.
EXITS_AT_ONCE = frozenset({"migrate"})


def main(argv: list[str] | None = None) -> int:
    """Run one command; its exit code. Called without `argv`, main is the program itself (the
    `migrator` script, `python -m migrator.cli.main`): after a command of EXITS_AT_ONCE it then
    ends the process (exit_now) instead of returning."""
    args = _parse(_parser(), argv)
    code = _run(args)
    if argv is None and args.command in EXITS_AT_ONCE:
        exit_now(code)
    return code


def _parse(parser: argparse.ArgumentParser, argv: list[str] | None) -> argparse.Namespace:
    """parse_args, with an unknown option reported by the (sub)command it was given to, with its
    usage and the nearest option it has (argparse reports it with the top-level usage, no hint)."""
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        command = _innermost(parser, args)
        options = [o for action in command._actions for o in action.option_strings]
        hints = []
        for token in unknown:
            near = difflib.get_close_matches(token.split("=", 1)[0], options, n=1, cutoff=0.6)
            if token.startswith("-") and near:
                hints.append(f"{token} (did you mean {near[0]}?)")
            else:
                hints.append(token)
        command.error("unrecognized arguments: " + " ".join(hints))
    return args


def _innermost(parser: argparse.ArgumentParser, args: argparse.Namespace) -> argparse.ArgumentParser:
    """The parser of the (sub)command `args` were parsed for, e.g. that of `fix freeze`."""
    while True:
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        name = getattr(args, sub.dest, None) if sub is not None else None
        if sub is None or name not in sub.choices:
            return parser
        parser = sub.choices[name]


def exit_now(code: int) -> NoReturn:
    """End the process without tearing the interpreter down: freeing a batch's millions of objects
    (units, token lists, trees, the catalog) one by one took 0.25-0.5 s after a 2 s `migrate`.
    What a normal exit does that matters is still done: the atexit handlers run (weakref
    finalizers among them), and stdout and stderr are flushed."""
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe or stream: nothing more can be said on it
            pass
    os._exit(code)


def _run(args: argparse.Namespace) -> int:
    from migrator.cli.failures import (
        CLOSED_PIPE,
        INTERRUPTED,
        environment_problem,
        quiet_after_ctrl_c,
        silence_stdout,
    )
    from migrator.errors import MigratorError

    try:
        with quiet_after_ctrl_c():
            return handler(args.command)(args)
    except KeyboardInterrupt:
        # every `with` the command was in has been left on the way here: servers stopped, worker
        # pools cancelled, the journal closed
        print(_interrupted_line(args), file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:
        # the reader of our output went away (`| head`): it wanted no more, nothing to say
        silence_stdout()
        return CLOSED_PIPE
    except Exception as exc:
        # imported only now: harness.exceptions imports pydantic, which `migrate` imports while
        # its source is being read (run_migrate), not before
        from harness.exceptions import HarnessError

        if isinstance(exc, (MigratorError, HarnessError)):
            print(f"migrator: error: {exc}", file=sys.stderr)
            return 2
        if (problem := environment_problem(exc)) is not None:
            print(f"migrator: error: {problem}", file=sys.stderr)
            return 2
        # anything else is our bug, whatever its type (a ValueError too)
        import traceback

        traceback.print_exc()
        print(
            f"migrator: internal error: {type(exc).__name__}: {exc}\n"
            "This is a bug in migrator, not a problem with your input; please report it with the "
            "traceback above and the command you ran.",
            file=sys.stderr,
        )
        return INTERNAL_ERROR


def _interrupted_line(args: argparse.Namespace) -> str:
    if args.command == "migrate":
        from migrator.batch.progress import interrupted_line

        return interrupted_line()
    if args.command == "verify":  # its report is written only at the end: the old one stands
        return f"interrupted; {args.out} is as it was; rerun the same command"
    return "interrupted"


if __name__ == "__main__":
    sys.exit(main())
