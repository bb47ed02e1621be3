"""The comparison report over every run in an output directory: execution accuracy per system
(mean and sample standard deviation over stream orders), the do-nothing row (the shared initial
predictions alone), repairs, calls and tokens per correct answer. JSON for tools, Markdown for people."""

from __future__ import annotations

import json
import statistics
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from harness.judge.categories import Category
from migrator.agent.tasks.text_to_sql.records import EpisodeRecord, Manifest, RunFiles

DO_NOTHING = "do-nothing (initial predictions only)"


class Row(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    model: str
    system: str
    orders: list[int]
    status: str
    correct: list[int]  # per order
    total: list[int]
    accuracy_mean: float
    accuracy_sd: float | None  # None with fewer than two orders
    repaired: float
    calls: float
    repair_tokens: float
    tokens_per_correct: float | None  # (initial + repair tokens) / correct, mean over orders
    mean_steps: float


class Report(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    out: str
    rows: list[Row]
    runs: list[dict]


def _runs(out: Path) -> list[tuple[Manifest, list[EpisodeRecord]]]:
    found = []
    for path in sorted((Path(out) / "runs").glob("*/manifest.json")):
        manifest = Manifest.model_validate_json(path.read_text(encoding="utf-8"))
        files = RunFiles(out, manifest.system["name"], manifest.request["order"])
        found.append((manifest, files.episodes()))
    return found


def _mean(values: list[float]) -> float:
    return round(statistics.fmean(values), 4) if values else 0.0


def _row(model: str, system: str, runs: list[tuple[Manifest, list[EpisodeRecord]]]) -> Row:
    totals = [m.totals for m, _ in runs if m.totals is not None]
    acc = [t.correct / t.judged for t in totals if t.judged]
    per_correct = [
        (m.initial_tokens + m.totals.repair_tokens) / m.totals.correct for m, _ in runs if m.totals and m.totals.correct
    ]
    return Row(
        model=model,
        system=system,
        orders=sorted(m.request["order"] for m, _ in runs),
        status="finished" if all(m.status == "finished" for m, _ in runs) else "partial",
        correct=[t.correct for t in totals],
        total=[t.judged for t in totals],
        accuracy_mean=_mean(acc),
        accuracy_sd=round(statistics.stdev(acc), 4) if len(acc) > 1 else None,
        repaired=_mean([t.repaired for t in totals]),
        calls=_mean([t.repair_calls for t in totals]),
        repair_tokens=_mean([t.repair_tokens for t in totals]),
        tokens_per_correct=round(statistics.fmean(per_correct), 1) if per_correct else None,
        mean_steps=_mean([t.mean_steps for t in totals]),
    )


def _do_nothing(model: str, runs: list[tuple[Manifest, list[EpisodeRecord]]]) -> Row:
    initial = {e.uid: e.initial for _, episodes in runs for e in episodes if e.final != Category.UNVERIFIED}
    correct = sum(v == Category.CORRECT for v in initial.values())
    tokens = max(m.initial_tokens for m, _ in runs)
    return Row(
        model=model,
        system=DO_NOTHING,
        orders=[],
        status="finished" if runs[0][0].questions == len(initial) else "partial",
        correct=[correct],
        total=[len(initial)],
        accuracy_mean=round(correct / len(initial), 4) if initial else 0.0,
        accuracy_sd=None,
        repaired=0,
        calls=0,
        repair_tokens=0,
        tokens_per_correct=round(tokens / correct, 1) if correct else None,
        mean_steps=0,
    )


def build_report(out: Path) -> Report:
    runs = _runs(out)
    rows: list[Row] = []
    for model in sorted({m.request["model"] for m, _ in runs}):
        mine = [r for r in runs if r[0].request["model"] == model]
        rows.append(_do_nothing(model, mine))
        for system in sorted({m.system["name"] for m, _ in mine}):
            rows.append(_row(model, system, [r for r in mine if r[0].system["name"] == system]))
    summary = [
        {
            "run": f"{m.system['name']}-order{m.request['order']}",
            "model": m.request["model"],
            "status": m.status,
            "totals": m.totals.model_dump() if m.totals else None,
            "initial_tokens": m.initial_tokens,
            "model_error": m.model_error,
            "bad_entries": len(m.bad_entries),
        }
        for m, _ in runs
    ]
    return Report(out=str(out), rows=rows, runs=summary)


def _pct(row: Row) -> str:
    text = f"{100 * row.accuracy_mean:.2f}"
    return text + (f" ± {100 * row.accuracy_sd:.2f}" if row.accuracy_sd is not None else "")


def markdown(report: Report) -> str:
    lines = ["# Text-to-SQL repair: execution accuracy per system", ""]
    lines += [
        "EX is denotation match under the benchmark's own rule (executable-but-wrong SQL is wrong); mean ± sample "
        "standard deviation over the stream orders run. Every system starts from the same cached initial "
        "predictions: the do-nothing row is those predictions alone. Tokens per correct answer count the initial "
        "prediction and every repair and reflection call (prompt + output).",
        "",
        "| model | system | orders | EX % | correct / total | repaired | calls | repair tokens | tokens / correct "
        "| steps / failure | status |",
        "|---|---|---|---:|---|---:|---:|---:|---:|---:|---|",
    ]
    for r in report.rows:
        frac = ", ".join(f"{c}/{t}" for c, t in zip(r.correct, r.total))
        orders = ",".join(map(str, r.orders)) or "-"
        tpc = "-" if r.tokens_per_correct is None else f"{r.tokens_per_correct:.1f}"
        lines.append(
            f"| {r.model} | {r.system} | {orders} | {_pct(r)} | {frac} | {r.repaired:g} | {r.calls:g} | "
            f"{r.repair_tokens:g} | {tpc} | {r.mean_steps:g} | {r.status} |"
        )
    errors = [f"- {x['run']}: {x['model_error']}" for x in report.runs if x["model_error"]]
    if errors:
        lines += ["", "Model failures:", "", *errors]
    return "\n".join(lines) + "\n"


def write_report(out: Path) -> Report:
    report = build_report(out)
    (Path(out) / "report.json").write_text(json.dumps(report.model_dump(mode="json"), indent=2) + "\n")
    (Path(out) / "report.md").write_text(markdown(report))
    return report
