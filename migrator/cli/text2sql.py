"""`migrator text2sql build|score|run|report`: thin handlers over migrator.agent.tasks.text_to_sql."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

EXAMPLES = """examples:
  migrator text2sql build fixtures/text2sql
  migrator text2sql score fixtures/text2sql --predictions pred.sql --json score.json
  migrator text2sql score data/bird/dev --predictions predict_dev.json
  migrator text2sql run fixtures/text2sql --model scripted:fixtures/text2sql/models/scripted.yaml --system merit --out out/t2s
  migrator text2sql run data/spider --model openai:http://gpu-host:8000/v1#Qwen/Qwen2.5-7B-Instruct \\
      --system iterative --system merit --order 0 --order 1 --order 2 --out out/spider
  migrator text2sql report out/spider
"""


def _data_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("data", type=Path, help="Spider- or BIRD-format data directory")
    p.add_argument("--split", default="dev", help="split file name without .json (dev, train_spider, train) or a path")
    p.add_argument(
        "--pg-dsn",
        help="judge on PostgreSQL instead of the SQLite files: each db_id is a schema of this database, "
        "or a database of its own when the DSN contains {db_id}. Use a role that can only read",
    )
    p.add_argument("--timeout", type=float, default=30.0, help="seconds per query (default 30)")
    p.add_argument("--row-cap", type=int, default=100_000, help="more rows than this is an error (default 100000)")


def _progress_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--progress", action=argparse.BooleanOptionalAction, default=None, help="progress bar (default: on a terminal)"
    )


def add_text2sql_parser(sub) -> None:
    t = sub.add_parser(
        "text2sql",
        help="Text-to-SQL: score predictions, run the repair systems MERIT compares",
        description="Text-to-SQL on Spider/BIRD-format data, judged by execution as the official evaluators do.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    tsub = t.add_subparsers(dest="t2s_command", required=True)
    b = tsub.add_parser("build", help="build database/<db>/<db>.sqlite from the committed <db>.sql scripts")
    b.add_argument("data", type=Path)
    _add_score(tsub)
    _add_run(tsub)
    rep = tsub.add_parser("report", help="rewrite OUT/report.md and report.json from the runs in OUT")
    rep.add_argument("out", type=Path)


def _add_score(tsub) -> None:
    s = tsub.add_parser(
        "score",
        help="execution accuracy of a predictions file",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _data_args(s)
    s.add_argument(
        "--predictions",
        type=Path,
        required=True,
        help="Spider: one SQL per line in question order; BIRD: JSON {index: 'SQL\\t----- bird -----\\tdb_id'}",
    )
    s.add_argument("--json", type=Path, help="write {correct, total, by_difficulty, ...} here")
    s.add_argument("--markdown", type=Path, help="write the table as Markdown here")
    _progress_arg(s)


def _add_run(tsub) -> None:
    r = tsub.add_parser(
        "run",
        help="run repair systems from the shared initial predictions",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    _data_args(r)
    r.add_argument(
        "--model",
        required=True,
        help="bedrock:<modelId>, openai:<base_url>#<model>, replay:<file.jsonl>, scripted:<file.yaml>",
    )
    r.add_argument(
        "--system",
        action="append",
        choices=["merit", "iterative", "dynamic-rag", "reflexion"],
        help="repeatable (default merit)",
    )
    r.add_argument("--order", action="append", type=int, help="stream order (seed); repeatable (default 0)")
    r.add_argument("--out", type=Path, required=True, help="output directory (shared by the systems compared)")
    r.add_argument("--kb", type=Path, help="where each run's memory lives (KB/<system>-order<N>; default OUT/runs/...)")
    r.add_argument("--attempts", type=int, default=7, help="repair generations per question (MERIT's K, default 7)")
    r.add_argument("--max-tokens", type=int, default=1024, help="output tokens per call (default 1024)")
    r.add_argument("--embedder", help="memory embedder for a new store: hashing, minilm, bge-m3:PATH (default auto)")
    r.add_argument("--limit", type=int, help="only the first N questions of the split (a smoke run)")
    r.add_argument("--no-response-cache", action="store_true", help="do not cache model responses under OUT")
    _progress_arg(r)


def run_text2sql(args) -> int:
    handlers = {"build": _build, "score": _score, "run": _run, "report": _report}
    return handlers[args.t2s_command](args)


def _progress(args) -> bool:
    return sys.stderr.isatty() if args.progress is None else args.progress


def _build(args) -> int:
    from migrator.agent.tasks.text_to_sql.data import build_sqlite

    if not (args.data / "database").is_dir():
        print(f"error: {args.data}/database does not exist", file=sys.stderr)
        return 2
    built = build_sqlite(args.data)
    print(f"built {len(built)} database(s)" + "".join(f"\n  {p}" for p in built))
    return 0


def _load(args):
    from harness.tasks.readonly_sql import Limits
    from migrator.agent.tasks.text_to_sql.data import load_dataset

    return load_dataset(args.data, args.split, args.pg_dsn, Limits(args.timeout, args.row_cap))


def _score(args) -> int:
    from migrator.agent.tasks.text_to_sql.data import DataError
    from migrator.agent.tasks.text_to_sql.score import score_file, score_markdown

    try:
        dataset = _load(args)
        report = score_file(dataset, args.predictions, _progress(args))
    except (DataError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    finally:
        if "dataset" in locals():
            dataset.databases.close()
    text = score_markdown(report, f"{args.predictions} on {args.data} ({dataset.split})")
    print(text, end="")
    if args.json:
        args.json.write_text(json.dumps(report.summary(), indent=2) + "\n")
    if args.markdown:
        args.markdown.write_text(text)
    return 0


def _run(args) -> int:
    from pydantic import ValidationError

    from migrator.agent.tasks.text_to_sql.data import DataError
    from migrator.agent.tasks.text_to_sql.report import build_report, markdown
    from migrator.agent.tasks.text_to_sql.run import RunError, RunRequest, open_dataset, run_system

    failed = False
    try:
        for system in args.system or ["merit"]:
            for order in args.order or [0]:
                req = RunRequest(
                    data=args.data,
                    out=args.out,
                    model=args.model,
                    system=system,
                    order=order,
                    split=args.split,
                    pg_dsn=args.pg_dsn,
                    kb=args.kb,
                    attempts=args.attempts,
                    max_tokens=args.max_tokens,
                    embedder=args.embedder,
                    limit=args.limit,
                    timeout_s=args.timeout,
                    row_cap=args.row_cap,
                    response_cache=not args.no_response_cache,
                )
                manifest = run_system(req, _progress(args), open_dataset(req))
                failed |= manifest.model_error is not None
    except (DataError, RunError, ValidationError, OSError) as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    print(markdown(build_report(args.out)), end="")
    print(f"report: {args.out / 'report.md'}")
    return 1 if failed else 0


def _report(args) -> int:
    from migrator.agent.tasks.text_to_sql.report import write_report

    if not (args.out / "runs").is_dir():
        print(f"error: no runs in {args.out}", file=sys.stderr)
        return 2
    report = write_report(args.out)
    print(f"{len(report.runs)} run(s); report: {args.out / 'report.md'}")
    return 0
