"""The four per-unit categories: one spelling of them for the harness, the agent, the review site
and the CLI (harness.judge.verdict decides them; its docstring says what each means)."""

from __future__ import annotations

from enum import StrEnum


class Category(StrEnum):
    """Never blended into one score. Iteration order is the order reports show them in. Each
    member is its own value string, so every report and file written with it reads as before."""

    CORRECT = "correct"
    WRONG = "wrong"
    UNVERIFIED = "unverified"
    REJECTED = "rejected"


# What a repair loop retries and what the CLI flags: deployed code that contradicts Oracle, or
# code PostgreSQL refused.
FAILED = frozenset({Category.WRONG, Category.REJECTED})
