"""`migrator swe score|run|make-repos`: thin handlers over `migrator.agent.tasks.swe`."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

EXAMPLES = """examples:
  migrator swe make-repos --out /tmp/swe-repos
  migrator swe score fixtures/swe/instances.jsonl --repos /tmp/swe-repos --predictions fixtures/swe/predictions/gold.jsonl
  migrator swe run fixtures/swe/instances.jsonl --repos /tmp/swe-repos --out out/swe \\
      --model scripted:fixtures/swe/models/gold-agent.yaml --repro fixtures/swe/instances
  migrator swe run verified.jsonl --repos ~/swe-clones --out out/verified --model bedrock:us.anthropic.claude-3-5-haiku-20241022-v1:0 --kb kb/
  migrator swe run verified.jsonl --repos ~/swe-clones --out out/ablation --model openai:http://gpu:8000/v1#Qwen3-Coder-30B --no-planner --no-memory
"""


def _sandbox_args(p: argparse.ArgumentParser) -> None:
    p.add_argument("--repos", type=Path, required=True, help="folder of git clones: <owner>__<name> or <name>")
    p.add_argument("--ids", nargs="+", default=[], metavar="ID", help="only these instance ids")
    p.add_argument("--per-test-timeout", type=float, default=60.0, metavar="S", help="seconds per test (default 60)")
    p.add_argument(
        "--isolation",
        choices=["namespaces", "none", "auto"],
        default="namespaces",
        help="how candidate code runs: 'namespaces' (default; no network, read-only file system except its "
        "worktree; needs user namespaces), 'none' (a scrubbed environment only), 'auto' (namespaces when available)",
    )
    p.add_argument("--env-cache", type=Path, help="where per-repository virtualenvs are kept (default under --out)")
    p.add_argument("--system-site-packages", action="store_true", help="virtualenvs see the base Python's packages")
    p.add_argument("--offline", action="store_true", help="pip install with --no-index (your find-links only)")
    p.add_argument(
        "--seed",
        nargs="+",
        default=[],
        metavar="DIST",
        help="copy these installed distributions (and their requirements) into each new virtualenv, e.g. pytest",
    )
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None, help="progress bar")


def add_swe_parser(sub) -> None:
    swe = sub.add_parser(
        "swe",
        help="SWE-bench-format instances: score predictions, run the PMCoder agent",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    cmds = swe.add_subparsers(dest="swe_command", required=True)
    score = cmds.add_parser(
        "score",
        help="judge a SWE-bench predictions file",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    score.add_argument("instances", type=Path, help="instances (JSONL or a JSON list, SWE-bench fields)")
    score.add_argument("--predictions", type=Path, required=True, help="instance_id, model_name_or_path, model_patch")
    score.add_argument("--json", type=Path, help='write {"resolved": N, "total": M, "per_instance": {...}} here')
    score.add_argument("--markdown", type=Path, help="write a Markdown table here")
    score.add_argument("--work", type=Path, help="scratch folder for worktrees (default: a temporary folder)")
    _sandbox_args(score)
    _add_run(cmds)
    make = cmds.add_parser("make-repos", help="build the fixture repositories (git history from files in fixtures/swe)")
    make.add_argument("--fixtures", type=Path, default=Path("fixtures/swe"), help="default: fixtures/swe")
    make.add_argument("--out", type=Path, required=True, help="folder for the clones")
    make.add_argument("--regenerate", action="store_true", help="also rewrite instances.jsonl and predictions/")


def _add_run(cmds) -> None:
    run = cmds.add_parser(
        "run",
        help="run the PMCoder agent over instances",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument("instances", type=Path, help="instances (JSONL or a JSON list, SWE-bench fields)")
    run.add_argument(
        "--model", required=True, help="bedrock:<id>, openai:<url>#<model>, replay:<file>, scripted[:<yaml>]"
    )
    run.add_argument("--out", type=Path, required=True, help="output folder (predictions, trajectories, report)")
    run.add_argument("--kb", type=Path, help="knowledge base for episodic memory across instances (default OUT/kb)")
    run.add_argument("--embedder", help="embedder of a new knowledge base: hashing, minilm, bge-m3:<dir>")
    run.add_argument(
        "--planner", action=argparse.BooleanOptionalAction, default=True, help="phase planner (default on)"
    )
    run.add_argument(
        "--memory", action=argparse.BooleanOptionalAction, default=True, help="episodic memory (default on)"
    )
    run.add_argument("--max-steps", type=int, default=40, help="model calls per instance (default 40)")
    run.add_argument("--history-steps", type=int, default=12, help="recent steps shown verbatim (default 12)")
    run.add_argument("--repro", type=Path, help="reproduction scripts: <dir>/<id>.py or <dir>/<id>/repro.py")
    run.add_argument("--repro-timeout", type=float, default=180.0, metavar="S", help="seconds per reproduction run")
    run.add_argument("--resume", action="store_true", help="continue a run: instances with a result are skipped")
    run.add_argument(
        "--judge", action=argparse.BooleanOptionalAction, default=True, help="judge with the held-out tests"
    )
    _sandbox_args(run)


def run_swe_command(args) -> int:
    handlers = {"score": _score, "run": _run, "make-repos": _make_repos}
    try:
        return handlers[args.swe_command](args)
    except BrokenPipeError:  # the reader of our output went away (`| head`): `main` ends quietly
        raise
    except (OSError, ValueError) as exc:
        print(f"migrator: error: {exc}", file=sys.stderr)
        return 2


def _env_options(args, cache: Path, isolation: str):
    from migrator.agent.tasks.swe.environments import EnvOptions

    return EnvOptions(
        cache_dir=args.env_cache or cache,
        system_site_packages=args.system_site_packages,
        offline=args.offline,
        seed=tuple(args.seed),
        isolation=isolation,
    )


def _score(args) -> int:
    import tempfile

    from tqdm import tqdm

    from harness.tasks.process_sandbox import SandboxUnavailable, resolve_isolation
    from harness.tasks.pytest_runs import RunLimits
    from migrator.agent.tasks.swe.instances import load_instances, load_predictions
    from migrator.agent.tasks.swe.judge import JudgeContext
    from migrator.agent.tasks.swe.scoring import score_json, score_markdown, score_predictions

    instances, errors = load_instances(args.instances)
    predictions, pred_errors = load_predictions(args.predictions)
    if not instances:
        print(f"migrator: error: {args.instances}: no readable instance", file=sys.stderr)
        return 2
    if args.ids:
        instances = [i for i in instances if i.instance_id in set(args.ids)]
    try:
        isolation, note = resolve_isolation(args.isolation)
    except SandboxUnavailable as exc:
        print(
            f"migrator: error: {exc}; rerun with --isolation none to accept a scrubbed environment only",
            file=sys.stderr,
        )
        return 2
    show = args.progress if args.progress is not None else sys.stderr.isatty()
    with tempfile.TemporaryDirectory(prefix="swe-score-") as tmp:
        work = args.work or Path(tmp)
        limits = RunLimits(args.per_test_timeout, isolation=isolation)
        ctx = JudgeContext(args.repos, work, _env_options(args, work / "envs", isolation), limits)
        with tqdm(total=len(instances), desc="swe score", unit="instance", disable=not show) as bar:
            report = score_predictions(instances, predictions, ctx, errors + pred_errors, bar)
    _print_score(report, note)
    if args.json:
        args.json.write_text(score_json(report), encoding="utf-8")
    if args.markdown:
        args.markdown.write_text(score_markdown(report, args.predictions), encoding="utf-8")
    # an instance the judge could not run is no measurement: the score is not the predictions'
    return 1 if _not_judged(report) else 0


def _not_judged(report) -> list[str]:
    return [iid for iid, result in report.per_instance.items() if result.status == "error"]


def _print_score(report, note: str) -> None:
    for err in report.input_errors:
        print(f"  input error {err}", file=sys.stderr)
    for iid, result in report.per_instance.items():
        if not result.resolved:
            print(f"  {iid}: {result.status}: {result.reason[:160]}")
    print(f"  sandbox: {note}")
    print(f"resolved {report.resolved} / {report.total}")
    if unjudged := _not_judged(report):
        print(f"  {len(unjudged)} of {report.total} instance(s) could not be judged (status error): exit 1")


def _run(args) -> int:
    from migrator.agent.tasks.swe.run import SweRunConfig, SweUsageError, run_swe
    from migrator.cli.commands import _model_spec_problem

    problem = _model_spec_problem(args.model)  # found before any work, as `migrate` does
    if problem:
        print(f"migrator: error: --model {args.model}: {problem}", file=sys.stderr)
        return 2

    cfg = SweRunConfig(
        instances=args.instances,
        repos=args.repos,
        out=args.out,
        model=args.model,
        kb=args.kb,
        embedder=args.embedder,
        planner=args.planner,
        memory=args.memory,
        max_steps=args.max_steps,
        history_steps=args.history_steps,
        ids=tuple(args.ids),
        repro_dir=args.repro,
        judge=args.judge,
        resume=args.resume,
        per_test_timeout_s=args.per_test_timeout,
        repro_timeout_s=args.repro_timeout,
        isolation=args.isolation,
        env_cache=args.env_cache,
        system_site_packages=args.system_site_packages,
        offline=args.offline,
        seed=tuple(args.seed),
        progress=args.progress,
    )
    try:
        report = run_swe(cfg)
    except SweUsageError as exc:
        print(f"migrator: error: {exc}", file=sys.stderr)
        return 2
    judged = f"resolved {report.resolved} / {report.total}" if report.resolved is not None else "not judged"
    print(f"{report.arm}: {judged}; agent verified {report.agent_verified}; {report.tokens} tokens")
    if report.model_error:
        print(f"  model failed: {report.model_error}")
    print(f"  report: {args.out / 'report.md'}")
    return 1 if report.model_error or any(r.error for r in report.instances) else 0


def _make_repos(args) -> int:
    import tempfile

    from migrator.agent.tasks.swe.fixture_repos import build_repos, generate, write_generated

    if not (args.fixtures / "repos").is_dir():
        print(f"migrator: error: {args.fixtures} has no repos/ folder", file=sys.stderr)
        return 2
    if args.regenerate:
        with tempfile.TemporaryDirectory(prefix="swe-gen-") as tmp:
            for path in write_generated(args.fixtures, generate(args.fixtures, args.out, Path(tmp))):
                print(f"wrote {path}")
    for repo, path in build_repos(args.fixtures, args.out).items():
        print(f"{repo}: {path}")
    return 0
