"""BM25 (Lucene variant) over entry texts: a bm25s base segment plus an incremental delta.

bm25s precomputes per-(document, token) scores into a sparse matrix, which makes queries fast but
means a document cannot be added without re-indexing. Documents ingested after the last build go to a
delta segment that is scored with the *same* formula and the *same* frozen corpus statistics
(N, df, avgdl of the base), so base and delta scores are directly comparable and a new entry is
searchable by the very next query. When the delta grows past a threshold the base is rebuilt
("compaction") and the statistics move forward.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from dataclasses import dataclass, field

import numpy as np

_TOKEN = re.compile(r"[a-z0-9_]+")


def tokenize(text: str) -> list[str]:
    """MERIT's tokenizer: lowercase, [a-z0-9_]+."""
    return _TOKEN.findall(text.lower())


@dataclass
class CorpusStats:
    n_docs: int = 0
    avgdl: float = 0.0
    df: dict[str, int] = field(default_factory=dict)

    @classmethod
    def of(cls, docs: list[list[str]]) -> CorpusStats:
        df: Counter[str] = Counter()
        for doc in docs:
            df.update(set(doc))
        total = sum(len(d) for d in docs)
        return cls(len(docs), total / len(docs) if docs else 0.0, dict(df))

    def idf(self, token: str) -> float:
        df = self.df.get(token, 0)
        return math.log(1.0 + (self.n_docs - df + 0.5) / (df + 0.5))


class LexicalIndex:
    def __init__(self, k1: float = 1.5, b: float = 0.75, delta_min: int = 512, delta_share: float = 0.10):
        self.k1, self.b = k1, b
        self.delta_min, self.delta_share = delta_min, delta_share
        self._base = None  # bm25s.BM25 over documents [0, base_count)
        self.base_count = 0
        self.stats = CorpusStats()
        self._postings: dict[str, list[tuple[int, int]]] = {}  # delta: token -> [(offset, tf)]
        self._delta_len: list[int] = []
        self._delta_docs: list[list[str]] = []
        self.compactions = 0
        self._stats_dirty = False

    def __len__(self) -> int:
        return self.base_count + len(self._delta_len)

    def build(self, docs: list[list[str]]) -> None:
        try:
            import bm25s
        except ImportError as exc:
            raise ImportError("the knowledge base needs bm25s: pip install bm25s") from exc

        self._reset_delta()
        self._stats_dirty = False
        self.stats = CorpusStats.of(docs)
        self.base_count = len(docs)
        self._base = None
        if docs and any(docs):
            # bm25s builds its vocabulary from these token lists; "" stands in for empty documents.
            retriever = bm25s.BM25(k1=self.k1, b=self.b, method="lucene")
            retriever.index([d if d else [""] for d in docs], show_progress=False)
            self._base = retriever

    def add(self, tokens: list[str]) -> None:
        """Append one document to the delta segment; searchable at once."""
        offset = len(self._delta_len)
        for token, tf in Counter(tokens).items():
            self._postings.setdefault(token, []).append((offset, tf))
        self._delta_len.append(len(tokens))
        self._delta_docs.append(tokens)
        self._stats_dirty = self._base is None and self.base_count == 0

    def maybe_compact(self, all_docs) -> bool:
        """Rebuild the base from `all_docs()` (every document's tokens, in order) when the delta
        has grown past max(delta_min, delta_share * base)."""
        limit = max(self.delta_min, int(self.delta_share * self.base_count))
        if len(self._delta_len) <= limit:
            return False
        docs = all_docs()
        if len(docs) != len(self):
            raise RuntimeError(f"compaction saw {len(docs)} documents, index holds {len(self)}")
        self.build(docs)
        self.compactions += 1
        return True

    def scores(self, query_tokens: list[str]) -> np.ndarray:
        """BM25 score of every document (base then delta), float32, 0 where nothing matches."""
        out = np.zeros(len(self), dtype=np.float32)
        unique = list(dict.fromkeys(query_tokens))
        if self._base is not None:
            known = [t for t in unique if t in self._base.vocab_dict]
            if known:
                out[: self.base_count] = self._base.get_scores(known)
        if self._delta_len:
            out[self.base_count :] = self._delta_scores(unique)
        return out

    def _delta_scores(self, unique: list[str]) -> np.ndarray:
        if self._stats_dirty:  # no base yet: exact statistics of the delta, computed when asked
            self.stats, self._stats_dirty = CorpusStats.of(self._delta_docs), False
        res = np.zeros(len(self._delta_len), dtype=np.float64)
        lengths = np.asarray(self._delta_len, dtype=np.float64)
        avgdl = self.stats.avgdl or 1.0
        for token in unique:
            posting = self._postings.get(token)
            if not posting:
                continue
            offsets = np.fromiter((p[0] for p in posting), dtype=np.int64, count=len(posting))
            tf = np.fromiter((p[1] for p in posting), dtype=np.float64, count=len(posting))
            norm = self.k1 * (1.0 - self.b + self.b * lengths[offsets] / avgdl)
            res[offsets] += self.stats.idf(token) * tf / (tf + norm)
        return res.astype(np.float32)

    def _reset_delta(self) -> None:
        self._postings, self._delta_len, self._delta_docs = {}, [], []
