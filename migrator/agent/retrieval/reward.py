"""The verification-shaped, bounded reward (PYTHALAB-MERA): how far a candidate got on the way to
zero verification cost — parses, deploys, references resolve, share of steps agreeing, coverage.

`progress(judgement)` is in [0, 1] and reaches 1 only for a `correct` verdict (every step agrees and
coverage is complete: the product's acceptance). An attempt's reward is the progress it added over
the best candidate before it (never negative: a worse candidate is simply not kept), so an
episode's rewards sum to at most 1.
"""

from __future__ import annotations

from typing import Any

# Ladder of verification stages: the share of progress each one stands for.
PARSES, DEPLOYS, RESOLVED = 0.15, 0.35, 0.5
STEPS, COVERAGE = 0.3, 0.1  # agreeing steps and executed statements move progress from RESOLVED to 0.9


def progress(judgement: Any) -> float:
    """Progress of a judgement of any task (PL/SQL, Text-to-SQL, SWE): attributes read when present
    (the PL/SQL judgement's verdict has `references`, `steps`, `steps_agreeing`, `coverage_percent`)."""
    if judgement is None:
        return 0.0
    category = str(getattr(judgement, "category", ""))
    if category == "correct":
        return 1.0
    if getattr(judgement, "parsed", True) is False:
        return 0.0
    if category == "rejected":
        return PARSES
    verdict = _verdict(judgement)
    references = getattr(verdict, "references", None)
    value = (
        RESOLVED if not isinstance(references, str) or not references.startswith(("missing", "unresolved")) else DEPLOYS
    )
    steps = getattr(verdict, "steps", 0)
    agreeing = getattr(verdict, "steps_agreeing", getattr(judgement, "steps_agreeing", 0))
    if isinstance(steps, int) and steps > 0 and isinstance(agreeing, int):
        value += STEPS * min(1.0, agreeing / steps)
    coverage = getattr(verdict, "coverage_percent", None)
    if isinstance(coverage, (int, float)):
        value += COVERAGE * min(1.0, max(0.0, coverage / 100.0))
    return min(0.95, value)  # only `correct` (complete coverage, every step agreeing) reaches 1


def _verdict(judgement: Any) -> Any:
    judged = getattr(judgement, "judged", None)
    if judged is not None and getattr(judged, "verdict", None) is not None:
        return judged.verdict
    return getattr(judgement, "verdict", judgement)


def attempt_reward(before: float, after: float) -> float:
    return max(0.0, min(1.0, after - before))
