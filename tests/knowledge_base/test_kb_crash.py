"""Crash consistency: a writer killed between the SQLite commit and the index write."""

from __future__ import annotations

import json
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

from knowledge_base import KnowledgeBase, RetrievalQuery

ROOT = Path(__file__).resolve().parents[2]

WRITER = textwrap.dedent("""
    import os, signal, sys
    from knowledge_base import Experience, HashingEmbedder, KnowledgeBase
    kb = KnowledgeBase(sys.argv[1], embedder=HashingEmbedder())
    for i in range(3):
        kb.add_experience(Experience(polarity="+", context=f"stable entry {i} about cursor loops"))
    kb.flush()                                   # index persisted at this generation
    kb._after_commit = lambda: os.kill(os.getpid(), signal.SIGKILL)
    kb.add_experience(Experience(polarity="+", context="XMLTABLE shred xml column into rows"))
    print("not reached", flush=True)
""")


def _run_writer(path: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", WRITER, str(path)], cwd=ROOT, capture_output=True, text=True, timeout=60
    )


def test_killed_writer_leaves_stale_index_that_reopen_repairs(tmp_path):
    path = tmp_path / "kb"
    proc = _run_writer(path)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert "not reached" not in proc.stdout
    state = json.loads((path / "index" / "state.json").read_text())
    db = sqlite3.connect(path / "kb.sqlite")
    sqlite_gen = int(db.execute("SELECT value FROM meta WHERE key='generation'").fetchone()[0])
    assert db.execute("SELECT COUNT(*) FROM entries").fetchone()[0] == 4  # the commit survived
    db.close()
    assert state["generation"] < sqlite_gen and state["count"] == 3  # the index did not

    with KnowledgeBase(path) as kb:
        assert kb.last_repair["mode"] == "appended" and kb.last_repair["added"] == 1
        assert kb.last_repair["index_generation"] == state["generation"]
        hit = kb.retrieve(RetrievalQuery(text="XMLTABLE xml rows")).positives[0]
        assert "XMLTABLE" in hit.text and hit.id == 4
    state = json.loads((path / "index" / "state.json").read_text())
    assert state["count"] == 4
    events = [json.loads(x) for x in (path / "experience_events.jsonl").read_text().splitlines()]
    assert [e["entry_id"] for e in events if e["kind"] == "experience_added"] == [1, 2, 3, 4]
    assert any(e["kind"] == "index_repair" for e in events)
    with KnowledgeBase(path) as kb:
        assert kb.last_repair["mode"] == "fresh"


def test_corrupt_index_file_is_rebuilt_from_sqlite(tmp_path):
    path = tmp_path / "kb"
    assert _run_writer(path).returncode == -signal.SIGKILL
    (path / "index" / "dense.faiss").write_bytes(b"not a faiss index")
    with KnowledgeBase(path) as kb:
        assert kb.last_repair["mode"] == "rebuilt" and kb.last_repair["added"] == 4
        assert len(kb.dense) == 4
