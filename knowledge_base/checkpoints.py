"""Snapshots (read-only checkpoint copies for held-out scoring) and JSONL export (import: imports.py)."""

from __future__ import annotations

import json
import os
import re
import shutil
from pathlib import Path

from knowledge_base import loading
from knowledge_base.monitor import state_counts
from knowledge_base.sqlstore import now

RETRIEVAL_DIR = "retrieval"  # migrator.agent.retrieval.controller keeps its state here
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$")


def create_snapshot(kb, name: str) -> Path:
    """Freeze the current state under snapshots/NAME: SQLite copy, index, manifest, all read-only."""
    if not _NAME.match(name):
        raise ValueError(f"snapshot name {name!r}: use letters, digits, '.', '_' or '-'")
    dest = kb.root / "snapshots" / name
    if dest.exists():
        raise FileExistsError(f"snapshot {name} already exists: {dest}")
    kb.flush()
    (dest / loading.INDEX_DIR).mkdir(parents=True)
    kb.sql.backup_to(dest / loading.DB)
    for part in ("dense.faiss", "state.json"):
        shutil.copy2(kb.root / loading.INDEX_DIR / part, dest / loading.INDEX_DIR / part)
    # the retrieval controller's state (bandit, skills, decisions) is knowledge too: frozen with the rest
    if (kb.root / RETRIEVAL_DIR).is_dir():
        shutil.copytree(kb.root / RETRIEVAL_DIR, dest / RETRIEVAL_DIR)
    manifest = {
        "name": name,
        "created_at": now(),
        "generation": kb.sql.generation(),
        "embedder": kb.embedder_name,
        "config": kb.config.model_dump(mode="json"),
        "state": state_counts(kb.sql),
        "held_out_targets": sorted(kb.held_out),
    }
    (dest / "manifest.json").write_text(json.dumps(manifest, indent=2, sort_keys=True))
    _make_read_only(dest)
    kb.sql.log("snapshot", None, {"name": name, "generation": manifest["generation"]})
    loading.sync_events(kb)
    return dest


def copy_store(src: Path, dest: Path) -> Path:
    """A writable copy of the store at `src` (SQLite backup and index files): a scratch copy for a
    trial (a fix cycle's arm) that must never write into the real store."""
    from knowledge_base.store import KnowledgeBase

    if dest.exists():
        raise FileExistsError(f"{dest} already exists")
    (dest / loading.INDEX_DIR).mkdir(parents=True)
    with KnowledgeBase(src, read_only=True) as kb:
        kb.sql.backup_to(dest / loading.DB)
    for part in ("dense.faiss", "state.json"):
        if (src / loading.INDEX_DIR / part).is_file():
            shutil.copy2(src / loading.INDEX_DIR / part, dest / loading.INDEX_DIR / part)
    return dest


def _make_read_only(root: Path) -> None:
    for path in sorted(root.rglob("*"), reverse=True):
        os.chmod(path, 0o444 if path.is_file() else 0o555)
    os.chmod(root, 0o555)


def export_records(kb, path: Path) -> int:
    """One JSON line per entry: id, status, record (vectors are re-made on import)."""
    n = 0
    with open(path, "w", encoding="utf-8") as fh:
        for entry_id, _generation, status, record in kb.sql.records():
            fh.write(
                json.dumps({"id": entry_id, "status": status, "record": json.loads(record)}, sort_keys=True) + "\n"
            )
            n += 1
    return n
