"""The retrieval controller's part of `migrator eval`: regret against the best fixed arm in
hindsight, and which arm the bandit chose along the stream.

Per run (stream order × repeat) every system logged one decision per attempt (arm, reward); an
episode's reward is the sum of its attempts' rewards (the progress the repairs added, at most 1).
Systems repair the same units in the same order (they start from the same shared prediction), so
episodes line up by unit. The best fixed arm in hindsight is the `agent-arm-*` system with the
highest total reward over all runs; the regret after n episodes is its cumulative reward minus the
bandit's (mean over runs).
"""

from __future__ import annotations

from collections import defaultdict

import numpy as np

from migrator.agent.retrieval.arms import ARMS

BANDIT = "agent-bandit"
FIXED = "agent-arm-"


def _episode_rewards(decisions: list[dict]) -> dict[str, float]:
    """unit -> the episode's reward, in episode order."""
    out: dict[str, float] = {}
    for d in sorted(decisions, key=lambda d: (d["episode"], d["attempt"])):
        out[d["unit"]] = out.get(d["unit"], 0.0) + float(d["reward"])
    return out


def summarize(decisions: dict[str, dict[str, list[dict]]]) -> dict | None:
    """None unless the evaluation ran the bandit and at least one fixed arm."""
    if BANDIT not in decisions or not any(s.startswith(FIXED) for s in decisions):
        return None
    totals = {
        s: float(np.mean([sum(_episode_rewards(ds).values()) for ds in runs.values()])) for s, runs in decisions.items()
    }
    fixed = {s: t for s, t in totals.items() if s.startswith(FIXED)}
    best = max(sorted(fixed), key=lambda s: fixed[s])
    curves = []
    for run, ds in sorted(decisions[BANDIT].items()):
        mine, theirs = _episode_rewards(ds), _episode_rewards(decisions[best].get(run, []))
        units = list(mine) + [u for u in theirs if u not in mine]
        regret = np.cumsum([theirs.get(u, 0.0) - mine.get(u, 0.0) for u in units])
        curves.append(regret.tolist())
    length = max((len(c) for c in curves), default=0)
    mean = [float(np.mean([c[min(i, len(c) - 1)] for c in curves if c])) for i in range(length)]
    freq = _frequencies(decisions[BANDIT])
    counts: dict[str, dict[str, int]] = {}
    for system, runs in decisions.items():
        per: dict[str, int] = defaultdict(int)
        for ds in runs.values():
            for d in ds:
                per[d["arm"]] += 1
        counts[system] = {a: per.get(a, 0) for a in ARMS}
    return {
        "best_fixed_arm": best,
        "total_reward": {s: round(t, 4) for s, t in sorted(totals.items())},
        "regret": [round(x, 4) for x in mean],
        "final_regret": round(mean[-1], 4) if mean else 0.0,
        "arm_frequencies": freq,
        "arm_counts": counts,
    }


def _frequencies(runs: dict[str, list[dict]], bins: int = 8) -> dict:
    """Share of each arm among the bandit's decisions in each eighth of the stream (all runs)."""
    shares = {a: [0.0] * bins for a in ARMS}
    totals = [0] * bins
    for ds in runs.values():
        episodes = sorted({d["episode"] for d in ds})
        rank = {e: i for i, e in enumerate(episodes)}
        for d in ds:
            b = min(bins - 1, rank[d["episode"]] * bins // max(1, len(episodes)))
            shares[d["arm"]][b] += 1
            totals[b] += 1
    return {
        "bins": bins,
        "shares": {
            a: [round(v / t, 4) if t else 0.0 for v, t in zip(vals, totals, strict=True)] for a, vals in shares.items()
        },
    }


def figure(summary: dict, path) -> None:
    from migrator.eval.figures import plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.2), dpi=110)
    regret = summary["regret"]
    left.plot(range(1, len(regret) + 1), regret, color="tab:red")
    left.axhline(0, color="0.7", linewidth=1)
    left.set_title(f"regret vs {summary['best_fixed_arm']} (best fixed arm in hindsight)")
    left.set_xlabel("episode (units repaired, stream order)")
    left.set_ylabel("cumulative reward: best fixed arm − bandit")
    freq = summary["arm_frequencies"]
    x = np.arange(1, freq["bins"] + 1)
    bottom = np.zeros(len(x))
    for arm, shares in freq["shares"].items():
        right.bar(x, shares, bottom=bottom, label=arm)
        bottom += np.array(shares)
    right.set_title("bandit: share of each arm along the stream")
    right.set_xlabel("eighth of the stream")
    right.set_ylim(0, 1)
    right.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def markdown_lines(summary: dict) -> list[str]:
    lines = [
        "## Retrieval controller",
        "",
        f"Best fixed arm in hindsight: **{summary['best_fixed_arm']}**; the bandit's regret against it after the "
        f"last episode: **{summary['final_regret']:+.2f}** (negative: the bandit gathered more reward).",
        "",
        "![retrieval](retrieval.png)",
        "",
        "| system | reward (mean per run) | " + " | ".join(ARMS) + " |",
        "|---|---|" + "---|" * len(ARMS),
    ]
    for system, counts in summary["arm_counts"].items():
        lines.append(
            f"| {system} | {summary['total_reward'].get(system, 0.0):.2f} | "
            + " | ".join(str(counts[a]) for a in ARMS)
            + " |"
        )
    return lines + [""]
