"""The statistics of `migrator eval`: hand-checked values, group resampling, verdicts, speed."""

from __future__ import annotations

import time

import numpy as np
import pytest

from migrator.eval import stats


def test_mcnemar_exact_and_holm_hand_computed():
    # b=10, c=2: P(X <= 2 | n=12, 1/2) = (1 + 12 + 66) / 4096; two-sided doubles it
    assert stats.mcnemar_exact(10, 2) == pytest.approx(2 * 79 / 4096)
    assert stats.mcnemar_exact(2, 10) == stats.mcnemar_exact(10, 2)
    assert stats.mcnemar_exact(0, 0) == 1.0 and stats.mcnemar_exact(3, 3) == 1.0
    # sorted 0.01 (x3 = .03), 0.03 (x2 = .06), 0.04 (x1 = .04, raised to .06: monotone)
    assert stats.holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert stats.holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])


def test_verdicts_come_from_the_interval_only():
    assert stats.verdict(0.1, 5.0) == stats.HELPS
    assert stats.verdict(-5.0, -0.1) == stats.HURTS
    assert stats.verdict(0.0, 5.0) == stats.verdict(-3.0, 2.0) == stats.NONE


def test_resampling_draws_groups_not_units():
    """Two units of one group always move together: a resample holds both or neither."""
    groups = ["g1", "g1", "g2", "g3"]
    idx, n = stats.group_index(groups)
    assert idx.tolist() == [0, 0, 1, 2] and n == 3
    weights = np.concatenate(list(stats.resample_weights(n, 500, seed=1, chunk=128)))
    assert weights.shape == (500, 3) and (weights.sum(axis=1) == 3).all()
    again = np.concatenate(list(stats.resample_weights(n, 500, seed=1, chunk=500)))
    assert (weights == again).all()  # the chunk size does not change the draws


def test_paired_bootstrap_on_a_known_effect():
    # 40 groups of 2 units: a is right on 30 groups, b on 10 (the same 10): +50 points
    a = np.array([1.0] * 60 + [0.0] * 20)
    b = np.array([1.0] * 20 + [0.0] * 60)
    groups = [f"g{i // 2}" for i in range(80)]
    diff, low, high = stats.paired_bootstrap(a, b, groups, resamples=10_000, seed=1)
    assert diff == pytest.approx(50.0)
    assert 30 < low < 50 < high < 70
    same = stats.paired_bootstrap(a, a, groups, resamples=2000, seed=1)
    assert same == (0.0, 0.0, 0.0)


def test_contrasts_rows_with_majority_mcnemar_and_sei():
    runs_a = np.array([[1, 1, 1, 0], [1, 1, 0, 0], [1, 1, 1, 0]], dtype=bool)  # unit 2 right in 2 of 3
    runs_b = np.zeros((3, 4), dtype=bool)
    (row,) = stats.contrasts(
        {"a": runs_a, "b": runs_b}, [("a", "b")], ["g1", "g2", "g3", "g4"], resamples=2000, seed=1, sei=2.0
    )
    assert row.diff == pytest.approx(100 * (3 + 3 + 2) / 3 / 4)
    assert row.discordant == (3, 0) and row.p == pytest.approx(0.25)
    assert row.verdict == stats.HELPS and row.sei_met and not row.within_sei


def test_curve_band_is_cumulative_and_bounded():
    correct = np.array([[1, 0, 1, 1], [1, 1, 0, 1]], dtype=float)
    positions = np.array([[1, 2, 3, 4], [4, 3, 2, 1]])
    x, mean, low, high = stats.curve_band(correct, positions, ["a", "b", "c", "d"], resamples=1000, seed=1)
    assert x.tolist() == [1, 2, 3, 4]
    # order 0: 1, 1, 2, 3; order 1: 1, 1, 2, 3 (units d, c, b, a) -> mean the same
    assert mean.tolist() == pytest.approx([1, 1, 2, 3])
    assert (low <= mean + 1e-9).all() and (mean <= high + 1e-9).all() and (np.diff(mean) >= 0).all()


def test_ten_thousand_resamples_of_two_thousand_groups_are_fast():
    rng = np.random.default_rng(0)
    groups = [f"g{i}" for i in range(2000)]
    a, b = (rng.random(2000) < 0.6).astype(float), (rng.random(2000) < 0.5).astype(float)
    t0 = time.perf_counter()
    stats.paired_bootstrap(a, b, groups, resamples=10_000, seed=1)
    assert time.perf_counter() - t0 < 5.0  # vectorised (a Python loop over resamples takes minutes)
