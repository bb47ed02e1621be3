"""Helpers shared by the knowledge-base tests (imported by name; pytest puts this folder on sys.path)."""

from __future__ import annotations

import numpy as np

from knowledge_base import Experience, Provenance

DIM = 384


def vec(*head: float) -> np.ndarray:
    """A unit vector whose first components are `head` (then zeros), in the store's dimension."""
    out = np.zeros(DIM, dtype=np.float32)
    out[: len(head)] = head
    return out / np.linalg.norm(out)


def exp(context: str, polarity: str = "+", failure_type: str = "", **prov) -> Experience:
    return Experience(polarity=polarity, failure_type=failure_type, context=context, provenance=Provenance(**prov))
