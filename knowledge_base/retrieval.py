"""Causal, leakage-guarded, polarity-pooled, type-conditioned hybrid retrieval (MERIT §3.2, App. D).

Order of operations, each one before the next:
1. eligibility: retrievable (finalized, admitted/not deprecated), earlier stream position, not the
   current task, not its group, not scored against a held-out reference target;
2. polarity pools, searched separately; type conditioning inside a pool when it has >= type_min
   entries of the query's failure type, else the whole pool;
3. hybrid score 0.75 * dense + 0.25 * BM25, each min-max normalised within the searched pool
   (a constant channel normalises to 0), plus `rule_bonus` for admitted rules (human-gated
   knowledge); MMR (on by default, lambda 0.7); deterministic tie-breaks: score desc, dense desc,
   BM25 desc, entry id asc.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from knowledge_base.catalog import KIND_CODES, NONE, EntryColumns
from knowledge_base.config import KBConfig
from knowledge_base.dense_int8 import BoundedScores
from knowledge_base.records import RetrievalQuery


@dataclass
class Ranked:
    row: int
    score: float
    dense: float
    lexical: float
    dense_norm: float
    lexical_norm: float


@dataclass
class PoolOutcome:
    eligible: int
    searched: int
    type_conditioned: bool
    ranked: list[Ranked]
    rows: np.ndarray | None = None  # every searched row and its hybrid score (for the margin)
    scores: np.ndarray | None = None


def eligibility(cat: EntryColumns, query: RetrievalQuery, held_out: frozenset[str]) -> np.ndarray:
    mask = cat.retrievable.view.copy()
    if query.stream_position is not None:
        mask &= ~cat.bound.view | (cat.position.view < query.stream_position)
    for column, value in ((cat.task, query.task_id), (cat.group, query.task_group)):
        code = cat.strings.lookup(value)
        if code != NONE:
            mask &= column.view != code
    targets = [cat.strings.lookup(t) for t in held_out | query.held_out_targets]
    targets = [c for c in targets if c >= 0]
    if targets:
        mask &= ~np.isin(cat.target.view, np.asarray(targets, dtype=np.int32))
    return mask


def minmax(values: np.ndarray) -> np.ndarray:
    if values.size == 0:
        return values.astype(np.float64)
    lo, hi = float(values.min()), float(values.max())
    if hi <= lo:
        return np.zeros(values.shape, dtype=np.float64)
    return (values.astype(np.float64) - lo) / (hi - lo)


def search_pool(
    cat: EntryColumns,
    pool: np.ndarray,
    failure_type: str | None,
    dense: np.ndarray | BoundedScores,
    lexical: np.ndarray,
    k: int,
    cfg: KBConfig,
    vectors: np.ndarray | None,
    every_score: bool = False,
) -> PoolOutcome:
    """`dense` is every exact score, or int8 scores with error bounds (knowledge_base.dense_int8),
    of which only the rows that could change the outcome are computed exactly: the min and max
    the normalisation needs, and every row that could reach the top `want`. Same result.
    `every_score` (the monitor's margin needs them) scores every searched row exactly and returns
    the rows with their hybrid scores."""
    eligible = int(pool.sum())
    typed = False
    if failure_type:
        code = cat.ftypes.lookup(failure_type)
        same = pool & (cat.ftype.view == code)
        if int(same.sum()) >= cfg.type_min:
            pool, typed = same, True
    rows = np.flatnonzero(pool)
    if k == 0 or rows.size == 0:
        return PoolOutcome(eligible, int(rows.size), typed, [])
    want = k if cfg.mmr_lambda is None else max(k, cfg.mmr_pool)
    searched = int(rows.size)
    bonus = _rule_bonus(cat, rows, cfg)
    if isinstance(dense, BoundedScores) and not every_score:
        rows, d, b, dn, bn, bonus = _candidates(rows, dense, lexical, want, cfg, bonus)
    else:
        exact = dense.exact(rows) if isinstance(dense, BoundedScores) else dense[rows]
        d, b = exact.astype(np.float64), lexical[rows].astype(np.float64)
        dn, bn = minmax(d), minmax(b)
    score = cfg.dense_weight * dn + cfg.lexical_weight * bn + bonus
    order = _top(score, d, b, cat.ids.view[rows], want)
    ranked = [
        Ranked(int(rows[i]), float(score[i]), float(d[i]), float(b[i]), float(dn[i]), float(bn[i])) for i in order
    ]
    if cfg.mmr_lambda is not None and vectors is not None:  # the caller gives vectors for MMR
        ranked = mmr(ranked, vectors, cfg.mmr_lambda, k)
    if every_score:
        return PoolOutcome(eligible, searched, typed, ranked[:k], rows, score)
    return PoolOutcome(eligible, searched, typed, ranked[:k])


def _rule_bonus(cat: EntryColumns, rows: np.ndarray, cfg: KBConfig) -> np.ndarray | float:
    if not cfg.rule_bonus:
        return 0.0
    return cfg.rule_bonus * (cat.kind.view[rows] == KIND_CODES["rule"])


def _candidates(
    rows: np.ndarray,
    dense: BoundedScores,
    lexical: np.ndarray,
    want: int,
    cfg: KBConfig,
    bonus: np.ndarray | float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray | float]:
    """The pool rows that could be among the `want` best, with exact dense scores and the pool's
    exact normalisation; every other row provably scores below the want-th best.

    The pool's true max has an upper bound >= every lower bound, its true min a lower bound <=
    every upper bound, so the exact extremes are among those rows. A row whose best possible
    score is below the want-th largest worst possible score cannot reach the top (nor tie it)."""
    approx, bound = dense.approx[rows], dense.bound[rows]
    lo, hi = approx - bound, approx + bound
    b = lexical[rows].astype(np.float64)
    bn = minmax(b)
    ends = np.flatnonzero((hi >= lo.max()) | (lo <= hi.min()))
    end_scores = dense.exact(rows[ends]).astype(np.float64)
    dmin, dmax = float(end_scores.min()), float(end_scores.max())
    if dmax > dmin:
        s_lo = cfg.dense_weight * (lo - dmin) / (dmax - dmin) + cfg.lexical_weight * bn + bonus
        s_hi = cfg.dense_weight * (hi - dmin) / (dmax - dmin) + cfg.lexical_weight * bn + bonus
    else:  # every exact dense score is equal: minmax makes them 0, BM25 and the rule bonus decide
        s_lo = s_hi = cfg.lexical_weight * bn + bonus
    if rows.size > want:
        cut = np.partition(s_lo, rows.size - want)[rows.size - want]  # want-th largest lower bound
        keep = np.flatnonzero(s_hi >= cut - 1e-6)  # float32 rounding; the bounds carry SLACK (1e-4)
    else:
        keep = np.arange(rows.size)
    d = dense.exact(rows[keep]).astype(np.float64)
    dn = (d - dmin) / (dmax - dmin) if dmax > dmin else np.zeros(d.shape, dtype=np.float64)
    kept_bonus = bonus[keep] if isinstance(bonus, np.ndarray) else bonus
    return rows[keep], d, b[keep], dn, bn[keep], kept_bonus


def _top(score: np.ndarray, d: np.ndarray, b: np.ndarray, ids: np.ndarray, want: int) -> np.ndarray:
    """Indices of the `want` best by (score desc, dense desc, BM25 desc, id asc). Everything tied
    with the cut-off score is kept for the exact sort, so the partition never breaks a tie."""
    if score.size > 4 * want:
        cut = np.partition(-score, want - 1)[want - 1]
        keep = np.flatnonzero(-score <= cut)
    else:
        keep = np.arange(score.size)
    order = np.lexsort((ids[keep], -b[keep], -d[keep], -score[keep]))
    return keep[order][:want]


def mmr(ranked: list[Ranked], vectors: np.ndarray, lam: float, k: int) -> list[Ranked]:
    """Greedy maximal marginal relevance: lam * score - (1 - lam) * max cosine to those chosen.
    Ties keep the hybrid order (the list is already in tie-break order)."""
    chosen: list[Ranked] = []
    rest = list(ranked)
    vecs = {r.row: vectors[r.row] for r in ranked}
    while rest and len(chosen) < k:

        def value(r: Ranked) -> float:
            if not chosen:
                return lam * r.score
            return lam * r.score - (1 - lam) * max(float(vecs[r.row] @ vecs[c.row]) for c in chosen)

        best = max(range(len(rest)), key=lambda i: (value(rest[i]), -i))
        chosen.append(rest.pop(best))
    return chosen
