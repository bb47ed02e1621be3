"""The statistics of `migrator eval` (EPAM §VI-G, MERIT §4): paired group bootstrap, exact McNemar
with Holm's correction, and interval-based verdicts against a smallest effect of interest.

The unit of analysis is the independent group (units that share a reference are one group). Each
unit's outcome is its share of runs (stream orders x repeats) in which it was correct, so the
resampling keeps a unit's outcomes across orders together (MERIT's query-cluster bootstrap); a
resample draws groups with replacement, and the contrast is the difference in correct units per
100 units. Everything is vectorised: 10,000 resamples of a few thousand groups take well under a
second.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

HELPS, NONE, HURTS = "helps", "no measurable effect", "hurts"


@dataclass(frozen=True)
class Contrast:
    a: str
    b: str
    diff: float  # points: 100 * (correct share of a - correct share of b)
    ci_low: float
    ci_high: float
    p: float  # exact McNemar, two-sided, before correction
    p_holm: float
    verdict: str
    sei_met: bool  # the point estimate reaches the smallest effect of interest in its direction
    within_sei: bool  # the whole interval lies inside (-SEI, +SEI): equivalent at that threshold
    discordant: tuple[int, int]  # (a right and b wrong, a wrong and b right), per unit by majority


def group_index(groups: list[str]) -> tuple[np.ndarray, int]:
    """Integer code per unit and the number of groups (in first-seen order)."""
    codes: dict[str, int] = {}
    idx = np.fromiter((codes.setdefault(g, len(codes)) for g in groups), dtype=np.int64, count=len(groups))
    return idx, len(codes)


def resample_weights(n_groups: int, resamples: int, seed: int, chunk: int = 1000):
    """Chunks of (rows x groups) counts: how often each group is drawn in each resample (in order,
    from one generator seeded with `seed`, so the result does not depend on the chunk size)."""
    rng = np.random.default_rng(seed)
    done = 0
    while done < resamples:
        rows = min(chunk, resamples - done)
        draws = rng.integers(0, n_groups, size=(rows, n_groups))
        flat = (draws + (np.arange(rows) * n_groups)[:, None]).ravel()
        yield np.bincount(flat, minlength=rows * n_groups).reshape(rows, n_groups)
        done += rows


def bootstrap_sums(per_group: np.ndarray, resamples: int, seed: int) -> np.ndarray:
    """(resamples x k): the column sums of `per_group` (groups x k) in every resample."""
    return np.concatenate([w @ per_group for w in resample_weights(per_group.shape[0], resamples, seed)])


def paired_bootstrap(
    a: np.ndarray, b: np.ndarray, groups: list[str], resamples: int = 10_000, seed: int = 1, confidence: float = 0.95
) -> tuple[float, float, float]:
    """Difference a - b in points with its percentile interval; a, b: per-unit correct shares in [0, 1]."""
    idx, n = group_index(groups)
    diff = np.bincount(idx, weights=np.asarray(a, float) - np.asarray(b, float), minlength=n)
    size = np.bincount(idx, minlength=n).astype(float)
    sums = bootstrap_sums(np.stack([diff, size], axis=1), resamples, seed)
    boot = 100.0 * sums[:, 0] / sums[:, 1]
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(boot, [tail, 100 - tail])
    point = 100.0 * float(diff.sum() / size.sum())
    return point, float(low), float(high)


def mcnemar_exact(b: int, c: int) -> float:
    """Two-sided exact McNemar p: the discordant pairs under Binomial(b + c, 1/2)."""
    n = b + c
    if n == 0:
        return 1.0
    k = min(b, c)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


def holm(pvalues: list[float]) -> list[float]:
    """Holm's step-down adjusted p-values (monotone, capped at 1), in the input order."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    adjusted = [0.0] * len(pvalues)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(pvalues) - rank) * pvalues[i]))
        adjusted[i] = running
    return adjusted


def verdict(low: float, high: float) -> str:
    """Interval-based: the interval must exclude 0 for an effect in either direction."""
    if low > 0:
        return HELPS
    if high < 0:
        return HURTS
    return NONE


def contrasts(
    outcomes: dict[str, np.ndarray],
    pairs: list[tuple[str, str]],
    groups: list[str],
    *,
    resamples: int,
    seed: int,
    sei: float,
    confidence: float = 0.95,
) -> list[Contrast]:
    """Every pair (a, b): outcomes[x] is (runs x units) booleans, units aligned with `groups`."""
    rows = []
    for a, b in pairs:
        ya, yb = outcomes[a].mean(axis=0), outcomes[b].mean(axis=0)
        diff, low, high = paired_bootstrap(ya, yb, groups, resamples, seed, confidence)
        # McNemar needs one binary outcome per unit: correct in more than half of the runs
        ma, mb = ya > 0.5, yb > 0.5
        disc = (int(np.sum(ma & ~mb)), int(np.sum(~ma & mb)))
        rows.append((a, b, diff, low, high, mcnemar_exact(*disc), disc))
    adjusted = holm([r[5] for r in rows])
    out = []
    for (a, b, diff, low, high, p, disc), p_holm in zip(rows, adjusted):
        v = verdict(low, high)
        out.append(
            Contrast(
                a,
                b,
                diff,
                low,
                high,
                p,
                p_holm,
                v,
                sei_met=(diff >= sei) if v == HELPS else (diff <= -sei) if v == HURTS else abs(diff) >= sei,
                within_sei=-sei < low and high < sei,
                discordant=disc,
            )
        )
    return out


def curve_band(
    correct: np.ndarray,
    positions: np.ndarray,
    groups: list[str],
    *,
    resamples: int,
    seed: int,
    confidence: float = 0.95,
    points: int = 200,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Cumulative correct by test-stream position, averaged over runs, with a group-bootstrap band.

    correct, positions: (runs x units); positions are 1-based places of each unit in the run's
    test stream. Returns (x, mean, low, high), with x thinned to at most `points` positions."""
    runs, n_units = correct.shape
    x = np.unique(np.linspace(1, n_units, num=min(points, n_units)).round().astype(int))
    # per unit: the share of runs in which it was correct at or before x
    upto = np.zeros((n_units, len(x)))
    for r in range(runs):
        upto += correct[r][:, None] * (positions[r][:, None] <= x[None, :])
    upto /= runs
    idx, n = group_index(groups)
    per_group = np.zeros((n, len(x) + 1))
    np.add.at(per_group, idx, np.column_stack([upto, np.ones(n_units)]))
    mean = per_group[:, :-1].sum(axis=0)
    sums = bootstrap_sums(per_group, resamples, seed)
    # a resample holds more or fewer units than the panel: scale it to the panel's size (a ratio, as
    # the contrasts are), so the band is on the same axis as the curve and never above n units
    boot = sums[:, :-1] * (n_units / sums[:, -1:])
    tail = (1 - confidence) / 2 * 100
    low, high = np.percentile(boot, [tail, 100 - tail], axis=0)
    return x, mean, low, high
