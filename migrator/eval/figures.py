"""The pictures of `migrator eval`, rendered headless (matplotlib's Agg backend) as PNG.

- learning_curve.png: cumulative correct (resolved-only) by position in the held-out stream, one
  line per system (mean over stream orders and repeats) with its 95 % group-bootstrap band; the
  model-free rows dashed, the grey diagonal is "every held-out unit correct".
- monitor.png: the memory's state at each checkpoint (verified experiences, distinct positives
  shown to the held-out panel, the top example's share, Jaccard churn, retrieval margin), one line
  per memory system and stream order.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # headless, before pyplot is imported

import matplotlib.pyplot as plt  # noqa: E402

PANELS = (
    ("verified_entries", "verified experiences"),
    ("distinct_positive_shown", "distinct positives shown"),
    ("top_positive_share", "top example share"),
    ("churn", "Jaccard churn"),
    ("margin_mean", "retrieval margin"),
)


def learning_curve(curves: dict[str, dict], kinds: dict[str, str], n_units: int, title: str, path: Path) -> Path:
    fig, ax = plt.subplots(figsize=(7.5, 4.6), dpi=110)
    ax.plot([0, n_units], [0, n_units], color="0.8", linewidth=1, linestyle=":", label="every unit correct")
    colors = plt.get_cmap("tab10")
    for i, (name, c) in enumerate(curves.items()):
        color = colors(i % 10)
        style = "--" if kinds.get(name) != "agent" else "-"
        ax.plot(c["x"], c["mean"], style, color=color, linewidth=2 if kinds.get(name) == "agent" else 1.3, label=name)
        ax.fill_between(c["x"], c["low"], c["high"], color=color, alpha=0.15, linewidth=0)
    ax.set_xlim(0, n_units)
    ax.set_ylim(0, max(1, n_units) * 1.02)
    ax.set_xlabel("position in the held-out stream")
    ax.set_ylabel("cumulative correct (resolved only)")
    ax.set_title(title or "learning curve", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", frameon=False)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path


def monitor_figure(rows: list[dict], path: Path) -> Path:
    fig, axes = plt.subplots(1, len(PANELS), figsize=(13, 3.2), dpi=110)
    colors = plt.get_cmap("tab10")
    systems = sorted({r["system"] for r in rows})
    styles = ["-", "--", ":", "-."]
    for ax, (key, label) in zip(axes, PANELS):
        for si, system in enumerate(systems):
            runs = sorted({(r["order"], r["repeat"]) for r in rows if r["system"] == system})
            for ri, run in enumerate(runs):
                pts = [
                    (r["position"], r[key]) for r in rows if r["system"] == system and (r["order"], r["repeat"]) == run
                ]
                pts = [(x, y) for x, y in sorted(pts) if y is not None]
                if pts:
                    xs, ys = zip(*pts)
                    name = f"{system} o{run[0]}" + (f" r{run[1]}" if run[1] else "")
                    ax.plot(xs, ys, styles[ri % 4], marker="o", markersize=3, color=colors(si % 10), label=name)
        if key == "margin_mean":
            ax.axhline(0, color="0.6", linewidth=0.8)
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("units in the stream", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="lower center", ncol=min(6, len(labels)), fontsize=7, frameon=False)
    fig.tight_layout(rect=(0, 0.1, 1, 1))
    fig.savefig(path)
    plt.close(fig)
    return path
