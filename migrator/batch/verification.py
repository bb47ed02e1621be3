"""Attach execution verdicts to a migration report, and write the report files.

Verification reads the unit files from OUT (so a reviewer's hand edit is what gets judged),
deploys them with the preamble into a template database, runs the scenarios against Oracle's
transcript, and runs the same scenarios with nothing deployed for the do-nothing row.
"""

from __future__ import annotations

import json
import statistics
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import ValidationError

from migrator.batch.output import (
    PREAMBLE,
    REVIEW_DIR,
    STEPS_FILE,
    remove_output,
    remove_written_under,
    write_output,
)
from migrator.batch.report import (
    AgentSummary,
    ArmRow,
    MismatchEntry,
    RunReport,
    UnitEntry,
    VerificationSummary,
    summarize,
    to_markdown,
)
from migrator.errors import MigratorError

if TYPE_CHECKING:  # harness.judge.verify is imported where a run is judged, not for every migrate
    from harness.judge.verify import SideResult, UnitToVerify, VerifyResult

# What only a verified run needs (scenario files, the server, the steps file) is imported by the
# functions that use it: `migrate --no-deploy` writes its reports without loading psycopg or yaml.

AGENT_MANIFEST = "run_manifest.json"  # written by the repair agent (migrator.agent.run)


def _arm(name: str, side: SideResult) -> ArmRow:
    counts: dict[str, int] = {}
    for v in side.verdicts:
        counts[v.category] = counts.get(v.category, 0) + 1
    return ArmRow(arm=name, by_category=counts, steps_total=side.steps_total, steps_agreeing=side.steps_agreeing)


def _p95(values: list[float]) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))], 4)


def _merge(unit: UnitEntry, result: VerifyResult, index: int) -> UnitEntry:
    verdict = result.agent.verdicts[index]
    deploy = result.deploy[index]
    mismatch = None
    if verdict.first_mismatch:
        scenario, step, m = verdict.first_mismatch
        mismatch = MismatchEntry(scenario=scenario, step=step, what=m.what, expected=m.expected, actual=m.actual)
    return unit.model_copy(
        update=dict(
            deployed=deploy.ok,
            deploy_error=deploy.error,
            sqlstate=deploy.sqlstate,
            blocked_by=list(deploy.blocked_by),
            category=verdict.category,
            tier=verdict.tier,
            verdict=verdict.reason,
            references=verdict.references,
            steps=verdict.steps,
            steps_agreeing=verdict.steps_agreeing,
            coverage=verdict.coverage,
            coverage_percent=verdict.coverage_percent,
            first_mismatch=mismatch,
        )
    )


def rules_only_row(units: list[UnitToVerify], preamble: str, opts) -> tuple[ArmRow, dict[str, str]]:
    """Judge the deterministic rules' output alone: the row the agent must beat."""
    from harness.ground_truth.scenarios import load_scenarios, load_transcript
    from harness.judge.verify import verify
    from migrator.batch.sandboxing import open_engine

    scenario_file = load_scenarios(opts.scenarios) if opts.scenarios else None
    transcript_file = load_transcript(opts.transcript) if opts.transcript else None
    with open_engine(opts.deploy, opts.executor) as engine:
        result = verify(
            engine,
            preamble,
            units,
            scenario_file,
            transcript_file,
            step_timeout_ms=opts.step_timeout_ms,
            do_nothing=False,
        )
    return _arm("rules only", result.agent), {v.unit_id: v.category for v in result.agent.verdicts}


def attach_agent(
    report: RunReport, episodes, opts, rules_categories: dict[str, str], out: Path, model_error: str | None = None
) -> RunReport:
    by_id = {e.item_id: e for e in episodes}
    units = [
        u.model_copy(
            update=dict(
                agent_attempts=len(by_id[u.id].attempts) if u.id in by_id else 0,
                agent_tokens=by_id[u.id].tokens if u.id in by_id else 0,
                agent_error=by_id[u.id].model_error if u.id in by_id else None,
                rules_category=rules_categories.get(u.id),
            )
        )
        for u in report.units
    ]
    correct = sum(1 for u in units if u.category == "correct")
    tokens = sum(e.tokens for e in episodes)
    repaired = [u.id for u in units if u.category == "correct" and rules_categories.get(u.id) in ("wrong", "rejected")]
    agent = AgentSummary(
        model=opts.model,
        attempts_budget=opts.attempts,
        calls=sum(len(e.attempts) for e in episodes),
        tokens=tokens,
        correct_units=correct,
        tokens_per_correct_unit=round(tokens / correct, 1) if correct else None,
        repaired=repaired,
        manifest=str(out / AGENT_MANIFEST),
        model_error=model_error,
        monitor=_monitor(out),
    )
    return report.model_copy(update=dict(units=units, agent=agent))


def _monitor(out: Path) -> list[dict]:
    path = out / AGENT_MANIFEST
    return json.loads(path.read_text(encoding="utf-8")).get("monitor", []) if path.is_file() else []


def attach_verification(
    report: RunReport,
    out: Path,
    engine_spec: str,
    scenarios: Path | None,
    transcript: Path | None,
    *,
    step_timeout_ms: int = 5000,
    arm_name: str = "agent (rules only)",
    extra_rows: Sequence[ArmRow] = (),
    executor: str | None = None,
) -> RunReport:
    from harness.ground_truth.scenarios import load_scenarios, load_transcript
    from harness.judge.verify import UnitToVerify, verify
    from migrator.batch.sandboxing import open_engine, sandbox_summary
    from migrator.batch.steps_file import dump_steps, steps_file

    scenario_file = load_scenarios(scenarios) if scenarios else None
    transcript_file = load_transcript(transcript) if transcript else None
    # A unit whose conversion crashed has only header comments in its file: judge it as the
    # empty output it is (rejected), never as "deployed" because comments execute without error.
    units = [
        UnitToVerify(
            u.id,
            (out / u.output).read_text(encoding="utf-8") if u.output and not u.error else "",
            tuple(u.depends_on),
            bool(u.static_ok),
        )
        for u in report.units
    ]
    preamble = (out / PREAMBLE).read_text(encoding="utf-8")
    with open_engine(engine_spec, executor) as engine:
        result = verify(engine, preamble, units, scenario_file, transcript_file, step_timeout_ms=step_timeout_ms)
        engine_name = engine.name
        sandbox = sandbox_summary(engine)
    merged = [_merge(u, result, i) for i, u in enumerate(report.units)]
    merged = [_with_sandbox_note(u, units[i].sql, sandbox.notes) for i, u in enumerate(merged)]
    secs = list(result.agent.scenario_seconds.values())
    summary = VerificationSummary(
        provenance=result.provenance,
        references_checked=result.references_checked,
        references_method=result.references_method,
        rows=[_arm(arm_name, result.agent), *extra_rows, _arm("do-nothing", result.do_nothing)],
        scenario_seconds_median=round(statistics.median(secs), 4) if secs else None,
        scenario_seconds_p95=_p95(secs),
        seconds=round(result.seconds, 3),
    )
    # every step's two outcomes go beside report.json (which keeps only the first mismatch)
    write_output(out, STEPS_FILE, dump_steps(steps_file(report.schema_name, result.provenance, result.agent.records)))
    s = report.summary
    # summary.seconds is the run's own time; verification's is verification.seconds, so that
    # judging the same output again (`migrator verify`) never inflates the run it judges
    new_summary = summarize(merged, report.issues, s.converted_lines, s.seconds, True)
    return report.model_copy(
        update=dict(
            units=merged,
            verification=summary,
            engine=engine_name,
            sandbox=sandbox,
            preamble_error=result.agent.preamble_error,
            summary=new_summary,
        )
    )


def _with_sandbox_note(unit: UnitEntry, output: str, notes: list[str]) -> UnitEntry:
    from migrator.batch.sandboxing import affected_note

    note = affected_note(output, notes)
    if note is None or note in unit.notes:
        return unit
    return unit.model_copy(update=dict(notes=[*unit.notes, note]))


def write_reports(report: RunReport, out: Path) -> None:
    """Write every report file this report has, and remove those it has not: a file left from an
    earlier run in the same OUT (--force, --resume) would describe that run, not this one. Only
    files a run of ours wrote are ever removed (OUT/.migrator/written.txt)."""
    write_output(out, "report.json", report.model_dump_json(indent=2))
    write_output(out, "report.md", to_markdown(report))
    tests = None
    if report.tests is not None:  # the team's own suite ran (migrate --tests): tests.json holds it
        from migrator.suites.attach import load_tests

        tests = load_tests(out)
    else:
        remove_output(out, "tests.json")
    if report.verification is not None or tests is not None:
        from migrator.batch.report_pages import to_html, to_junit  # verified runs only (html, xml)

        write_output(out, "report.html", to_html(report, out))
        write_output(out, "junit.xml", to_junit(report, tests))
    else:
        remove_output(out, "report.html")
        remove_output(out, "junit.xml")
    if report.verification is None:  # written by attach_verification, with the verdicts
        remove_output(out, STEPS_FILE)
    remove_written_under(out, REVIEW_DIR)  # a review site shows the report it was built from
    if report.agent is None:  # `verify` keeps the agent summary, and so its manifest
        remove_output(out, AGENT_MANIFEST)


class ReportFileError(MigratorError):
    """An output folder whose report.json is missing or unreadable."""


def load_report(out: Path) -> RunReport:
    try:
        return RunReport.model_validate_json((out / "report.json").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValidationError) as exc:
        raise ReportFileError(f"{out} has no readable report.json ({exc})") from None
