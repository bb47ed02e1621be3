"""The pictures of `migrator eval`, rendered headless (matplotlib's Agg backend) as PNG.

- learning_curve.png: cumulative correct (resolved-only) by position in the held-out stream, one
  line per system (mean over stream orders and repeats) with its 95 % group-bootstrap band; the
  model-free rows dashed, the grey diagonal is "every held-out unit correct".
- monitor.png: the memory's state at each checkpoint (verified experiences, distinct positives
  shown to the held-out panel, the top example's share, Jaccard churn, retrieval margin), one line
  per memory system and stream order.
"""

from __future__ import annotations

from collections.abc import Mapping
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
EMPTY = {
    "churn": "needs two checkpoints",
    "margin_mean": "nothing irrelevant\nto compare with yet",
}


def learning_curve(curves: dict[str, dict], kinds: Mapping[str, str], n_units: int, title: str, path: Path) -> Path:
    fig, ax = plt.subplots(figsize=(7.5, 4.6), dpi=110)
    ax.plot([0, n_units], [0, n_units], color="0.8", linewidth=1, linestyle=":", label="every unit correct")
    colors = plt.get_cmap("tab10")
    agents = 0
    for i, (name, c) in enumerate(curves.items()):
        color = colors(i % 10)
        if kinds.get(name) == "agent":  # each later agent line thinner: identical lines stay visible
            style, width, agents = "-", max(1.4, 4.0 - 1.0 * agents), agents + 1
        else:
            style, width = "--", 1.3
        ax.plot(c["x"], c["mean"], style, color=color, linewidth=width, label=name)
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


def _axes(ax, key: str, drawn: bool, rows: list[dict]) -> None:
    positions = [r["position"] for r in rows]
    ax.set_xlim(0, max(positions, default=1) * 1.05)
    if not drawn:
        ax.text(
            0.5,
            0.5,
            EMPTY.get(key, "no data"),
            ha="center",
            va="center",
            fontsize=8,
            color="0.45",
            transform=ax.transAxes,
        )
        ax.set_yticks([])
        return
    if key in ("verified_entries", "distinct_positive_shown"):
        ax.set_ylim(bottom=0)
        ax.yaxis.get_major_locator().set_params(integer=True)
    elif key in ("top_positive_share", "churn"):
        ax.set_ylim(0, 1.05)
    else:
        ax.axhline(0, color="0.6", linewidth=0.8)


def monitor_figure(rows: list[dict], path: Path, title: str = "") -> Path:
    """rows: the monitor's per-checkpoint rows, each with `series` (one line) and `position`;
    lines of one `system` share a colour and differ in style."""
    fig, axes = plt.subplots(1, len(PANELS), figsize=(13, 3.3), dpi=110)
    colors = plt.get_cmap("tab10")
    systems = list(dict.fromkeys(r.get("system", r["series"]) for r in rows))
    series = list(dict.fromkeys(r["series"] for r in rows))
    styles = ["-", "--", ":", "-."]
    for ax, (key, label) in zip(axes, PANELS):
        drawn = False
        for i, name in enumerate(series):
            mine = [r for r in rows if r["series"] == name]
            pts = sorted((r["position"], r[key]) for r in mine if r[key] is not None)
            if not pts:
                continue
            xs, ys = zip(*pts)
            color = colors(systems.index(mine[0].get("system", name)) % 10)
            ax.plot(xs, ys, styles[i % 4], marker="o", markersize=3, color=color, label=name)
            drawn = True
        _axes(ax, key, drawn, rows)
        ax.set_title(label, fontsize=9)
        ax.set_xlabel("units in the stream", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    handles, labels = axes[0].get_legend_handles_labels()
    if handles:
        fig.legend(handles, labels, loc="lower center", ncol=min(6, len(labels)), fontsize=7, frameon=False)
    if title:
        fig.suptitle(title, fontsize=10)
    fig.tight_layout(rect=(0, 0.1, 1, 0.95 if title else 1))
    fig.savefig(path)
    plt.close(fig)
    return path
