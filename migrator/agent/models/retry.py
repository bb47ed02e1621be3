"""Bounded retries with exponential backoff and jitter, shared by the network backends.

Only errors whose class says `retryable` are retried; everything else surfaces at once, since
retrying a validation error or a denied access only burns time. `sleep` is injectable so tests
verify the backoff without waiting for it.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from migrator.agent.models.base import ModelError

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass
class RetryPolicy:
    max_attempts: int = 5  # total calls, the first one included
    base_delay_s: float = 1.0
    max_delay_s: float = 30.0
    sleep: Callable[[float], None] = time.sleep
    rng: random.Random = field(default_factory=random.Random)

    def __post_init__(self) -> None:
        if self.max_attempts < 1:
            raise ValueError("max_attempts must be at least 1")

    def delay(self, attempt: int, retry_after_s: float | None = None) -> float:
        """Delay before retry number `attempt` (1-based): "equal jitter" backoff.

        Half the exponential step is fixed and half random, so concurrent workers spread out
        while each still waits a growing minimum. A server's Retry-After is honoured up to the cap.
        """
        step = min(self.max_delay_s, self.base_delay_s * 2 ** (attempt - 1))
        wait = step / 2 + self.rng.uniform(0, step / 2)
        if retry_after_s is not None:
            wait = max(wait, retry_after_s)
        return min(wait, self.max_delay_s)


def call_with_retry(fn: Callable[[], T], policy: RetryPolicy, *, what: str) -> T:
    """Call `fn` until it succeeds, raises a non-retryable error, or attempts run out."""
    for attempt in range(1, policy.max_attempts + 1):
        try:
            return fn()
        except ModelError as err:
            if not err.retryable or attempt == policy.max_attempts:
                err.attempts = attempt
                raise
            wait = policy.delay(attempt, err.retry_after_s)
            log.warning("%s: %s; retry %d/%d in %.1fs", what, err, attempt, policy.max_attempts - 1, wait)
            policy.sleep(wait)
    raise AssertionError("unreachable: the loop returns or raises")
