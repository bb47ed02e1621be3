"""LinUCB (Li et al., 2010, disjoint model) over a compact, fingerprinted context key.

The context key is what PYTHALAB-MERA conditions retrieval on: the task family, the failure class
of the last verdict, the verification progress so far, the attempt number, a duration bucket and
the model's identity — plus the arm the last attempt used (so a second attempt can learn to try
something else after a failed first). Each field becomes one feature by hashing `field=value`
into `dims` buckets (a fixed, deterministic encoding: sha256, never Python's salted `hash`), plus
a bias; each arm keeps its own ridge regression (A = I + Σ x xᵀ, b = Σ r x) and the arm with the
highest upper confidence bound θᵀx + α·√(xᵀA⁻¹x) is chosen, ties broken by arm order.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass

import numpy as np


@dataclass(frozen=True)
class ContextKey:
    family: str
    failure: str
    progress: str  # a bucket of the verification progress so far ("0.0", "0.2", ...)
    attempt: int
    duration: str  # "fast" / "medium" / "slow" by the last judgement's seconds
    model: str
    last_arm: str  # "" on a first attempt

    def fields(self) -> dict[str, str]:
        return {k: str(v) for k, v in asdict(self).items()}

    def features(self) -> list[str]:
        """The hashed features: every field, and the crosses a linear model cannot form itself
        (which arm suits a failure depends on the task family; a second attempt on its first)."""
        f = self.fields()
        return [f"{k}={v}" for k, v in f.items()] + [
            f"family*failure={f['family']}|{f['failure']}",
            f"failure*last_arm={f['failure']}|{f['last_arm']}",
        ]

    @classmethod
    def from_fields(cls, f: dict[str, str]) -> ContextKey:
        return cls(
            f["family"], f["failure"], f["progress"], int(f["attempt"]), f["duration"], f["model"], f["last_arm"]
        )

    @property
    def fingerprint(self) -> str:
        body = json.dumps(self.fields(), sort_keys=True)
        return hashlib.sha256(body.encode("utf-8")).hexdigest()[:16]


def duration_bucket(seconds: float) -> str:
    # coarse on purpose: a judgement's seconds vary with the machine's load, and a bucket that flips
    # with load would make the same stream choose differently (decisions must be reproducible)
    return "fast" if seconds < 5.0 else "medium" if seconds < 60.0 else "slow"


def progress_bucket(progress: float) -> str:
    return f"{min(1.0, max(0.0, round(progress * 5) / 5)):.1f}"


class LinUCB:
    def __init__(self, arms: tuple[str, ...], dims: int = 128, alpha: float = 0.4):
        self.arms, self.dims, self.alpha = tuple(arms), dims, alpha
        self.A = {a: np.eye(dims + 1) for a in self.arms}
        self.b = {a: np.zeros(dims + 1) for a in self.arms}
        self.pulls = {a: 0 for a in self.arms}

    def features(self, key: ContextKey) -> np.ndarray:
        x = np.zeros(self.dims + 1)
        x[self.dims] = 1.0  # bias
        for feature in key.features():
            digest = hashlib.sha256(feature.encode("utf-8")).digest()
            x[int.from_bytes(digest[:4], "big") % self.dims] += 1.0
        return x / np.linalg.norm(x)

    def scores(self, key: ContextKey) -> dict[str, tuple[float, float]]:
        """Per arm: (expected reward θᵀx, exploration bonus α·√(xᵀA⁻¹x))."""
        x = self.features(key)
        out = {}
        for arm in self.arms:
            inv = np.linalg.inv(self.A[arm])
            theta = inv @ self.b[arm]
            out[arm] = (float(theta @ x), float(self.alpha * np.sqrt(x @ inv @ x)))
        return out

    def choose(self, key: ContextKey, allowed: tuple[str, ...] | None = None) -> tuple[str, dict]:
        scores = self.scores(key)
        arms = [a for a in self.arms if allowed is None or a in allowed] or list(self.arms)
        best = max(arms, key=lambda a: (round(sum(scores[a]), 12), -self.arms.index(a)))
        return best, {a: round(sum(s), 6) for a, s in scores.items()}

    def update(self, key: ContextKey, arm: str, reward: float) -> None:
        x = self.features(key)
        self.A[arm] += np.outer(x, x)
        self.b[arm] += reward * x
        self.pulls[arm] += 1

    def to_json(self) -> dict:
        return {
            "arms": list(self.arms),
            "dims": self.dims,
            "alpha": self.alpha,
            "A": {a: self.A[a].tolist() for a in self.arms},
            "b": {a: self.b[a].tolist() for a in self.arms},
            "pulls": dict(self.pulls),
        }

    @classmethod
    def from_json(cls, data: dict) -> LinUCB:
        bandit = cls(tuple(data["arms"]), int(data["dims"]), float(data["alpha"]))
        for a in bandit.arms:
            bandit.A[a] = np.array(data["A"][a], dtype=float)
            bandit.b[a] = np.array(data["b"][a], dtype=float)
            bandit.pulls[a] = int(data["pulls"].get(a, 0))
        return bandit
