"""Denotation match under Spider's test-suite rule and BIRD's rule, on hand-worked cases."""

from __future__ import annotations

import pytest

from harness.tasks.denotation import bird_equal, denotation_equal, gold_orders, spider_equal


@pytest.mark.parametrize(
    "gold, pred, ordered, spider, bird",
    [
        # duplicates: a multiset for Spider, a set for BIRD
        (((1,), (1,), (2,)), ((1,), (2,)), False, False, True),
        (((1,), (1,), (2,)), ((2,), (1,), (1,)), False, True, True),
        # order only matters when the gold query orders
        (((1,), (2,)), ((2,), (1,)), False, True, True),
        (((1,), (2,)), ((2,), (1,)), True, False, True),
        # NULL equals NULL as a value in a row
        (((None, "a"),), ((None, "a"),), False, True, True),
        (((None,),), ((0,),), False, False, False),
        # 1 == 1.0 in Python, but no float tolerance
        (((1,),), ((1.0,),), False, True, True),
        (((0.3,),), ((0.1 + 0.2,),), False, False, False),
        # columns in another order: Spider finds the permutation, BIRD does not
        ((("a", 1), ("b", 2)), ((1, "a"), (2, "b")), False, True, False),
        # a permutation must map every row consistently
        ((("a", "b"), ("b", "a")), (("a", "a"), ("b", "b")), False, False, False),
        # empty results
        ((), (), False, True, True),
        ((), ((None,),), False, False, False),
        # extra column
        (((1,),), ((1, 2),), False, False, False),
    ],
)
def test_rules(gold, pred, ordered, spider, bird):
    assert spider_equal(gold, pred, ordered) is spider
    assert bird_equal(gold, pred) is bird


def test_ties_under_order_by_follow_the_evaluator():
    # Two rows tied on the sort key, returned in the other order: Spider's evaluator compares the
    # lists as they are, so this counts as wrong when the gold query orders.
    gold, pred = (("x", 5), ("y", 5)), (("y", 5), ("x", 5))
    assert not denotation_equal("spider", gold, pred, "SELECT n, v FROM t ORDER BY v")
    assert denotation_equal("spider", gold, pred, "SELECT n, v FROM t")
    assert denotation_equal("bird", gold, pred, "SELECT n, v FROM t ORDER BY v")


def test_order_by_is_a_substring_test():
    assert gold_orders("select a from t Order  By a") is False  # two spaces: the evaluator's test misses it
    assert gold_orders("SELECT a FROM (SELECT a FROM t ORDER BY a)") is True


def test_unknown_rule():
    with pytest.raises(ValueError, match="unknown denotation rule"):
        denotation_equal("wikisql", (), (), "")
