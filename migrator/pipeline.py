"""The batch job: read a schema directory, order it, convert each unit, check, deploy, report."""

from __future__ import annotations

import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from tqdm import tqdm

from harness.deploy import DeployOutcome, deploy_units
from harness.postgres import engine_from_spec, scratch_database
from migrator import __name__ as _pkg
from migrator.convert import build_catalog, convert_unit, make_context
from migrator.depgraph import DependencyGraph, analyze_dependencies
from migrator.output import (
    PREAMBLE,
    Journal,
    conversion_from_record,
    deploy_script,
    prepare_out_dir,
    preamble_sql,
    source_hash,
    unit_file_text,
    unit_path,
)
from migrator.report import IssueEntry, RunReport, UnconvertedItem, UnitEntry, summarize
from migrator.verification import attach_verification, write_reports
from migrator.rules.context import Conversion
from migrator.source import read_schema_dir
from migrator.static_check import StaticResult, check_sql
from migrator.units import Severity, SourceSet, Unit, UnitKind

VERSION = "0.1.0"


@dataclass
class MigrateOptions:
    schema: str | None = None
    force: bool = False
    resume: bool = False
    disabled_rules: frozenset[str] = frozenset()
    deploy: str | None = None  # engine spec ("embedded", "testcontainers", a DSN) or None
    progress: bool | None = None  # None: only when stderr is a terminal
    verify: bool = False  # run scenarios against Oracle transcripts (needs deploy)
    scenarios: Path | None = None
    transcript: Path | None = None
    step_timeout_ms: int = 5000


@dataclass
class _Done:
    unit: Unit
    conversion: Conversion
    path: str
    static: StaticResult
    deploy: DeployOutcome | None = None
    deps: list[str] = field(default_factory=list)


def _convert_all(source: SourceSet, graph: DependencyGraph, out: Path, opts: MigrateOptions) -> list[_Done]:
    ctx = make_context(build_catalog(source), opts.disabled_rules)
    config = json.dumps(sorted(opts.disabled_rules))
    journal = Journal(out)
    finished = journal.load() if opts.resume else {}
    if not opts.resume:
        journal.path.unlink(missing_ok=True)
    by_id = source.by_id()
    show = sys.stderr.isatty() if opts.progress is None else opts.progress
    done: list[_Done] = []
    for uid in tqdm(graph.order, desc="converting", unit="unit", disable=not show):
        unit = by_id[uid]
        digest = source_hash(unit, config)
        record = finished.get(uid)
        if record is not None and record["hash"] == digest:
            conversion = conversion_from_record(record)
        else:
            conversion = convert_unit(unit, ctx)
            journal.append(unit, digest, conversion)
        path = unit_path(unit)
        target = out / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(unit_file_text(unit, conversion), encoding="utf-8")
        static = check_sql(conversion.output) if conversion.output.strip() else StaticResult(False, 0, 0, "no output")
        done.append(_Done(unit, conversion, path, static, deps=graph.dependencies(uid)))
    return done


def _deploy(done: list[_Done], preamble: str, spec: str) -> tuple[str, str | None]:
    with engine_from_spec(spec) as engine, scratch_database(engine, prefix="deploy") as dsn:
        items = [(d.unit.id, d.conversion.output, d.deps) for d in done]
        pre, outcomes = deploy_units(dsn, preamble, items)
        for d, outcome in zip(done, outcomes):
            d.deploy = outcome
        return engine.name, pre.error


def _entry(d: _Done) -> UnitEntry:
    c, dep = d.conversion, d.deploy
    return UnitEntry(
        id=d.unit.id,
        kind=d.unit.kind.value,
        name=d.unit.qualified_name,
        source=str(d.unit.span),
        status=c.status,
        output=d.path,
        rules_applied=c.applied_rules,
        unconverted=[UnconvertedItem(construct_name=u.construct, message=u.message, line=u.line) for u in c.unconverted],
        notes=c.notes,
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


def migrate(src: Path, out: Path, opts: MigrateOptions | None = None) -> RunReport:
    """Run the whole batch. Raises SourceError for unreadable input and OutputDirError for OUT."""
    opts = opts or MigrateOptions()
    t0 = time.perf_counter()
    source = read_schema_dir(src, opts.schema)
    graph = analyze_dependencies(source)
    prepare_out_dir(out, force=opts.force, resume=opts.resume)
    done = _convert_all(source, graph, out, opts)
    packages = sorted({u.name for u in source.units if u.kind is UnitKind.PACKAGE_SPEC})
    preamble = preamble_sql(source.schema, packages)
    (out / PREAMBLE).parent.mkdir(parents=True, exist_ok=True)
    (out / PREAMBLE).write_text(preamble, encoding="utf-8")
    (out / "deploy.sql").write_text(deploy_script([d.path for d in done]), encoding="utf-8")
    engine_name, preamble_error = (None, None)
    if opts.deploy and not opts.verify:  # verification deploys (and reports) on its own
        engine_name, preamble_error = _deploy(done, preamble, opts.deploy)
    issues = [
        IssueEntry(code=i.code, severity=i.severity.value, file=i.file, line=i.line, unit_id=i.unit_id, message=i.message)
        for i in source.issues
    ]
    units = [_entry(d) for d in done]
    lines = sum(d.unit.span.end_line - d.unit.span.start_line + 1 for d in done)
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
    )
    if opts.verify and opts.deploy:
        report = attach_verification(report, out, opts.deploy, opts.scenarios, opts.transcript,
                                     step_timeout_ms=opts.step_timeout_ms)
    write_reports(report, out)
    return report


def exit_code(report: RunReport) -> int:
    """0: every unit converted, parses (and deployed, when deployment ran); 1 otherwise."""
    bad_input = any(i.severity == Severity.ERROR.value for i in report.issues)
    bad_unit = any(
        u.status != "converted" or not u.static_ok or u.deployed is False for u in report.units
    )
    return 1 if bad_input or bad_unit or report.preamble_error else 0
