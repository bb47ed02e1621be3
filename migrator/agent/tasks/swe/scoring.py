"""`migrator swe score`: judge a SWE-bench predictions file against its instances.

The denominator is every instance in the instances file (optionally filtered by id), as the
SWE-bench Verified papers report it: an instance without a prediction, with an empty patch, a
patch that does not apply or an error counts as unresolved.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from migrator.agent.tasks.swe.instances import LineError, Prediction, SweInstance
from migrator.agent.tasks.swe.judge import InstanceResult, JudgeContext, judge_patch


class ScoreReport(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    resolved: int
    total: int
    per_instance: dict[str, InstanceResult]
    input_errors: list[str] = []
    unknown_predictions: list[str] = []  # predictions for instance ids not in the instances file

    @property
    def by_status(self) -> dict[str, int]:
        return dict(Counter(r.status for r in self.per_instance.values()))


def score_predictions(
    instances: list[SweInstance],
    predictions: dict[str, Prediction],
    ctx: JudgeContext,
    input_errors: Sequence[LineError] = (),
    progress=None,
) -> ScoreReport:
    per: dict[str, InstanceResult] = {}
    for inst in instances:
        pred = predictions.get(inst.instance_id)
        if pred is None:
            per[inst.instance_id] = InstanceResult(
                instance_id=inst.instance_id, resolved=False, status="no prediction", reason="no prediction"
            )
        else:
            per[inst.instance_id] = judge_patch(inst, pred.model_patch, ctx)
        if progress is not None:
            progress.update(1)
    known = {i.instance_id for i in instances}
    return ScoreReport(
        resolved=sum(r.resolved for r in per.values()),
        total=len(instances),
        per_instance=per,
        input_errors=[str(e) for e in input_errors],
        unknown_predictions=sorted(set(predictions) - known),
    )


def score_json(report: ScoreReport) -> str:
    return report.model_dump_json(indent=2)


def score_markdown(report: ScoreReport, source: Path | None = None) -> str:
    lines = [
        f"# SWE score{f': `{source}`' if source else ''}",
        "",
        f"Resolved {report.resolved} of {report.total}"
        + (f" ({100 * report.resolved / report.total:.1f} %)" if report.total else ""),
        "",
        "| instance | status | reason | seconds |",
        "|---|---|---|---|",
    ]
    for iid, r in report.per_instance.items():
        reason = r.reason.replace("|", "\\|").replace("\n", " ")[:200]
        lines.append(f"| `{iid}` | {r.status} | {reason} | {r.seconds} |")
    if report.input_errors:
        lines += ["", "## Input errors", *[f"- {e}" for e in report.input_errors]]
    if report.unknown_predictions:
        lines += ["", "Predictions for unknown instances: " + ", ".join(report.unknown_predictions)]
    return "\n".join(lines) + "\n"
