"""The migration report: pydantic models (a file boundary), JSON for tools, Markdown for people."""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, ConfigDict

from migrator.convert.context import MARKER_TOKEN
from migrator.source.units import Severity


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class UnconvertedItem(_Frozen):
    construct_name: str
    message: str
    line: int | None = None


class IssueEntry(_Frozen):
    code: str
    severity: str
    file: str
    line: int
    unit_id: str | None = None
    message: str


class MismatchEntry(_Frozen):
    scenario: str
    step: str
    what: str
    expected: str
    actual: str


class UnitEntry(_Frozen):
    id: str
    kind: str
    name: str  # schema-qualified
    source: str  # file:start-end
    status: str  # converted | partial | failed | repaired (the repair agent's text replaced the rules')
    output: str | None = None  # path relative to OUT
    rules_applied: list[str] = []
    unconverted: list[UnconvertedItem] = []
    notes: list[str] = []
    error: str | None = None
    depends_on: list[str] = []
    static_ok: bool | None = None
    static_error: str | None = None
    static_note: str | None = None
    deployed: bool | None = None  # None: deployment not run
    deploy_error: str | None = None
    sqlstate: str | None = None
    blocked_by: list[str] = []
    # Verification (None when not run)
    category: str | None = None
    tier: str | None = None
    verdict: str | None = None
    references: str | None = None
    steps: int | None = None
    steps_agreeing: int | None = None
    first_mismatch: MismatchEntry | None = None
    coverage: str | None = None  # statements/branches of its PL/pgSQL its scenarios executed
    coverage_percent: float | None = None
    # Repair agent (None when no model was configured)
    agent_attempts: int | None = None
    agent_tokens: int | None = None
    agent_error: str | None = None  # why the model could not be asked for this unit
    rules_category: str | None = None  # the category of the rules-only output, before repair
    # The team's own tests (migrate --tests) that executed this unit (coverage probes), by name
    tests: list[str] = []
    provenance: str | None = None  # of the evidence that set its category when a suite did: suite:<sha256>


class AgentSummary(_Frozen):
    model: str
    attempts_budget: int
    calls: int
    tokens: int
    correct_units: int
    tokens_per_correct_unit: float | None
    repaired: list[str]  # units the rules got wrong/rejected and the agent made correct
    manifest: str
    model_error: str | None = None  # why the model was given up during the run
    # the memory at each checkpoint (knowledge_base.monitor rows), with a knowledge base only
    monitor: list[dict] = []


class ArmRow(_Frozen):
    """One row of the category table: the agent, or an agent that outputs nothing."""

    arm: str
    by_category: dict[str, int]
    steps_total: int
    steps_agreeing: int


class VerificationSummary(_Frozen):
    provenance: str | None  # of the transcript: oracle | reference | authored | None
    references_checked: bool  # inner references were resolved statically (references_method says how)
    rows: list[ArmRow]  # agent first, then do-nothing
    scenario_seconds_median: float | None
    scenario_seconds_p95: float | None
    seconds: float
    references_method: str | None = None  # "plpgsql_check" | "pglast + PostgreSQL (PREPARE)"


class Summary(_Frozen):
    units: int
    by_status: dict[str, int]
    by_kind: dict[str, int]
    static_ok: int
    static_failed: int
    deployed: int | None
    deploy_failed: int | None
    issues_by_severity: dict[str, int]
    converted_lines: int  # non-blank lines of the units' source text
    seconds: float


class SandboxSummary(_Frozen):
    """Where converted code ran: the execution role, and what the server could not provide."""

    execution_role: str
    dedicated: bool  # created for this run (superuser/CREATEROLE DSN, embedded) vs the DSN's own role
    notes: list[str]  # e.g. an extension that could not be installed (units it affects say so)


class TestsSummary(_Frozen):
    """The team's own test suite, run on PostgreSQL (migrate --tests; every result in tests.json)."""

    style: str  # utplsql | framework | plain
    dirs: list[str]
    suite_sha256: str  # the test sources' content hash: the provenance of the evidence they give
    totals: dict[str, int]
    seconds: float
    file: str = "tests.json"
    oracle_log: str | None = None  # --oracle-test-log: the same suite's run on Oracle
    oracle_passed: int | None = None  # tests the Oracle log shows passing (their units may reach G3)
    notes: list[str] = []  # what the suite run could not do (a log name matching no test ...)


class RunReport(_Frozen):
    tool: str
    version: str
    source_dir: str
    schema_name: str
    disabled_rules: list[str]
    engine: str | None
    preamble_error: str | None = None
    files: list[dict]
    issues: list[IssueEntry]
    cycles: list[list[str]]
    missing_references: dict[str, list[str]]
    units: list[UnitEntry]
    summary: Summary
    sandbox: SandboxSummary | None = None
    output_kept: list[str] = []  # files in OUT that no run of ours wrote: --force left them alone
    verification: VerificationSummary | None = None
    agent: AgentSummary | None = None
    tests: TestsSummary | None = None
    # the converted test code (test packages, a framework's objects): not part of the library's counts
    test_units: list[UnitEntry] = []


def summarize(
    units: list[UnitEntry], issues: list[IssueEntry], lines: int, seconds: float, deployed_run: bool
) -> Summary:
    return Summary(
        units=len(units),
        by_status=dict(Counter(u.status for u in units)),
        by_kind=dict(sorted(Counter(u.kind for u in units).items())),
        static_ok=sum(1 for u in units if u.static_ok),
        static_failed=sum(1 for u in units if u.static_ok is False),
        deployed=sum(1 for u in units if u.deployed) if deployed_run else None,
        deploy_failed=sum(1 for u in units if u.deployed is False) if deployed_run else None,
        issues_by_severity=dict(Counter(i.severity for i in issues)),
        converted_lines=lines,
        seconds=round(seconds, 3),
    )


def root_cause(u: UnitEntry) -> str | None:
    """When a unit failed to parse or deploy only because of the marker the rules left where they
    could not convert (`syntax error at or near "MIGRATOR_UNCONVERTED"`), the reason itself: what
    was not converted, and where in the Oracle source (file:line). None otherwise."""
    failures = [e for e in (u.static_error, u.deploy_error) if e]
    if (
        u.status == "repaired"
        or u.error
        or not u.unconverted
        or not any(MARKER_TOKEN.lower() in e.lower() for e in failures)
    ):
        return None
    return "not converted: " + "; ".join(
        f"{i.construct_name}{_source_line(u.source, i.line)} ({i.message})" for i in u.unconverted
    )


def _source_line(source: str, line: int | None) -> str:
    """` at FILE:N` for line `line` of a unit whose source is `FILE:START-END` (lines of a unit
    count from its first line)."""
    file, _, span = source.rpartition(":")
    start = span.split("-")[0]
    return f" at {file}:{int(start) + line - 1}" if line and file and start.isdigit() else ""


def exit_code(report: RunReport) -> int:
    """The one exit-code rule, for `migrate` and for `verify` alike (same report, same code).

    0: every unit converted (by the rules, or repaired by the agent: a repaired unit is judged by
    its category like any other) and parses; deployed, when deployment ran; not `wrong` or `rejected`,
    when verification ran (`unverified` is no failure: nothing showed it wrong); the repair agent
    could ask its model for every unit it had to repair; no input error; the preamble deployed.
    1 otherwise."""
    bad_input = any(i.severity == Severity.ERROR.value for i in report.issues)
    bad_unit = any(
        u.status not in ("converted", "repaired")
        or not u.static_ok
        or u.deployed is False
        or u.category in ("wrong", "rejected")
        or u.agent_error
        for u in report.units
    )
    return 1 if bad_input or bad_unit or report.preamble_error else 0


# What each transcript provenance is worth, in the words the report uses.
PROVENANCE_TEXT = {
    "oracle": "recorded from a live Oracle: agreement is G3 evidence",
    "reference": "recorded from a trusted PostgreSQL port (`record --reference`): agreement is at most G2, "
    "it shows the migration behaves like that port, not like Oracle",
    "authored": "written by hand from documented Oracle semantics: agreement is at most G2",
}


def _references_text(v: VerificationSummary) -> str:
    if v.references_method:
        return f"resolved by {v.references_method} (a missing name rejects the unit)"
    return "checked by plpgsql_check" if v.references_checked else "exercised by scenarios only"


def verification_table(v: VerificationSummary) -> list[str]:
    """The category table, agent beside the do-nothing row (never one blended score)."""
    meaning = PROVENANCE_TEXT.get(v.provenance or "", "no transcript")
    lines = [
        f"Verification ({v.seconds} s): transcript provenance `{v.provenance or 'none'}` ({meaning}); "
        f"inner references {_references_text(v)}",
        "",
        "| arm | correct | wrong | unverified | rejected | steps agreeing with Oracle |",
        "|---|---|---|---|---|---|",
    ]
    for row in v.rows:
        c = row.by_category
        lines.append(
            f"| {row.arm} | {c.get('correct', 0)} | {c.get('wrong', 0)} | {c.get('unverified', 0)} | "
            f"{c.get('rejected', 0)} | {row.steps_agreeing}/{row.steps_total} |"
        )
    return lines


def _cell(text: str | None, limit: int = 140) -> str:
    text = (text or "").replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _agent_lines(a: AgentSummary) -> list[str]:
    out = [
        "",
        f"Repair agent `{a.model}` (≤ {a.attempts_budget} attempts per unit): {a.calls} calls, {a.tokens} tokens, "
        f"{a.tokens_per_correct_unit if a.tokens_per_correct_unit is not None else '—'} tokens per correct unit; "
        f"repaired: {', '.join(a.repaired) or 'none'}",
    ]
    if a.model_error:
        out += ["", f"**Model failed:** {_cell(a.model_error, 400)}"]
    if a.monitor:
        out += [
            "",
            "Memory at each checkpoint (the repair queries so far, replayed on a snapshot; `memory_monitor.png`):",
            "",
            "| checkpoint | units | verified experiences | admitted rules | distinct positives shown | top example share "
            "| churn | margin |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for m in a.monitor:
            churn = "n/a" if m.get("churn") is None else f"{m['churn']:.3f}"
            margin = "n/a" if m.get("margin_mean") is None else f"{m['margin_mean']:.3f}"
            out.append(
                f"| {m['checkpoint']} | {m['position']} | {m['verified_entries']} | {m['admitted_rules']} | "
                f"{m['distinct_positive_shown']} | {m['top_positive_share']:.2f} | {churn} | {margin} |"
            )
    return out


def to_markdown(report: RunReport) -> str:
    s = report.summary
    out = [
        f"# Migration report: `{report.schema_name}`",
        "",
        f"Source `{report.source_dir}` · {s.units} units · {s.converted_lines} non-blank source lines · {s.seconds} s",
        f"Disabled rules: {', '.join(report.disabled_rules) or 'none'} · deployment engine: {report.engine or 'not run'}",
        "",
        "| measure | count |",
        "|---|---|",
    ]
    out += [f"| status `{k}` | {v} |" for k, v in sorted(s.by_status.items())]
    out += [f"| parses (pglast) | {s.static_ok} of {s.units} |"]
    if s.deployed is not None:
        out += [f"| deployed on PostgreSQL | {s.deployed} of {s.units} |"]
    out += [f"| input issues `{k}` | {v} |" for k, v in sorted(s.issues_by_severity.items())]
    if report.preamble_error:
        out += ["", f"**Preamble failed to deploy:** {_cell(report.preamble_error, 400)}"]
    if report.verification:
        out += ["", *verification_table(report.verification)]
    if report.agent:
        out += _agent_lines(report.agent)
    out += [
        "",
        "## Units (deployment order)",
        "",
        "| unit | source | status | parses | deployed | category | tier | problem |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for u in report.units:
        problem = (
            root_cause(u)
            or u.error
            or u.deploy_error
            or u.static_error
            or "; ".join(f"{i.construct_name}: {i.message}" for i in u.unconverted)
        )
        if u.category and u.category != "correct":
            problem = problem or u.verdict or ""
        if u.agent_error:
            problem = f"{problem}; repair: {u.agent_error}" if problem else f"repair: {u.agent_error}"
        dep = "—" if u.deployed is None else ("yes" if u.deployed else "**no**")
        out.append(
            f"| `{u.id}` | {u.source} | {u.status} | {'yes' if u.static_ok else '**no**'} | {dep} | "
            f"{u.category or '—'} | {u.tier or '—'} | {_cell(problem)} |"
        )
    if report.issues:
        out += ["", "## Input issues", "", "| where | severity | code | unit | message |", "|---|---|---|---|---|"]
        out += [
            f"| {i.file}:{i.line} | {i.severity} | {i.code} | {i.unit_id or ''} | {_cell(i.message)} |"
            for i in report.issues
        ]
    if report.cycles or report.missing_references:
        out += ["", "## Dependencies", ""]
        out += [f"- cycle: {' → '.join(c)}" for c in report.cycles]
        out += [
            f"- `{k}` refers to objects not in the input: {', '.join(v)}"
            for k, v in sorted(report.missing_references.items())
        ]
    return "\n".join(out) + "\n"
