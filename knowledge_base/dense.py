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
    def __init__(self, dim: int):
        faiss = _faiss()
        self.dim = dim
        self.index = faiss.IndexIDMap2(faiss.IndexFlatIP(dim))

    def __len__(self) -> int:
        return int(self.index.ntotal)

    def add(self, ids: np.ndarray, vectors: np.ndarray) -> None:
        if len(ids):
            self.index.add_with_ids(
                np.ascontiguousarray(vectors, dtype=np.float32), np.ascontiguousarray(ids, dtype=np.int64)
            )
        if len(ids) >= 1000:
            self.reserve(max(1024, len(self) // 4))

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
        self.dim, self.index = state.dim, index
        if len(self) != state.count:
            return None
        self.reserve(max(1024, len(self) // 4))
        return self, state


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(data, sort_keys=True))
    os.replace(tmp, path)
