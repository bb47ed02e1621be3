"""FAISS `IndexIDMap2` over L2-normalised vectors (inner product = cosine), keyed by entry id.

Saved as `index/dense.faiss` next to `index/state.json`, which records the SQLite generation the
file reflects. Writes go to a temporary file and are renamed into place, so a crash leaves either
the old pair or the new one, never a torn file; a stale pair is detected by its generation.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from knowledge_base import dense_int8


def _faiss():
    try:
        import faiss
    except ImportError as exc:
        raise ImportError("the knowledge base needs faiss-cpu: pip install faiss-cpu") from exc
    return faiss


@dataclass
class IndexState:
    generation: int
    count: int
    max_id: int
    embedder: str
    dim: int


class DenseIndex:
    # int8 first pass (knowledge_base.dense_int8) for stores of at least this many rows; None: never
    int8_min_rows: int | None = dense_int8.MIN_ROWS

    def __init__(self, dim: int):
        faiss = _faiss()
        self.dim = dim
        self.index = faiss.IndexIDMap2(faiss.IndexFlatIP(dim))
        self._codes: dense_int8.Int8Codes | None = None

    def __len__(self) -> int:
        return int(self.index.ntotal)

    def add(self, ids: np.ndarray, vectors: np.ndarray) -> None:
        if len(ids):
            self.index.add_with_ids(
                np.ascontiguousarray(vectors, dtype=np.float32), np.ascontiguousarray(ids, dtype=np.int64)
            )
        if len(ids) >= 1000:
            self.reserve(max(1024, len(self) // 4))
        self._refresh_codes()

    def _refresh_codes(self) -> None:
        """(Re)build the int8 codes when the store is big enough and the uncoded tail has grown
        past max(TAIL_MIN, TAIL_SHARE x coded rows); on the write path, never on a query."""
        n, minimum = len(self), self.int8_min_rows
        if minimum is None or n < minimum or not dense_int8.available():
            self._codes = None
            return
        coded = self._codes.rows if self._codes is not None else 0
        if n - coded > max(dense_int8.TAIL_MIN, dense_int8.TAIL_SHARE * coded) or coded == 0:
            self._codes = dense_int8.Int8Codes(self.matrix())

    def ranking_scores(self, query: np.ndarray) -> np.ndarray | dense_int8.BoundedScores:
        """What retrieval ranks with: every exact score (small stores), or bounded int8 scores
        with exact values on demand (search_pool gives the same results either way)."""
        codes = self._codes
        if codes is None:
            return self.scores(query)
        q = np.ascontiguousarray(query, dtype=np.float32)
        approx, bound = codes.scores(q)
        n = len(self)
        if n > codes.rows:  # rows added since the codes were built: exact, bound 0
            approx = np.concatenate([approx, self._exact(q, np.arange(codes.rows, n))])
            bound = np.concatenate([bound, np.zeros(n - codes.rows, dtype=np.float32)])
        return dense_int8.BoundedScores(approx, bound, lambda rows: self._exact(q, rows))

    def _exact(self, q: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """scores(q)[rows] without reading the other rows: the same faiss kernel on a gathered
        copy (its value for a row does not depend on the row's position; tested)."""
        faiss = _faiss()
        picked = np.ascontiguousarray(self.matrix()[rows])
        out = np.empty(len(rows), dtype=np.float32)
        if len(rows):
            faiss.fvec_inner_products_ny(
                faiss.swig_ptr(out), faiss.swig_ptr(q), faiss.swig_ptr(picked), self.dim, len(rows)
            )
        return out

    def reserve(self, extra: int) -> None:
        """Grow the vector storage's capacity now (resize up, then back: std::vector keeps the
        capacity), so the next single write-back does not pay for reallocating every vector
        (~100 ms at 100,000 entries) between an ingest and the query that should see it."""
        codes = _faiss().downcast_index(self.index.index).codes
        size = codes.size()
        codes.resize(size + extra * self.dim * 4)
        codes.resize(size)

    def matrix(self) -> np.ndarray:
        """Zero-copy view of the stored vectors, row i = i-th added entry (re-fetch after adds)."""
        faiss = _faiss()
        flat = faiss.downcast_index(self.index.index)
        n = len(self)
        if n == 0:
            return np.zeros((0, self.dim), dtype=np.float32)
        return faiss.rev_swig_ptr(flat.get_xb(), n * self.dim).reshape(n, self.dim)

    def ids(self) -> np.ndarray:
        return _faiss().vector_to_array(self.index.id_map).astype(np.int64)

    def scores(self, query: np.ndarray) -> np.ndarray:
        """Inner product of the query with every stored vector (exact; pools need every score for
        min-max normalisation, not just the top k)."""
        faiss = _faiss()
        n = len(self)
        out = np.empty(n, dtype=np.float32)
        if n:
            # faiss's single-threaded SIMD kernel: numpy's BLAS matvec spawns threads that spin
            # against each other on a busy 2-core machine (8 ms instead of 0.3 ms at 10k entries)
            q = np.ascontiguousarray(query, dtype=np.float32)
            flat = faiss.downcast_index(self.index.index)
            faiss.fvec_inner_products_ny(faiss.swig_ptr(out), faiss.swig_ptr(q), flat.get_xb(), self.dim, n)
        return out

    def save(self, directory: Path, state: IndexState) -> None:
        faiss = _faiss()
        directory.mkdir(parents=True, exist_ok=True)
        tmp = directory / "dense.faiss.tmp"
        faiss.write_index(self.index, str(tmp))
        os.replace(tmp, directory / "dense.faiss")
        _write_json(directory / "state.json", state.__dict__)

    @classmethod
    def load(cls, directory: Path) -> tuple[DenseIndex, IndexState] | None:
        state_file, index_file = directory / "state.json", directory / "dense.faiss"
        if not state_file.is_file() or not index_file.is_file():
            return None
        try:
            state = IndexState(**json.loads(state_file.read_text()))
            index = _faiss().read_index(str(index_file))
        except (ValueError, TypeError, RuntimeError):
            return None  # unreadable or from another format: the caller rebuilds from SQLite
        self = cls.__new__(cls)
        self.dim, self.index, self._codes = state.dim, index, None
        if len(self) != state.count:
            return None
        self.reserve(max(1024, len(self) // 4))
        self._refresh_codes()
        return self, state


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, sort_keys=True))
    os.replace(tmp, path)
