"""The SWE run's report: per-instance records (a file boundary: pydantic), JSON for tools, Markdown
for people, in the migration report's style — the agent's row beside a do-nothing row, the
agent's own verification beside the judge's verdict, never one blended score."""

from __future__ import annotations

from collections import Counter

from pydantic import BaseModel, ConfigDict

from harness.judge.categories import Category
from migrator.agent.tasks.swe.judge import InstanceResult

JUDGE_STATUSES = ("resolved", "unresolved", "empty patch", "patch does not apply", "no prediction", "error")


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class InstanceRecord(_Frozen):
    instance_id: str
    arm: str
    position: int
    model_patch: str
    agent: str  # the episode's final category: correct (verified) | wrong | rejected | not run
    agent_reason: str
    grounded: bool | None = None  # the armed reproduction passed on the submitted patch (None: none armed)
    reproduction: str | None = None  # offline | agent | None
    steps: int = 0
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    seconds: float = 0.0
    backtracks: int = 0
    stuck_signals: int = 0
    repeated_failed_actions: int = 0
    experience_id: int | None = None
    error: str | None = None  # setup or model failure: why the instance was not (fully) attempted
    judge: InstanceResult | None = None  # None when the run was made with --no-judge

    @property
    def tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    @property
    def resolved(self) -> bool:
        return bool(self.judge and self.judge.resolved)

    @property
    def judge_status(self) -> str:
        return self.judge.status if self.judge else "not judged"


class SweRunReport(_Frozen):
    tool: str
    version: str
    instances_file: str
    model: str
    arm: str
    planner: bool
    memory: bool
    knowledge_base: str | None
    isolation: str
    total: int
    resolved: int | None  # None without the judge
    agent_verified: int
    tokens: int
    calls: int
    tokens_per_resolved: float | None
    by_status: dict[str, int]
    do_nothing: dict[str, int]  # the empty patch on every instance, under the same rule
    signatures: dict[str, int]  # PMCoder's trajectory signatures, summed
    seconds: float
    model_error: str | None = None
    input_errors: list[str] = []
    instances: list[InstanceRecord]


def summarize(records: list[InstanceRecord], total: int, judged: bool) -> dict:
    resolved = sum(r.resolved for r in records) if judged else None
    tokens = sum(r.tokens for r in records)
    return {
        "total": total,
        "resolved": resolved,
        "agent_verified": sum(r.agent == Category.CORRECT for r in records),
        "tokens": tokens,
        "calls": sum(r.calls for r in records),
        "tokens_per_resolved": round(tokens / resolved, 1) if resolved else None,
        "by_status": dict(Counter(r.judge_status for r in records)),
        "do_nothing": {"resolved": 0, "empty patch": total} if judged else {},
        "signatures": {
            "backtracks": sum(r.backtracks for r in records),
            "stuck_signals": sum(r.stuck_signals for r in records),
            "repeated_failed_actions": sum(r.repeated_failed_actions for r in records),
            "empty_patch_exits": sum(not r.model_patch.strip() for r in records if r.error is None),
        },
    }


def _cell(text: str | None, limit: int = 120) -> str:
    text = (text or "").replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _status_row(label: str, counts: dict[str, int]) -> str:
    return f"| {label} | " + " | ".join(str(counts.get(s, 0)) for s in JUDGE_STATUSES) + " |"


def _agreement(report: SweRunReport) -> str:
    pairs = Counter((r.agent == Category.CORRECT, r.resolved) for r in report.instances)
    return (
        f"Agent's grounded verification against the judge: verified and resolved {pairs[(True, True)]}, "
        f"verified but unresolved {pairs[(True, False)]}, not verified but resolved {pairs[(False, True)]}, "
        f"neither {pairs[(False, False)]}"
    )


def to_markdown(report: SweRunReport) -> str:
    sig = report.signatures
    out = [
        f"# SWE run report: `{report.instances_file}`",
        "",
        f"Model `{report.model}` · arm **{report.arm}** (planner {'on' if report.planner else 'off'}, memory "
        f"{'on' if report.memory else 'off'}) · {report.total} instances · {report.seconds} s · sandbox: {report.isolation}",
        f"Knowledge base: {report.knowledge_base or 'none'}",
        "",
    ]
    if report.resolved is not None:
        out += [
            f"**Resolved {report.resolved} of {report.total}** (judge: FAIL_TO_PASS and PASS_TO_PASS, SWE-bench's rule)",
            "",
            "| arm | " + " | ".join(JUDGE_STATUSES) + " |",
            "|---|" + "---|" * len(JUDGE_STATUSES),
            _status_row(report.arm, report.by_status),
            _status_row("do-nothing (empty patch)", report.do_nothing),
            "",
            _agreement(report),
        ]
    else:
        out.append("Not judged (--no-judge): only the agent's own verification is reported.")
    per = report.tokens_per_resolved if report.tokens_per_resolved is not None else "—"
    out += [
        "",
        f"Agent verified {report.agent_verified} · {report.calls} model calls · {report.tokens} tokens · "
        f"{per} tokens per resolved instance",
        f"Trajectory signatures: backtracks {sig['backtracks']} · stuck signals {sig['stuck_signals']} · repeated "
        f"failed actions {sig['repeated_failed_actions']} · empty-patch exits {sig['empty_patch_exits']}",
    ]
    if report.model_error:
        out += ["", f"**Model failed:** {_cell(report.model_error, 400)}"]
    out += _instance_table(report)
    if report.input_errors:
        out += ["", "## Input errors", "", *[f"- {e}" for e in report.input_errors]]
    return "\n".join(out) + "\n"


def _instance_table(report: SweRunReport) -> list[str]:
    out = [
        "",
        "## Instances",
        "",
        "| instance | judge | agent | reproduction | steps | tokens | backtracks | problem |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in report.instances:
        repro = {True: "passes", False: "fails", None: "—"}[r.grounded] + (
            f" ({r.reproduction})" if r.reproduction else ""
        )
        problem = r.error or (r.judge.reason if r.judge and not r.judge.resolved else "")
        out.append(
            f"| `{r.instance_id}` | {r.judge_status} | {r.agent} | {repro} | {r.steps} | {r.tokens} | "
            f"{r.backtracks} | {_cell(problem)} |"
        )
    return out
