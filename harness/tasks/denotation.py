"""Denotation match: do two query results say the same thing, under each benchmark's own rule?

Spider (the pinned test-suite evaluator, `exec_eval.result_eq`): the rows as a multiset; order
matters only when the gold query's text contains "order by" (a plain, case-insensitive substring
test, as the evaluator does); columns may appear in any order, as long as one column permutation
makes the two results equal. Two empty results are equal.
BIRD (`evaluation.py`): `set(predicted) == set(gold)`: order and duplicates ignored, columns in
place.
Values compare with Python equality, as both evaluators do: 1 == 1.0, NULL (None) == NULL, and
0.1 + 0.2 != 0.3 (no float tolerance).
"""

from __future__ import annotations

from collections import Counter
from itertools import product

RULES = ("spider", "bird")


def gold_orders(gold_sql: str) -> bool:
    return "order by" in gold_sql.lower()


def bird_equal(gold: tuple[tuple, ...], predicted: tuple[tuple, ...]) -> bool:
    return set(predicted) == set(gold)


def _unordered_row(row: tuple) -> tuple:
    return tuple(sorted(row, key=lambda x: str(x) + str(type(x))))


def _quick_reject(gold, predicted, order_matters: bool) -> bool:
    """True when no column permutation can make them equal (each row compared as a bag of values)."""
    a, b = [_unordered_row(r) for r in gold], [_unordered_row(r) for r in predicted]
    return a != b if order_matters else set(a) != set(b)


def _permutations(gold, predicted, width: int):
    """Column mappings gold[i] <- predicted[perm[i]] that no row rules out. The evaluator samples 20
    rows to prune; checking every row prunes at least as much and stays deterministic."""
    gold_columns = [{row[i] for row in gold} for i in range(width)]
    allowed = [[j for j in range(width) if all(row[j] in gold_columns[i] for row in predicted)] for i in range(width)]
    return (p for p in product(*allowed) if len(set(p)) == width)


def spider_equal(gold: tuple[tuple, ...], predicted: tuple[tuple, ...], order_matters: bool) -> bool:
    if not gold and not predicted:
        return True
    if len(gold) != len(predicted) or len(gold[0]) != len(predicted[0]):
        return False
    if _quick_reject(gold, predicted, order_matters):
        return False
    width = len(gold[0])
    for perm in _permutations(gold, predicted, width):
        permuted = [tuple(row[j] for j in perm) for row in predicted]
        if order_matters and list(gold) == permuted:
            return True
        if not order_matters and Counter(gold) == Counter(permuted):
            return True
    return False


def denotation_equal(rule: str, gold: tuple[tuple, ...], predicted: tuple[tuple, ...], gold_sql: str) -> bool:
    if rule == "spider":
        return spider_equal(gold, predicted, gold_orders(gold_sql))
    if rule == "bird":
        return bird_equal(gold, predicted)
    raise ValueError(f"unknown denotation rule {rule!r} (known: {', '.join(RULES)})")
