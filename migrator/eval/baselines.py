"""Model-free baselines (EPAM §VII-D), scored by the same judge as every other system.

M0 returns nothing; M1 returns the source unchanged; M2 returns the accepted output of the
training unit whose source is most similar by TF-IDF cosine; M3 returns the accepted output of a
random training unit (seeded per unit, so it does not depend on the stream order). A gain below
M2 is not evidence of learning: it is what copying the nearest training target already scores.
"""

from __future__ import annotations

import math
import random
import re
from collections import Counter

import numpy as np

from migrator.eval.split import EvalUnit

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_$#]*|\d+")


def tokens(text: str) -> list[str]:
    return [t.lower() for t in _WORD.findall(text)]


def tfidf(texts: list[str]) -> np.ndarray:
    """L2-normalised TF-IDF rows (smooth idf, as scikit-learn's default)."""
    docs = [Counter(tokens(t)) for t in texts]
    vocab = {w: i for i, w in enumerate(sorted({w for d in docs for w in d}))}
    df = Counter(w for d in docs for w in d)
    n = len(docs)
    idf = np.array([math.log((1 + n) / (1 + df[w])) + 1 for w in sorted(vocab)])
    mat = np.zeros((n, len(vocab)))
    for row, d in enumerate(docs):
        for w, c in d.items():
            mat[row, vocab[w]] = c
    mat *= idf
    norms = np.linalg.norm(mat, axis=1, keepdims=True)
    return mat / np.where(norms == 0, 1, norms)


def baseline_outputs(
    units: list[EvalUnit], train: list[str], test: list[str], seed: int, accepted: dict[str, str] | None = None
) -> dict[str, dict[str, str]]:
    """{system: {test unit: output}} for M0-M3. `accepted`: the accepted output of training units
    (default: their reference); training units without one are left out of the copy pool."""
    by_id = {u.id: u for u in units}
    accepted = accepted if accepted is not None else {uid: by_id[uid].reference or "" for uid in train}
    pool = [uid for uid in train if accepted.get(uid)]
    out: dict[str, dict[str, str]] = {"M0": {}, "M1": {}, "M2": {}, "M3": {}}
    vectors = tfidf([by_id[uid].source for uid in pool + test]) if pool else None
    for i, uid in enumerate(test):
        out["M0"][uid] = ""
        out["M1"][uid] = by_id[uid].source
        if vectors is None:
            out["M2"][uid] = out["M3"][uid] = ""
            continue
        sims = vectors[: len(pool)] @ vectors[len(pool) + i]
        nearest = pool[int(np.argmax(sims))]  # the first of equals: deterministic
        out["M2"][uid] = accepted[nearest]
        out["M3"][uid] = accepted[random.Random(f"{seed}:{uid}").choice(pool)]
    return out
