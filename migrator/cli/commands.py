"""The command handlers behind `migrator.cli.main` (argument namespaces in, exit codes out).

A user error is raised as MigratorError/HarnessError and reported by `main` (exit 2)."""

from __future__ import annotations

import gc
import os
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from harness.judge.categories import FAILED, Category
from migrator.batch.preflight import SCHEMA_FROM_FOLDER
from migrator.convert.registry import check_rule_ids
from migrator.errors import MigratorError

# The report and settings models (pydantic: a good part of start-up) are imported where a command
# uses them: `migrate` begins reading the source first, and these imports overlap the reading.
if TYPE_CHECKING:
    from migrator.batch.report import RunReport
    from migrator.fixes.settings import ActiveSettings


def chosen_executor(args, settings=None):
    from migrator.cli.executor_choice import chosen_executor as choose

    return choose(args, settings)


def _engine_spec(args) -> str:
    """The server to use, a DSN among them checked as one here, before any work."""
    from harness.engines.postgres import ENV_DSN, check_dsn  # only runs that use a server ask

    spec = args.pg_dsn or args.pg or os.environ.get(ENV_DSN) or "embedded"
    check_dsn(spec)
    return spec


def default_evidence(src: Path, schema: str) -> tuple[Path | None, Path | None]:
    """<root>/schemas/<name> → <root>/scenarios/<name>.yaml and <root>/transcripts/<name>.yaml."""
    root = src.resolve().parent.parent
    scen, trans = root / "scenarios" / f"{schema}.yaml", root / "transcripts" / f"{schema}.yaml"
    return (scen if scen.exists() else None), (trans if trans.exists() else None)


def _evidence(args, src: Path | None, schema: str) -> tuple[Path | None, Path | None]:
    scen, trans = default_evidence(src, schema) if src else (None, None)
    return args.scenarios or scen, args.transcript or trans


def print_summary(report: RunReport, out: Path) -> None:
    from migrator.batch.report import verification_table

    s = report.summary
    statuses = ", ".join(f"{k} {v}" for k, v in sorted(s.by_status.items()))
    print(f"{report.schema_name}: {s.units} units in {s.seconds:.1f} s" + (f" — {statuses}" if statuses else ""))
    print(f"  parses with pglast: {s.static_ok}/{s.units}")
    if s.deployed is not None:
        print(f"  deployed on PostgreSQL ({report.engine}): {s.deployed}/{s.units}")
    if report.verification:
        for line in verification_table(report.verification):
            print("  " + line)
    if report.tests is not None:
        t = report.tests
        counts = ", ".join(f"{k} {t.totals.get(k, 0)}" for k in ("passed", "failed", "error", "skipped"))
        print(f"  tests ({t.style}): {t.totals.get('total', 0)} — {counts} in {t.seconds:.1f} s: {out / t.file}")
        for note in t.notes:
            print(f"  tests: {note}")
    if report.preamble_error:
        print(f"  preamble failed: {report.preamble_error}")
    if report.sandbox:
        for note in report.sandbox.notes:
            print(f"  sandbox: {note}")
    if report.output_kept:
        print(
            f"  kept {len(report.output_kept)} file(s) in {out} that migrator did not write: "
            + ", ".join(report.output_kept[:5])
            + (" ..." if len(report.output_kept) > 5 else "")
        )
    for issue in (i for i in report.issues if i.severity == "error"):
        print(f"  input error {issue.file}:{issue.line}: {issue.code}: {issue.message}")
    for issue in (i for i in report.issues if i.code == SCHEMA_FROM_FOLDER):
        print(f"  warning: {issue.message}")
    if report.agent and report.agent.model_error:
        print(f"  model failed: {report.agent.model_error}")
    repaired = [u for u in report.units if u.status == "repaired"]
    if repaired:
        correct = sum(u.category == "correct" for u in repaired)
        print(f"  repaired by the model: {len(repaired)} unit(s), {correct} of them correct")
    for u in report.units:
        # what the rules left undone in a repaired unit is history: its category says how it stands
        left_undone = (u.unconverted or u.error) and u.status != "repaired"
        if left_undone or u.static_error or u.deploy_error or u.category in FAILED or u.agent_error:
            what = unit_problem(u)
            if u.agent_error:
                what += f" (repair: {u.agent_error})"
            print(f"  {u.id} ({u.source}): {u.category or u.status}: {what}")
    print(f"  report: {out / 'report.md'}")


def run_migrate(args) -> int:
    # A batch run makes millions of small objects that live to the end of the process (tokens,
    # trees, the catalog); at the default thresholds (a pass per 700 allocations) the cycle
    # collector re-scanned them for ~15 % of the conversion's CPU. Collections are rarer for this
    # command's process (the workers it forks inherit it), and off until the conversion: reading,
    # ordering and the catalog make few cycles (~3,000 objects in a run of 1,467 units), and their
    # passes cost ~0.1 s of the run's serial part. The conversion turns them on for what it makes
    # (forked.collecting_new).
    gc.set_threshold(50_000, 20, 100)
    gc.disable()
    # The source is read on forked workers from here on, while this process imports the
    # converters (pipeline's imports: a good part of a run's serial start-up). Reading writes
    # nothing, and its errors are raised only where `migrate` takes the result: usage and settings
    # are still checked first; their errors, and the source's, the output folder's and the
    # server's, reach `main` as MigratorError/HarnessError.
    from migrator.batch import progress
    from migrator.forked import core_workers
    from migrator.source.reader import Reading

    progress.start()
    reading = Reading(
        args.src,
        args.schema,
        args.workers if args.workers is not None else core_workers(),
        args.multi_schema,
        _schema_map(args.schema_map),
    )
    try:
        from migrator.batch.pipeline import migrate
        from migrator.batch.report import exit_code
        from migrator.fixes.settings import load_settings

        _check_migrate_usage(args)
        opts = _migrate_options(args, load_settings(args.settings))
        if opts.verify and opts.scenarios is None:
            _warn_no_scenarios(args)
        report = migrate(args.src, args.out, opts, reading=reading)
    finally:
        reading.close()
    print_summary(report, args.out)
    return exit_code(report)


def _schema_map(pairs: list[str]) -> dict[str, str]:
    """--schema-map FOLDER=SCHEMA pairs."""
    found = {}
    for pair in pairs:
        folder, eq, schema = pair.partition("=")
        if not eq or not folder.strip() or not schema.strip():
            raise MigratorError(f"--schema-map {pair!r}: expected FOLDER=SCHEMA")
        found[folder.strip()] = schema.strip()
    return found


def _directories(pairs: list[str]) -> dict[str, str]:
    """--directory NAME=PATH pairs: an unquoted Oracle name is upper case, as Oracle stores it."""
    found = {}
    for pair in pairs:
        name, eq, path = pair.partition("=")
        name = name.strip()
        if not eq or not name or not path.strip() or not path.strip().startswith("/"):
            raise MigratorError(f"--directory {pair!r}: expected NAME=/absolute/path")
        found[name[1:-1] if name.startswith('"') and name.endswith('"') else name.upper()] = path.strip()
    return found


def _warn_no_scenarios(args) -> None:
    """--verify with no scenario file judges nothing: said before the run, with where one was
    looked for and what the schema name was taken from."""
    schema = (args.schema or args.src.name).lower()
    looked = args.src.resolve().parent.parent / "scenarios" / f"{schema}.yaml"
    whence = "" if args.schema else f" (the schema name {schema!r} is the folder's name: --schema gives another)"
    print(
        f"migrator: warning: no scenario file: none given with --scenarios and none at {looked}{whence}; "
        "no unit can be verified",
        file=sys.stderr,
    )


def _check_migrate_usage(args) -> None:
    if args.verify and args.no_deploy:
        raise MigratorError("--verify needs deployment (drop --no-deploy)")
    if args.model and not args.verify:
        raise MigratorError("--model needs --verify: the judge, never the model, decides")
    if getattr(args, "tests", None) and args.no_deploy:
        raise MigratorError("--tests runs the tests on PostgreSQL: drop --no-deploy")
    if not getattr(args, "tests", None):
        for flag in ("test_style", "test_pattern", "oracle_test_log"):
            if getattr(args, flag, None):
                raise MigratorError(f"--{flag.replace('_', '-')} needs --tests DIR")
    if getattr(args, "test_pattern", None):
        from migrator.suites.output_lines import PatternError, compile_pattern

        try:
            compile_pattern(args.test_pattern)
        except PatternError as exc:
            raise MigratorError(f"--test-pattern: {exc}") from None
    for d in getattr(args, "tests", None) or ():
        if not d.is_dir():
            raise MigratorError(f"--tests {d}: no such folder")
    if args.model and (problem := _model_spec_problem(args.model)):
        raise MigratorError(f"--model {args.model}: {problem}")
    if getattr(args, "retrieval", "fixed") != "fixed" and not (args.model and args.kb):
        raise MigratorError(
            f"--retrieval {args.retrieval} needs --model and --kb: it chooses what memory shows the model"
        )
    check_rule_ids(args.disable_rule, "--disable-rule")
    from migrator.batch.output import check_writable

    check_writable(args.out)
    _check_files_exist(args)


def _check_files_exist(args) -> None:
    """The files named on the command line exist: checked before any work (what is in them is
    checked once the source is read, still before any work). Not --settings: a settings file no
    fix cycle has written yet means the defaults."""
    for flag in ("scenarios", "transcript", "baseline", "report", "oracle_test_log"):
        path = getattr(args, flag, None)
        if path is None or (flag == "baseline" and args.update_baseline):
            continue
        if not path.exists():
            raise MigratorError(f"--{flag.replace('_', '-')} {path}: no such file or directory")


def _migrate_options(args, settings: ActiveSettings):
    from migrator.batch.pipeline import MigrateOptions

    schema = (args.schema or args.src.name).lower()
    scenarios, transcript = _evidence(args, args.src, schema) if args.verify else (None, None)
    return MigrateOptions(
        schema=args.schema,
        multi_schema=args.multi_schema,
        schema_map=_schema_map(args.schema_map),
        directories=_directories(getattr(args, "directory", [])),
        force=args.force,
        resume=args.resume,
        disabled_rules=frozenset(args.disable_rule) | frozenset(settings.disabled_rules),
        step_timeout_ms=settings.harness.step_timeout_ms,
        deploy=None if args.no_deploy else _engine_spec(args),
        executor=chosen_executor(args, settings) if args.verify else None,
        progress=args.progress,
        verify=args.verify,
        scenarios=scenarios,
        transcript=transcript,
        model=args.model,
        kb=args.kb,
        attempts=args.attempts,
        retrieval=args.retrieval,
        settings=settings,
        checkpoint_every=args.checkpoint_every,
        workers=args.workers,
        memo=args.memo,
        compile_target=_compile_target(args),
        suite=_suite_options(args),
    )


def _suite_options(args):
    """--tests and its companions (None: no tests, and no time spent on them)."""
    if not getattr(args, "tests", None):
        return None
    from migrator.suites.model import TestStyle
    from migrator.suites.session import SuiteOptions

    return SuiteOptions(
        dirs=tuple(args.tests),
        style=TestStyle(args.test_style) if args.test_style else None,
        pattern=args.test_pattern,
        oracle_log=args.oracle_test_log,
        timeout_ms=args.test_timeout * 1000,
    )


def _compile_target(args):
    """--oracle-version and --plsql-ccflags as the conditional compilation target."""
    from migrator.convert.compile_target import CompileTarget
    from migrator.convert.plsql.conditional import parse_ccflags

    version = getattr(args, "oracle_version", None) or "19.0"
    parts = version.split(".")
    if not (1 <= len(parts) <= 2 and all(p.isdigit() for p in parts)):
        raise MigratorError(f"--oracle-version {version!r}: expected a release such as 19 or 12.2")
    try:
        flags = parse_ccflags(getattr(args, "plsql_ccflags", None) or "")
    except ValueError as exc:
        raise MigratorError(f"--plsql-ccflags: {exc}") from None
    return CompileTarget((int(parts[0]), int(parts[1]) if len(parts) > 1 else 0), flags)


def _model_spec_problem(spec: str) -> str | None:
    """A spec that cannot name a model, or whose backend's package is not installed, is bad usage,
    found before any work is done. Loading makes no call (clients are created on first use), so a
    model that is merely unreachable passes."""
    from migrator.agent.models import ModelError, ModelSpecError, load_model
    from migrator.agent.models.registry import missing_backend_package

    try:
        load_model(spec, cache_dir=None)
    except (ModelSpecError, ModelError) as exc:
        return str(exc)
    missing = missing_backend_package(spec)
    return None if missing is None else str(missing)


def run_verify(args) -> int:
    from migrator.batch.preflight import check_evidence
    from migrator.batch.report import exit_code
    from migrator.batch.verification import attach_verification, load_report, write_reports

    _check_files_exist(args)
    report = load_report(args.out)
    scenarios, transcript = _evidence(args, Path(report.source_dir), report.schema_name)
    check_evidence(scenarios, transcript, [u.id for u in report.units])
    report = attach_verification(
        report, args.out, _engine_spec(args), scenarios, transcript, executor=chosen_executor(args)
    )
    write_reports(report, args.out)
    print_summary(report, args.out)
    return exit_code(report)


def run_regress(args) -> int:
    from harness.judge.regress import compare, load_baseline
    from migrator.batch.verification import load_report
    from migrator.fixes.settings import load_settings

    if args.accept_regressions and not args.update_baseline:
        raise MigratorError("--accept-regressions goes with --update-baseline")
    _check_files_exist(args)
    if args.out is not None and args.src:
        from migrator.batch.output import check_writable

        check_writable(args.out)
    if args.report:
        report = load_report(args.report)
    elif args.src:
        report = _regress_run(args, load_settings(args.settings))
    else:
        raise MigratorError("give a schema directory or --report OUT")
    current = {u.id: u.category or Category.UNVERIFIED for u in report.units}
    provenance = report.verification.provenance if report.verification else None
    if args.update_baseline:
        return _update_baseline(args, report, current, provenance)
    result = compare(load_baseline(args.baseline), current)
    _print_regressions(report, result.regressions)
    for unit, was, now in result.improvements:
        print(f"improved   {unit}: {was} -> {now}")
    for unit, was, now in result.changes:
        print(f"changed    {unit}: {was} -> {now}")
    for unit in result.new_units:
        print(f"new unit   {unit}: {current[unit]}")
    correct = sum(c == Category.CORRECT for c in current.values())
    print(
        f"{report.schema_name}: {correct}/{len(current)} correct; {len(result.regressions)} regressions, "
        f"{len(result.improvements)} improvements"
    )
    return 0 if result.ok else 1


def _update_baseline(args, report: RunReport, current: dict[str, str], provenance: str | None) -> int:
    """Write the baseline from this run, unless a unit the old baseline has correct is not correct
    now: a baseline that silently takes a regression in stops guarding against it."""
    from harness.judge.regress import compare, load_baseline, write_baseline

    if args.baseline.exists() and not args.accept_regressions:
        regressions = compare(load_baseline(args.baseline), current).regressions
        if regressions:
            _print_regressions(report, regressions)
            print(
                f"baseline NOT written: {len(regressions)} unit(s) correct in {args.baseline} are not correct in "
                "this run; fix them, or give --accept-regressions to write the baseline anyway"
            )
            return 1
    write_baseline(args.baseline, report.schema_name, provenance, current)
    print(
        f"baseline written: {args.baseline} ({sum(c == Category.CORRECT for c in current.values())} correct of {len(current)})"
    )
    return 0


def _print_regressions(report: RunReport, regressions: list[tuple[str, str, str]]) -> None:
    """Each regression with why the unit is not correct now, and the rules the run had disabled."""
    by_id = {u.id: u for u in report.units}
    for unit, was, now in regressions:
        entry = by_id.get(unit)
        why = unit_problem(entry) if entry is not None else "the unit is not in this run"
        print(f"REGRESSION {unit}: {was} -> {now}" + (f": {why}" if why else ""))
    if regressions and report.disabled_rules:
        print(f"  this run had rules disabled: {', '.join(report.disabled_rules)}")


def unit_problem(u) -> str:
    """Why a unit is not correct, in one line: its error, else its verdict, else what was not
    converted (for a repaired unit, what the rules left undone no longer is)."""
    from migrator.batch.report import root_cause

    repaired = u.status == "repaired"
    problem = root_cause(u) or (None if repaired else u.error) or u.static_error or u.deploy_error
    if problem:
        return problem.splitlines()[0]
    return u.verdict or ("" if repaired else "; ".join(i.construct_name for i in u.unconverted))


def _regress_run(args, settings: ActiveSettings) -> RunReport:
    from migrator.batch.pipeline import MigrateOptions, migrate

    scenarios, transcript = _evidence(args, args.src, args.src.name.lower())
    out = args.out or Path(tempfile.mkdtemp(prefix="migrator-regress-"))
    return migrate(
        args.src,
        out,
        MigrateOptions(
            force=True,
            deploy=_engine_spec(args),
            executor=chosen_executor(args, settings),
            verify=True,
            disabled_rules=frozenset(settings.disabled_rules),
            step_timeout_ms=settings.harness.step_timeout_ms,
            scenarios=scenarios,
            transcript=transcript,
            progress=False,
        ),
    )


def run_record(args) -> int:
    from harness.engines.oracle import oracle_engine, record
    from harness.ground_truth.scenarios import dump_transcript, load_scenarios
    from migrator.source.dependencies import analyze_dependencies
    from migrator.source.reader import read_schema_dir

    _check_files_exist(args)
    source = read_schema_dir(args.src)
    scenarios = args.scenarios or default_evidence(args.src, source.schema)[0]
    if scenarios is None:
        raise MigratorError("no scenario file (use --scenarios)")
    # (the scenarios' unit ids are not checked here: recording runs steps and judges no unit; the
    # runs that judge, migrate --verify and verify, check them)
    if args.reference is not None:
        from migrator.cli.record_reference import run_record_reference

        return run_record_reference(args, scenarios, _engine_spec(args), source)
    by_id = source.by_id()
    units = [(uid, by_id[uid].text) for uid in analyze_dependencies(source).order]
    with oracle_engine(args.oracle) as engine:
        transcript, problems = record(engine, units, load_scenarios(scenarios))
    dump_transcript(transcript, args.out)
    for p in problems:
        print(f"  Oracle refused {p}")
    print(f"transcript written: {args.out} ({len(transcript.outcomes)} scenarios, provenance oracle)")
    return 1 if problems else 0
