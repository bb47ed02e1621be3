"""Domain-free, evidence-tiered experience memory. Knows nothing of Oracle or PostgreSQL.

Tasks, task groups, failure types, constructs and reference targets are opaque strings, so the
migration agent and the Text-to-SQL and SWE adapters can share it.

    from knowledge_base import KnowledgeBase, Experience, RetrievalQuery
    kb = KnowledgeBase("kb/", embedder=make_embedder("minilm"))
    kb.add_experience(Experience(polarity="+", failure_type="syntax", context="...", output="..."))
    kb.retrieve(RetrievalQuery(text="...", task_id="t7", task_group="g2", stream_position=7))

Modules: records (boundary models), config (every threshold), admission (EPAM eq. 10),
store (SQLite + JSONL + FAISS + BM25), retrieval (eligibility, pools, hybrid ranking, MMR),
embedders (MiniLM offline, BGE-M3 local, hashing), monitor, checkpoints (snapshots, export/import),
cli (`migrator kb ...`).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from knowledge_base.admission import Decision
    from knowledge_base.config import DEFAULT_CONFIG, KBConfig
    from knowledge_base.embedders import EmbedderUnavailable, HashingEmbedder, make_embedder
    from knowledge_base.records import (
        Approval,
        Correction,
        Experience,
        Hit,
        Provenance,
        RetrievalQuery,
        RetrievalResult,
        Rule,
        StoredEntry,
    )
    from knowledge_base.store import ApprovalRequired, KnowledgeBase, ReadOnlyError

# Each name is imported from its module on first use (PEP 562), so importing a submodule — the
# command line's `knowledge_base.cli` for `migrator --help` — does not load numpy, FAISS and pydantic.
_WHERE = {
    "Decision": "admission",
    "DEFAULT_CONFIG": "config",
    "KBConfig": "config",
    "EmbedderUnavailable": "embedders",
    "HashingEmbedder": "embedders",
    "make_embedder": "embedders",
    "Approval": "records",
    "Correction": "records",
    "Experience": "records",
    "Hit": "records",
    "Provenance": "records",
    "RetrievalQuery": "records",
    "RetrievalResult": "records",
    "Rule": "records",
    "StoredEntry": "records",
    "ApprovalRequired": "store",
    "KnowledgeBase": "store",
    "ReadOnlyError": "store",
}


def __getattr__(name: str):
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'knowledge_base' has no attribute {name!r}")
    value = getattr(importlib.import_module(f"knowledge_base.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))


__all__ = [
    "Approval",
    "ApprovalRequired",
    "Correction",
    "DEFAULT_CONFIG",
    "Decision",
    "EmbedderUnavailable",
    "Experience",
    "HashingEmbedder",
    "Hit",
    "KBConfig",
    "KnowledgeBase",
    "Provenance",
    "ReadOnlyError",
    "RetrievalQuery",
    "RetrievalResult",
    "Rule",
    "StoredEntry",
    "make_embedder",
]
