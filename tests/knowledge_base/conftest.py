"""Fixtures for the knowledge-base tests: real SQLite, FAISS and bm25s in a temporary directory."""

from __future__ import annotations

import pytest

pytest.importorskip("faiss", reason="knowledge_base needs faiss-cpu (pip install -e '.[embeddings]')")
pytest.importorskip("bm25s", reason="knowledge_base needs bm25s (pip install -e '.[embeddings]')")

from knowledge_base import HashingEmbedder, KnowledgeBase  # noqa: E402


@pytest.fixture
def kb(tmp_path):
    with KnowledgeBase(tmp_path / "kb", embedder=HashingEmbedder()) as store:
        yield store
