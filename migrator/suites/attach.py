"""`migrate --tests`: run the team's suite after the library's conversion (and verification) and
put what it showed into the run's report, `tests.json` and `junit.xml`."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from migrator.batch.output import PREAMBLE, write_output
from migrator.batch.report import RunReport, TestsSummary, UnitEntry, summarize
from migrator.suites import evidence
from migrator.suites.model import TestRun
from migrator.suites.plain import PlainStyle, convert_queries, script_includes
from migrator.suites.session import SuiteOptions, block_converter, deploy_and_run, suite_sha256, view_converter
from migrator.suites.styles import TestCode, pick_style

if TYPE_CHECKING:
    from migrator.convert.context import ConversionContext
    from migrator.source.units import Unit

TESTS_FILE = "tests.json"
TESTS_DEPLOY = "deploy_tests.sql"
STYLE_SUPPORT = "support/01_test_style.sql"


def usable_test_code(
    done: Sequence[tuple[Unit, str, str | None, str | None]], entries: list[UnitEntry]
) -> tuple[list[TestCode], list[UnitEntry]]:
    """(unit, converted text, why it is not usable, conversion crash) per test unit, in dependency
    order, as the runner deploys it: a unit with routines that did not convert is deployed with
    those routines raising why (migrator.suites.partial); its report entry says which."""
    from migrator.suites.partial import runnable

    code: list[TestCode] = []
    notes: dict[str, str] = {}
    for unit, text, problem, crashed in done:
        if problem is not None and not crashed and text.strip():
            fixed = runnable(text)
            if fixed.changed:
                text, problem = fixed.text, None
                parts = [*fixed.stubbed, *(f"left out: {d}" for d in fixed.dropped)]
                notes[unit.id] = "deployed for the tests with what did not convert raising when called: " + "; ".join(
                    parts
                )
        code.append(TestCode(unit, text, problem))
    entries = [e.model_copy(update=dict(notes=[*e.notes, notes[e.id]])) if e.id in notes else e for e in entries]
    return code, entries


def attach_tests(
    report: RunReport,
    out: Path,
    engine_spec: str,
    options: SuiteOptions,
    code: list[TestCode],
    entries: list[UnitEntry],
    deps: Mapping[str, Sequence[str]],
    ctx: ConversionContext,
) -> RunReport:
    """Run the suite; `entries` are the test code's own report entries (converted, not deployed)."""
    from migrator.batch.sandboxing import open_engine

    sha = suite_sha256([c.unit for c in code])
    style = pick_style(code, options.style, options.pattern)
    if isinstance(style, PlainStyle):  # a script's @@ lines give the order its files run in
        style.includes = script_includes((i.file, i.message) for i in report.issues if i.code == "sqlplus-directive")
        code = convert_queries(code, view_converter(ctx, report.schema_name))  # SQL*Plus prints their rows
    support = getattr(style, "support_sql", "")
    if support:  # the style's library (utPLSQL's `ut` schema) goes into deploy_tests.sql too
        write_output(out, STYLE_SUPPORT, support)
        script = (out / TESTS_DEPLOY).read_text(encoding="utf-8")
        line = f"\\ir {PREAMBLE}\n"
        write_output(out, TESTS_DEPLOY, script.replace(line, f"{line}\\ir {STYLE_SUPPORT}\n", 1))
    library = [
        (
            u.id,
            (out / u.output).read_text(encoding="utf-8") if u.output and not u.error else "",
            tuple(u.depends_on),
        )
        for u in report.units
    ]
    preamble = (out / PREAMBLE).read_text(encoding="utf-8")
    convert = block_converter(ctx, report.schema_name)
    with open_engine(engine_spec) as engine:
        run, shown, seconds = deploy_and_run(
            engine, preamble, library, code, deps, style, convert, timeout_ms=options.timeout_ms, sha256=sha
        )
    notes: list[str] = []
    on_oracle: set[str] | None = None
    if options.oracle_log is not None:
        on_oracle, notes = evidence.oracle_passed(options.oracle_log, [r.name for r in run.results])
    write_output(out, TESTS_FILE, json.dumps(run.to_json(), indent=2, ensure_ascii=False) + "\n")
    units = evidence.apply(report.units, run, on_oracle)
    test_units = [
        e.model_copy(
            update=dict(
                deployed=shown.deployed.get(e.id),
                deploy_error=shown.errors.get(e.id),
                verdict=shown.problems.get(e.id),
                notes=[*e.notes, shown.notes[e.id]] if e.id in shown.notes else e.notes,
            )
        )
        for e in entries
    ]
    summary = TestsSummary(
        style=style.style.value,
        dirs=[str(d) for d in options.dirs],
        suite_sha256=sha,
        totals=run.totals(),
        seconds=round(seconds, 3),
        oracle_log=str(options.oracle_log) if options.oracle_log else None,
        oracle_passed=len(on_oracle) if on_oracle is not None else None,
        notes=notes,
    )
    s = report.summary
    new_summary = summarize(units, report.issues, s.converted_lines, s.seconds, s.deployed is not None)
    return report.model_copy(update=dict(units=units, tests=summary, test_units=test_units, summary=new_summary))


def load_tests(out: Path) -> TestRun | None:
    """The suite run a report's tests.json holds (None when the run had no --tests)."""
    from migrator.suites.model import Outcome, TestResult, TestStyle

    path = out / TESTS_FILE
    if not path.is_file():
        return None
    data = json.loads(path.read_text(encoding="utf-8"))
    run = TestRun(suite_sha256=data.get("suite_sha256", ""))
    for t in data.get("tests", []):
        run.results.append(
            TestResult(
                name=t["name"],
                suite=t.get("suite", ""),
                style=TestStyle(t.get("style", "plain")),
                outcome=Outcome(t["outcome"]),
                message=t.get("message", ""),
                output=list(t.get("output", [])),
                seconds=float(t.get("seconds", 0.0)),
                source=t.get("source", ""),
                units=list(t.get("units", [])),
                script=bool(t.get("script", False)),
            )
        )
    return run
