"""eval.json (for tools), eval.md and eval.html (for people), and the pictures beside them."""

from __future__ import annotations

import datetime as dt
import html
import json
from pathlib import Path
from statistics import median

import numpy as np

from migrator.eval import figures, retrieval_report, stats
from migrator.eval.config import BASELINE_TEXT, EvalConfig, SystemSpec
from migrator.eval.split import EvalUnit, Split

HOW_TO_READ = """\
- **correct** counts a held-out unit only when the judge found it correct and its references were
  resolved (resolved-only); `unresolved` counts verdicts that looked correct without that and were
  not counted. Mean over the stream orders and repeats; `spread` is min / median / max over them.
- **model calls / tokens** are spent on the held-out units (the same units in every row);
  **training calls** is what building the memory cost on the training units (memory rows only).
- **M0-M3** are model-free: nothing, the source unchanged, the accepted output of the most similar
  training unit (copying, TF-IDF cosine), a random training output. A learning claim must beat the
  best of them; a system at M2's level is copying, not learning.
- **diff** is a - b in points (correct units per 100 held-out units), paired by unit; the interval is
  a group bootstrap (units that share a reference are one group, their outcomes across orders kept
  together). **verdict** is read from the interval only: it must exclude 0 for "helps" or "hurts";
  otherwise "no measurable effect". `p (Holm)` is the exact McNemar test on per-unit majority
  outcomes, Holm-corrected over all contrasts; `SEI` says whether the estimate reaches the smallest
  effect of interest, `equivalent` whether the whole interval lies within it.
- **leakage** must read 0: held-out references among training targets or in training memory, and
  retrievals that returned an entry scored against the querying unit's own reference.
- **monitor**: at each checkpoint the memory is snapshotted and every held-out unit's query is
  replayed: verified experiences, distinct positives shown, the share of queries whose top example
  is the single most common one (one entry serving everything is a warning), Jaccard churn of what
  each query gets between checkpoints, and the margin of the best relevant entry over the best
  irrelevant one (> 0: what applies ranks first).
"""


def _now() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


def describe(system: SystemSpec, initial_label: str) -> str:
    if system.kind == "baseline":
        return BASELINE_TEXT[system.name]
    if system.kind == "initial":
        return f"{initial_label}: the shared initial prediction, no repair"
    if not system.memory:
        return "the repair loop, no memory"
    extra = [k for k, on in (("untyped", not system.typed), ("no negatives", not system.negatives)) if on]
    if system.mmr_lambda is None:
        extra.append("no MMR")
    if system.k_positive is not None:
        extra.append(f"k+={system.k_positive}")
    if system.retrieval == "bandit":
        extra.append("retrieval chosen per attempt by the LinUCB controller")
    elif system.retrieval.startswith("arm:"):
        extra.append(f"always the {system.retrieval[4:]} retrieval arm")
    return "the repair loop with memory" + (f" ({', '.join(extra)})" if extra else "")


def _pairs(systems: list[SystemSpec], means: dict[str, float], extra) -> tuple[str | None, list[tuple[str, str]]]:
    base = [s for s in systems if s.model_free]
    best = max(base, key=lambda s: (means[s.name], -systems.index(s))).name if base else None
    pairs = [(s.name, best) for s in systems if not s.model_free and best is not None]
    names = {s.name for s in systems}
    if {"agent-memory", "agent-no-memory"} <= names:
        pairs.append(("agent-memory", "agent-no-memory"))
    for s in systems:
        if s.kind == "agent" and s.memory and s.name != "agent-memory" and "agent-memory" in names:
            pairs.append((s.name, "agent-memory"))
    pairs += [tuple(p) for p in extra]
    seen, out = set(), []
    for p in pairs:
        if p not in seen and p[0] != p[1]:
            seen.add(p)
            out.append(p)
    return best, out


def write_reports(
    out: Path, cfg: EvalConfig, adapter, units: list[EvalUnit], split: Split, runs, leakage: dict
) -> dict:
    from migrator.eval.runner import _systems, outcome_matrix, position_matrix

    systems = _systems(cfg, adapter)
    test = split.test
    groups = [split.component[u] for u in test]
    matrices = {s.name: outcome_matrix(runs, s.name, test) for s in systems}
    means = {n: float(m.sum(axis=1).mean()) for n, m in matrices.items()}
    best, pairs = _pairs(systems, means, cfg.contrasts)
    st = cfg.statistics
    rows = stats.contrasts(
        matrices, pairs, groups, resamples=st.resamples, seed=st.seed, sei=st.sei, confidence=st.confidence
    )
    curves = {}
    for s in systems:
        x, mean, low, high = stats.curve_band(
            matrices[s.name].astype(float),
            position_matrix(runs, s.name, test),
            groups,
            resamples=st.resamples,
            seed=st.seed,
        )
        curves[s.name] = {"x": x.tolist(), "mean": mean.tolist(), "low": low.tolist(), "high": high.tolist()}
    kinds = {s.name: s.kind for s in systems}
    figures.learning_curve(curves, kinds, len(test), cfg.title, out / "learning_curve.png")
    pictures = {"learning_curve": "learning_curve.png"}
    if runs.monitor:
        figures.monitor_figure(runs.monitor, out / "monitor.png")
        pictures["monitor"] = "monitor.png"
    retrieval = retrieval_report.summarize(runs.decisions)
    if retrieval is not None:
        retrieval_report.figure(retrieval, out / "retrieval.png")
        pictures["retrieval"] = "retrieval.png"
    data = {
        "title": cfg.title,
        "task": cfg.task,
        "created_at": _now(),
        "config": cfg.model_dump(mode="json", by_alias=True),
        "split": _split_block(split),
        "leakage": {**leakage, "refused": False},
        "systems": [_system_row(s, runs, test, adapter.initial_label) for s in systems],
        "best_baseline": best,
        "comparisons": [_contrast_row(c) for c in rows],
        "curves": curves,
        "monitor": runs.monitor,
        "figures": pictures,
        "retrieval": retrieval,
    }
    (out / "eval.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    (out / "eval.md").write_text(markdown(data), encoding="utf-8")
    (out / "eval.html").write_text(page(data), encoding="utf-8")
    return data


def _split_block(split: Split) -> dict:
    return {
        "grouped": split.grouped,
        "train_units": len(split.train),
        "test_units": len(split.test),
        "test_groups": len({split.component[u] for u in split.test}),
        "components": len(split.sizes),
        "largest_component_share": round(split.largest_share, 4),
        "test": split.test,
    }


def _system_row(s: SystemSpec, runs, test: list[str], initial_label: str) -> dict:
    per_run = runs.results[s.name]
    counts = [sum(per_run[r][u].correct for u in test if u in per_run[r]) for r in sorted(per_run)]
    unresolved = [
        sum(per_run[r][u].category == "correct" and not per_run[r][u].resolved for u in test if u in per_run[r])
        for r in sorted(per_run)
    ]
    held = set(test)
    calls = [sum(x.calls for u, x in per_run[r].items() if u in held) for r in sorted(per_run)]
    tokens = [sum(x.tokens for u, x in per_run[r].items() if u in held) for r in sorted(per_run)]
    train_calls = [sum(x.calls for u, x in per_run[r].items() if u not in held) for r in sorted(per_run)]
    return {
        "name": s.name,
        "kind": s.kind,
        "description": describe(s, initial_label),
        "correct": float(np.mean(counts)),
        "units": len(test),
        "spread": {
            "min": min(counts),
            "median": median(counts),
            "max": max(counts),
            "runs": dict(zip(sorted(per_run), counts)),
        },
        "unresolved_not_counted": float(np.mean(unresolved)),
        "model_calls": float(np.mean(calls)),  # on the held-out units, as every row
        "tokens": float(np.mean(tokens)),
        "training_model_calls": float(np.mean(train_calls)),  # what building the memory cost
    }


def _contrast_row(c: stats.Contrast) -> dict:
    return {
        "a": c.a,
        "b": c.b,
        "diff": round(c.diff, 4),
        "ci_low": round(c.ci_low, 4),
        "ci_high": round(c.ci_high, 4),
        "p": c.p,
        "p_holm": c.p_holm,
        "verdict": c.verdict,
        "sei_met": c.sei_met,
        "within_sei": c.within_sei,
        "discordant": list(c.discordant),
    }


def write_refusal(out: Path, cfg: EvalConfig, split: Split, found: dict) -> None:
    leakage = {"held_out_seen": found.get("in_training_targets", 0) + found.get("in_training_memory", 0), **found}
    data = {
        "title": cfg.title,
        "task": cfg.task,
        "created_at": _now(),
        "config": cfg.model_dump(mode="json", by_alias=True),
        "split": _split_block(split),
        "leakage": {**leakage, "refused": True},
        "systems": [],
        "comparisons": [],
    }
    (out / "eval.json").write_text(json.dumps(data, indent=2), encoding="utf-8")
    text = (
        f"# {cfg.title or 'Evaluation'}: refused\n\nThe leakage audit did not read 0, so no result is reported "
        f"(a gain measured here could be reference reuse, not learning).\n\n```\n{json.dumps(leakage, indent=2)}\n```\n\n"
        "Use a reference-grouped split (`split: {grouped: true}`, the default) or remove the shared references.\n"
    )
    (out / "eval.md").write_text(text, encoding="utf-8")
    (out / "eval.html").write_text(
        f"<!doctype html><meta charset=utf-8><pre>{html.escape(text)}</pre>", encoding="utf-8"
    )


# -- Markdown ---------------------------------------------------------------------------------------
def _fmt(x: float) -> str:
    return f"{x:.1f}" if abs(x - round(x)) > 1e-9 else str(int(round(x)))


def markdown(d: dict) -> str:
    sp, lk, cfg = d["split"], d["leakage"], d["config"]
    lines = [
        f"# {d['title'] or 'Evaluation'}",
        "",
        f"Task `{d['task']}`, model `{cfg['model']}`, K = {cfg['attempts']} attempts, stream orders "
        f"{cfg['orders']} x {cfg['repeats']} repeat(s), {cfg['statistics']['resamples']:,} group-bootstrap "
        f"resamples (seed {cfg['statistics']['seed']}), smallest effect of interest {cfg['statistics']['sei']} points.",
        "",
        f"**Split**: {sp['train_units']} training / {sp['test_units']} held-out units in {sp['test_groups']} "
        f"independent groups ({'grouped by reference' if sp['grouped'] else 'NOT grouped'}; {sp['components']} "
        f"reference components, the largest {sp['largest_component_share']:.0%} of the units).",
        "",
        f"**Leakage**: held-out references seen in training: **{lk['held_out_seen']}** (targets "
        f"{lk.get('in_training_targets', 0)}, memory {lk.get('in_training_memory', 0)}); retrievals of a unit's "
        f"own reference: **{lk.get('retrieved_own_reference', 0)}**.",
        "",
        "## Systems (held-out units, resolved-only)",
        "",
        "| system | what it is | correct | of | spread (min / median / max) | unresolved, not counted "
        "| model calls | tokens | training calls |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for s in d["systems"]:
        sp_ = s["spread"]
        lines.append(
            f"| {s['name']} | {s['description']} | {_fmt(s['correct'])} | {s['units']} | "
            f"{_fmt(sp_['min'])} / {_fmt(sp_['median'])} / {_fmt(sp_['max'])} | {_fmt(s['unresolved_not_counted'])} | "
            f"{_fmt(s['model_calls'])} | {_fmt(s['tokens'])} | {_fmt(s['training_model_calls'])} |"
        )
    lines += [
        "",
        f"## Contrasts (best model-free row: {d['best_baseline']})",
        "",
        "| a - b | diff (points) | 95 % interval | p (McNemar) | p (Holm) | verdict | SEI reached | equivalent |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for c in d["comparisons"]:
        lines.append(
            f"| {c['a']} - {c['b']} | {c['diff']:+.1f} | [{c['ci_low']:+.1f}, {c['ci_high']:+.1f}] | {c['p']:.3g} | "
            f"{c['p_holm']:.3g} | **{c['verdict']}** | {'yes' if c['sei_met'] else 'no'} | {'yes' if c['within_sei'] else 'no'} |"
        )
    lines += ["", "## Learning curve", "", "![learning curve](learning_curve.png)", ""]
    if d["monitor"]:
        lines += ["## Monitor (memory systems, per checkpoint)", "", "![monitor](monitor.png)", ""]
        lines += [
            "| system | order | checkpoint | units | verified | distinct positives shown | top share | churn | margin |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        for m in d["monitor"]:
            lines.append(
                f"| {m['system']} | {m['order']} | {m['checkpoint']} | {m['position']} | {m['verified_entries']} | "
                f"{m['distinct_positive_shown']} | {m['top_positive_share']:.2f} | {_opt(m['churn'])} | {_opt(m['margin_mean'])} |"
            )
        lines.append("")
    if d.get("retrieval"):
        lines += retrieval_report.markdown_lines(d["retrieval"])
    lines += ["## How to read this", "", HOW_TO_READ]
    return "\n".join(lines)


def _opt(x) -> str:
    return "n/a" if x is None else f"{x:.3f}"


# -- HTML -------------------------------------------------------------------------------------------
CSS = """body{font:14px/1.45 system-ui,sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:.6em 0;font-size:13px}td,th{border:1px solid #ccc;padding:3px 7px;text-align:left}
th{background:#f3f3f3}.helps{color:#065f46;font-weight:600}.hurts{color:#9f1239;font-weight:600}
.none{color:#555}img{max-width:100%;border:1px solid #eee}code{background:#f5f5f5;padding:0 3px}"""


def page(d: dict) -> str:
    """The Markdown's content as a self-standing page (images beside it, no network)."""
    md = markdown(d)
    body = []
    table: list[str] = []
    for line in md.splitlines() + [""]:
        if line.startswith("|"):
            table.append(line)
            continue
        if table:
            body.append(_html_table(table))
            table = []
        if line.startswith("# "):
            body.append(f"<h1>{html.escape(line[2:])}</h1>")
        elif line.startswith("## "):
            body.append(f"<h2>{html.escape(line[3:])}</h2>")
        elif line.startswith("!["):
            src = line[line.index("(") + 1 : -1]
            body.append(f'<p><img src="{html.escape(src)}" alt="{html.escape(src)}"></p>')
        elif line.startswith("- "):
            body.append(f"<li>{_inline(line[2:])}</li>")
        elif line.startswith("  ") and body and body[-1].startswith("<li>"):
            body[-1] = body[-1][:-5] + " " + _inline(line.strip()) + "</li>"
        elif line.strip():
            body.append(f"<p>{_inline(line)}</p>")
    title = html.escape(d["title"] or "Evaluation")
    return f"<!doctype html><html><head><meta charset=utf-8><title>{title}</title><style>{CSS}</style></head><body>{''.join(body)}</body></html>\n"


def _inline(text: str) -> str:
    out = html.escape(text)
    parts = out.split("**")
    out = "".join(f"<b>{p}</b>" if i % 2 else p for i, p in enumerate(parts))
    parts = out.split("`")
    return "".join(f"<code>{p}</code>" if i % 2 else p for i, p in enumerate(parts))


def _html_table(lines: list[str]) -> str:
    rows = [[c.strip() for c in ln.strip("|").split("|")] for ln in lines if not set(ln) <= set("|-: ")]
    head, *rest = rows
    cells = "".join(f"<th>{_inline(c)}</th>" for c in head)
    body = ""
    for r in rest:
        tds = []
        for c in r:
            cls = {"**helps**": "helps", "**hurts**": "hurts", "**no measurable effect**": "none"}.get(c)
            tds.append(f'<td class="{cls}">{_inline(c)}</td>' if cls else f"<td>{_inline(c)}</td>")
        body += "<tr>" + "".join(tds) + "</tr>"
    return f"<table><thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table>"
