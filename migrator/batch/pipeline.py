"""The batch job: read a schema directory, order it, convert each unit, check, deploy, report."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from migrator import __name__ as _pkg
from migrator import forked
from migrator.batch import progress
from migrator.batch.output import (
    EXTENSIONS_FILE,
    PREAMBLE,
    Journal,
    check_overlap,
    conversion_from_record,
    deploy_script,
    extensions_sql,
    preamble_sql,
    prepare_out_dir,
    record_written,
    source_hash,
    unit_file_text,
    unit_path,
    write_output,
    write_recorded,
)
from migrator.batch.parallel import convert_in_order, default_workers, static_of, worth_workers
from migrator.batch.preflight import SCHEMA_FROM_FOLDER, check_evidence, schema_name_warning
from migrator.batch.report import (
    IssueEntry,
    RunReport,
    SandboxSummary,
    UnconvertedItem,
    UnitEntry,
    exit_code,  # noqa: F401  (re-exported: callers know it from here)
    summarize,
)
from migrator.batch.static_check import StaticResult
from migrator.convert.compile_target import CompileTarget
from migrator.convert.context import Conversion, ConversionContext
from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.errors import MigratorError
from migrator.fixes.settings import ActiveSettings
from migrator.forked import collecting_new
from migrator.source.dependencies import DependencyGraph, analyze_dependencies
from migrator.source.reader import Reading, read_schema_dir
from migrator.source.units import SourceSet, Unit, UnitKind

if TYPE_CHECKING:  # judging and repair are imported when a run asks for them, not for every migrate
    from harness.judge.deploy import DeployOutcome
    from harness.judge.verify import UnitToVerify
    from migrator.suites.session import SuiteOptions

VERSION = "0.1.0"


@dataclass
class MigrateOptions:
    schema: str | None = None
    multi_schema: bool | None = None  # a folder of schema folders: None detects it (reader.owner_folders)
    schema_map: dict[str, str] | None = None  # schema folder → the schema owning its objects
    directories: dict[str, str] | None = None  # Oracle directory name → server folder (--directory)
    force: bool = False
    resume: bool = False
    disabled_rules: frozenset[str] = frozenset()
    deploy: str | None = None  # engine spec ("embedded", "testcontainers", a DSN) or None
    progress: bool | None = None  # None: only when stderr is a terminal
    verify: bool = False  # run scenarios against Oracle transcripts (needs deploy)
    executor: Any = None  # where scenarios run: local (None), "ray[:ADDRESS]" or an Executor (harness.cluster)
    scenarios: Path | None = None
    transcript: Path | None = None
    step_timeout_ms: int = 5000
    memo: bool = True  # memoise converted SQL fragments within the run
    workers: int | None = None  # conversion processes; None: all cores for large schemas
    # Repair agent: a model spec (bedrock:..., openai:..., replay:..., scripted[:file]) enables it.
    model: str | None = None
    kb: Path | None = None
    attempts: int = 3
    retrieval: str = "fixed"  # what fills repair prompts: fixed retrieval, the bandit, or one arm
    settings: ActiveSettings = field(default_factory=ActiveSettings)
    held_out_targets: frozenset[str] = frozenset()
    checkpoint_every: int | None = None  # memory snapshots and monitor figures (None: about 8 per run)
    # Conditional compilation: the Oracle release the export targets and its PLSQL_CCFLAGS.
    compile_target: CompileTarget = field(default_factory=CompileTarget)
    # The team's own tests (migrate --tests): converted with the library, run after it (None: no tests)
    suite: SuiteOptions | None = None


@dataclass
class _Done:
    unit: Unit
    conversion: Conversion
    path: str
    static: StaticResult
    deploy: DeployOutcome | None = None
    deps: list[str] = field(default_factory=list)
    repaired: bool = False  # the repair agent's text replaced the rules' output


def _order_and_convert(
    source: SourceSet, out: Path, opts: MigrateOptions, many: int
) -> tuple[DependencyGraph, list[str], list[_Done], ConversionContext]:
    """The dependency graph, the output folder prepared (what it kept), and every unit converted,
    for this run's conditional compilation target (in the conversion context, which forked
    workers inherit).

    The context (its catalog) is built here while forked workers scan the units for references:
    it needs no part of the graph, and a serial phase next to the scan leaves no core idle."""
    # unit files are rewritten in place by this run (prepare_out_dir says why)
    rewrites = frozenset(unit_path(u) for u in source.units)
    kept: list[str] = []
    ctx: ConversionContext | None = None

    def prepare() -> None:
        nonlocal ctx
        kept.extend(prepare_out_dir(out, force=opts.force, resume=opts.resume, rewrites=rewrites))
        ctx = prepare_context(source, opts.disabled_rules, memo=opts.memo, target=opts.compile_target)

    scanners = many if worth_workers(source.units) else 1
    graph = analyze_dependencies(source, workers=scanners, meanwhile=prepare)
    assert ctx is not None, "built by prepare()"
    return graph, kept, _convert_units(source, graph, out, opts, ctx), ctx


def _convert_units(
    source: SourceSet, graph: DependencyGraph, out: Path, opts: MigrateOptions, ctx: ConversionContext
) -> list[_Done]:
    target = opts.compile_target
    config = json.dumps(sorted(opts.disabled_rules))
    if target != CompileTarget():  # the journal of a run for another target is not reused
        config = json.dumps([sorted(opts.disabled_rules), list(target.version), [list(f) for f in target.ccflags]])
    journal = Journal(out)
    finished = journal.load() if opts.resume else {}
    if not opts.resume:
        journal.path.unlink(missing_ok=True)
    by_id = source.by_id()
    digests = {uid: source_hash(by_id[uid], config) for uid in graph.order}
    resumed = {uid for uid in graph.order if uid in finished and finished[uid]["hash"] == digests[uid]}
    todo = [by_id[uid] for uid in graph.order if uid not in resumed]
    workers = opts.workers if opts.workers is not None else default_workers(len(todo), sum(len(u.text) for u in todo))

    def write(unit: Unit, conversion: Conversion) -> None:
        write_recorded(out, unit_path(unit), unit_file_text(unit, conversion))

    # Looked up at call time (not bound at import) so that tests can interpose on convert_unit.
    # Each fresh unit's file is written where it was converted (in the workers), before it is
    # journalled here: a crash in between only redoes the unit.
    fresh = convert_in_order(todo, ctx, lambda unit, c: convert_unit(unit, c), workers, write)
    show = sys.stderr.isatty() if opts.progress is None else opts.progress
    done: list[_Done] = []
    progress.CURRENT.total = len(graph.order)
    # every unit file in the manifest at once, before any is written (not one re-read per file)
    record_written(out, [unit_path(by_id[uid]) for uid in graph.order])
    # the conversion workers are forked inside (at the first result): they collect what they make
    with journal, collecting_new():
        for uid in _progress(graph.order, show, desc="converting", unit="unit"):
            unit = by_id[uid]
            path = unit_path(unit)
            if uid in resumed:
                conversion = conversion_from_record(finished[uid])
                static = static_of(conversion)
                write_recorded(out, path, unit_file_text(unit, conversion))
            else:
                got, conversion, static = next(fresh)
                assert got.id == uid, "conversions must come back in dependency order"
                journal.append(unit, digests[uid], conversion)
            progress.CURRENT.kept += 1
            done.append(_Done(unit, conversion, path, static, deps=graph.dependencies(uid)))
    return done


def _progress(items: list[str], show: bool, **bar) -> Iterable[str]:
    """A progress bar over items when one is shown (tqdm is imported only then: 25-80 ms of a
    run that shows none)."""
    if not show:
        return items
    from tqdm import tqdm

    return tqdm(items, **bar)


def _deploy(done: list[_Done], preamble: str, spec: str, out: Path) -> tuple[str, str | None, SandboxSummary]:
    # the server side (psycopg, the embedded server) is imported only by runs that deploy
    from harness.engines.postgres import scratch_database
    from harness.judge.deploy import deploy_units
    from migrator.batch.sandboxing import open_engine, sandbox_summary

    with open_engine(spec) as engine, scratch_database(engine, prefix="deploy") as dsn:
        # the unit files' text, as verification deploys it: an error's line is the file's line
        items = [(d.unit.id, _deployed_text(d), d.deps) for d in done]
        pre, outcomes = deploy_units(dsn, preamble, items)
        for d, outcome in zip(done, outcomes):
            d.deploy = outcome
        _split_refused_rows(done, dsn, out)
        return engine.name, pre.error, sandbox_summary(engine)


def _deployed_text(d: _Done) -> str:
    """The unit's file as written (header comments and all), or nothing when it has no output."""
    return unit_file_text(d.unit, d.conversion, d.repaired) if d.conversion.output.strip() else ""


def _split_refused_rows(done: list[_Done], dsn: str, out: Path) -> None:
    """A table's rows that PostgreSQL refused as a whole (a duplicate key, an orphan, a CHECK …)
    are loaded again row by row where they must be, in deployment order (parents first): refused
    rows go to rejects/<table>.bad and leave the unit file, so `psql -f deploy.sql` never stops on one."""
    refused = [
        d
        for d in done
        if d.unit.parts and d.deploy and not d.deploy.ok and (d.deploy.sqlstate or "")[:2] in ("22", "23")
    ]
    if not refused:
        return
    import psycopg

    from harness.judge.deploy import DeployOutcome
    from migrator.data.loader import rejects_text
    from migrator.data.table_unit import split_refused

    with psycopg.connect(dsn, autocommit=True) as conn:
        for d in refused:
            split = split_refused(conn, d.unit, d.conversion.output)
            if split is None:
                continue
            d.conversion.output, rejects = split
            bad = f"rejects/{Path(d.path).stem}.bad"
            write_output(out, bad, rejects_text(rejects))
            d.conversion.notes.append(f"{len(rejects)} rows refused by PostgreSQL: in {bad}, left out of the unit file")
            write_output(out, d.path, unit_file_text(d.unit, d.conversion))
            assert d.deploy is not None, "deployed above"
            d.deploy = DeployOutcome(d.unit.id, True, d.deploy.seconds, blocked_by=d.deploy.blocked_by)


def _entry(d: _Done, sandbox: SandboxSummary | None = None) -> UnitEntry:
    c, dep = d.conversion, d.deploy
    affected = None
    if sandbox:
        from migrator.batch.sandboxing import affected_note

        affected = affected_note(c.output, sandbox.notes)
    return UnitEntry(
        id=d.unit.id,
        kind=d.unit.kind.value,
        name=d.unit.qualified_name,
        source=str(d.unit.span),
        status="repaired" if d.repaired else c.status,
        output=d.path,
        rules_applied=c.applied_rules,
        unconverted=[
            UnconvertedItem(construct_name=u.construct, message=u.message, line=u.line) for u in c.unconverted
        ],
        notes=c.notes + ([affected] if affected else []),
        error=c.error,
        depends_on=d.deps,
        static_ok=d.static.ok,
        static_error=d.static.error,
        static_note=d.static.note,
        deployed=None if dep is None else dep.ok,
        deploy_error=None if dep is None else dep.error,
        sqlstate=None if dep is None else dep.sqlstate,
        blocked_by=[] if dep is None else list(dep.blocked_by),
    )


def migrate(src: Path, out: Path, opts: MigrateOptions | None = None, reading: Reading | None = None) -> RunReport:
    """Run the whole batch. Raises SourceError for unreadable input and OutputDirError for OUT.
    `reading`: the source's reading, begun by the caller with the same `src`, `opts.schema` and
    workers (`migrator.cli.commands.run_migrate` begins it before it imports this module, whose
    imports then overlap the reading); the source is read here otherwise."""
    from migrator.batch.verification import attach_agent, attach_verification, write_reports

    opts = opts or MigrateOptions()
    t0 = time.perf_counter()
    check_overlap(src, out)  # before anything is read or written
    # the phases that handle each file or unit on its own share the conversion's processes
    many = opts.workers if opts.workers is not None else forked.core_workers()
    source = (
        reading.result()
        if reading is not None
        else read_schema_dir(src, opts.schema, many, opts.multi_schema, opts.schema_map)
    )
    if opts.verify:
        check_evidence(opts.scenarios, opts.transcript, [u.id for u in source.units])
    schema_warning = None if opts.schema or source.owners else schema_name_warning(source)
    test_ids: frozenset[str] = frozenset()
    if opts.suite is not None:  # the test code converts with the library: one catalog knows both
        from migrator.suites.session import merge_sources, read_tests

        source, test_ids = merge_sources(source, read_tests(opts.suite.dirs, source.schema, many))
    graph, kept, done, ctx = _order_and_convert(source, out, opts, many)
    test_done = [d for d in done if d.unit.id in test_ids]
    done = [d for d in done if d.unit.id not in test_ids] if test_ids else done
    packages = sorted({u.name for u in source.units if u.kind is UnitKind.PACKAGE_SPEC})
    used = sorted({u.schema for u in source.units})
    owners = used if source.owners else [source.schema, *(s for s in used if s != source.schema)]
    preamble = preamble_sql(source.schema, packages, owners, opts.directories)
    write_output(out, EXTENSIONS_FILE, extensions_sql(opts.directories))
    write_output(out, PREAMBLE, preamble)
    write_output(out, "deploy.sql", deploy_script([d.path for d in done]))
    agent = _repair(done, preamble, out, opts, opts.model) if opts.model else None
    engine_name, preamble_error, sandbox = (None, None, None)
    if opts.deploy and not opts.verify:  # verification deploys (and reports) on its own
        engine_name, preamble_error, sandbox = _deploy(done, preamble, opts.deploy, out)
    issues = [
        IssueEntry(
            code=i.code, severity=i.severity.value, file=i.file, line=i.line, unit_id=i.unit_id, message=i.message
        )
        for i in source.issues
    ]
    if schema_warning:
        issues.append(IssueEntry(code=SCHEMA_FROM_FOLDER, severity="warning", file=".", line=0, message=schema_warning))
    units = [_entry(d, sandbox) for d in done]
    lines = sum(nonblank_lines(d.unit.text) for d in done)
    report = RunReport(
        tool=_pkg,
        version=VERSION,
        source_dir=str(src),
        schema_name=source.schema,
        disabled_rules=sorted(opts.disabled_rules),
        engine=engine_name,
        preamble_error=preamble_error,
        files=[f.__dict__ for f in source.files],
        issues=issues,
        cycles=graph.cycles,
        missing_references={k: sorted(v) for k, v in graph.missing.items()},
        units=units,
        summary=summarize(units, issues, lines, time.perf_counter() - t0, opts.deploy is not None),
        sandbox=sandbox,
        output_kept=kept,
    )
    if opts.verify and opts.deploy:
        report = attach_verification(
            report,
            out,
            opts.deploy,
            opts.scenarios,
            opts.transcript,
            step_timeout_ms=opts.step_timeout_ms,
            arm_name="agent (rules + model)" if agent else "agent (rules only)",
            extra_rows=[agent[1]] if agent else [],
            executor=opts.executor,
        )
    if agent:
        report = attach_agent(report, agent[0], opts, agent[2], out, model_error=agent[3])
    if opts.suite is not None:
        report = _run_suite(report, test_done, out, opts, ctx)
    write_reports(report, out)
    return report


def _run_suite(report: RunReport, test_done: list[_Done], out: Path, opts: MigrateOptions, ctx) -> RunReport:
    """The team's tests: their converted code is listed in deploy_tests.sql (after deploy.sql);
    with deployment, they run on PostgreSQL and their outcomes become evidence."""
    from migrator.source.units import UnitKind as K
    from migrator.suites.attach import TESTS_DEPLOY, attach_tests, usable_test_code

    assert opts.suite is not None
    write_output(out, TESTS_DEPLOY, deploy_script([d.path for d in test_done if d.unit.kind is not K.ANONYMOUS_BLOCK]))
    entries = [_entry(d) for d in test_done]
    if not opts.deploy:
        return report.model_copy(update=dict(test_units=entries))
    code, entries = usable_test_code(
        [(d.unit, _deployed_text(d), _not_usable(d), d.conversion.error) for d in test_done], entries
    )
    deps = {d.unit.id: d.deps for d in test_done}
    return attach_tests(report, out, opts.deploy, opts.suite, code, entries, deps, ctx)


def _not_usable(d: _Done) -> str | None:
    """Why a converted test unit cannot be deployed or run as it is (None: it can)."""
    c = d.conversion
    if c.error:
        return f"conversion failed: {c.error}"
    if c.unconverted:
        return "not converted: " + "; ".join(f"{u.construct} ({u.message})" for u in c.unconverted[:3])
    if not d.static.ok:
        return f"PostgreSQL's parser refuses it: {d.static.error}"
    return None


def nonblank_lines(text: str) -> int:
    """Source lines that hold something (blank and whitespace-only lines are not counted)."""
    return sum(1 for line in text.splitlines() if line.strip())


def _repair(done: list[_Done], preamble: str, out: Path, opts: MigrateOptions, model: str):
    """Judge the rules' output (the rules-only row), then run the repair agent on it."""
    from migrator.agent.run import AgentRequest, run_plsql_agent
    from migrator.batch.verification import rules_only_row

    if not (opts.deploy and opts.verify):
        raise MigratorError("the repair agent needs --verify (it is judged by execution, never by the model)")
    by_id = {d.unit.id: d for d in done}
    rules_row, rules_categories = rules_only_row(done_units(done), preamble, opts)

    def write(unit_id: str, text: str) -> None:
        d = by_id[unit_id]
        if text == d.conversion.output:  # the agent kept the rules' text: nothing was repaired
            return
        d.conversion.output = text
        d.repaired = True
        write_output(out, d.path, unit_file_text(d.unit, d.conversion, repaired=True))
        d.static = static_of(d.conversion)

    req = AgentRequest(
        model=model,
        kb=opts.kb,
        attempts=opts.attempts,
        settings=opts.settings,
        scenarios=opts.scenarios,
        transcript=opts.transcript,
        engine=opts.deploy,
        cache_dir=out / ".migrator" / "model-cache",
        held_out_targets=opts.held_out_targets,
        retrieval=opts.retrieval,
        checkpoint_every=opts.checkpoint_every,
    )
    outputs = {d.unit.id: d.conversion.output for d in done}
    deps = {d.unit.id: d.deps for d in done}
    from tqdm import tqdm

    show = sys.stderr.isatty() if opts.progress is None else opts.progress
    with tqdm(total=len(done), desc="judging/repairing", unit="unit", disable=not show) as bar:
        episodes, model_error = run_plsql_agent([d.unit for d in done], outputs, deps, preamble, write, req, out, bar)
    return episodes, rules_row, rules_categories, model_error


def done_units(done: list[_Done]) -> list[UnitToVerify]:
    from harness.judge.verify import UnitToVerify

    return [UnitToVerify(d.unit.id, d.conversion.output, tuple(d.deps), d.static.ok) for d in done]
