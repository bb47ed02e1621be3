"""Store: SQLite truth + JSONL events + derived FAISS/BM25, write-back, snapshots, export/import."""

from __future__ import annotations

import json
import sqlite3

import pytest
from kb_testing import exp

from knowledge_base import (
    Approval,
    ApprovalRequired,
    Correction,
    HashingEmbedder,
    KnowledgeBase,
    ReadOnlyError,
    RetrievalQuery,
)
from knowledge_base.embedders import HashingEmbedder as H
from knowledge_base.loading import EmbedderMismatch

APPROVAL = Approval(
    approved_by="reviewer",
    approved_at="2026-11-29T10:00:00Z",
    reference="FIX-031",
    reason="promoted: 3 flips, 0 regressions",
)
XML = Correction(
    construct_id="xml-shred",
    failure_type="unsupported",
    context="shred an XML document column into relational rows with XMLTABLE PASSING COLUMNS",
    fix="keep XMLTABLE; PASSING takes the xml value; COLUMNS ... PATH stays",
)


def _filler(kb, n=30):
    return kb.add_many([exp(f"filler rule number {i} about cursor loops and string padding") for i in range(n)])


def test_ingest_refuses_without_approval(kb):
    with pytest.raises(ApprovalRequired):
        kb.ingest(XML, None)
    with pytest.raises(ApprovalRequired):
        kb.add_many([XML])
    assert len(kb) == 0 and kb.sql.count() == 0


def test_ingested_correction_is_retrievable_by_the_very_next_query(kb):
    _filler(kb)
    query = RetrievalQuery(text="XMLTABLE shred xml column into rows")
    dense_before, repair_before = kb.dense, kb.last_repair
    assert all(h.kind != "correction" for h in kb.retrieve(query).positives)
    cid = kb.ingest(XML, APPROVAL)
    hits = kb.retrieve(query).positives
    assert hits[0].id == cid and hits[0].kind == "correction"
    # no rebuild, no restart: same index object, nothing repaired, BM25 served from its delta
    assert kb.dense is dense_before and kb.last_repair == repair_before
    assert kb.lexical.compactions == 0 and len(kb.lexical) > kb.lexical.base_count
    stored = kb.get(cid)
    assert stored.record.approval == APPROVAL
    assert kb.events(cid)[0]["kind"] == "correction_ingested"


def test_reopen_uses_fresh_index_and_mirrors_events(tmp_path):
    with KnowledgeBase(tmp_path / "kb", embedder=HashingEmbedder()) as kb:
        ids = _filler(kb, 5)
        kb.ingest(XML, APPROVAL)
        kb.deprecate(ids[0], "wrong")
        before = [h.id for h in kb.retrieve(RetrievalQuery(text="filler cursor", k_positive=5)).positives]
    with KnowledgeBase(tmp_path / "kb") as kb:
        assert kb.last_repair["mode"] == "fresh"
        assert kb.embedder_name == "hashing-v1 (not semantic)"
        after = [h.id for h in kb.retrieve(RetrievalQuery(text="filler cursor", k_positive=5)).positives]
        assert after == before and ids[0] not in after
        lines = [json.loads(x) for x in (tmp_path / "kb" / "experience_events.jsonl").read_text().splitlines()]
        kinds = [x["kind"] for x in lines]
        assert kinds.count("bulk_added") == 5 and "correction_ingested" in kinds and "deprecated" in kinds
        assert kinds.count("retrieval") == 2
        seqs = [x["seq"] for x in lines if x["seq"] is not None]
        assert seqs == list(range(1, len(seqs) + 1))
        assert seqs[-1] == kb.sql.conn.execute("SELECT MAX(seq) FROM events").fetchone()[0]


def test_embedder_mismatch_is_refused(tmp_path):
    KnowledgeBase(tmp_path / "kb", embedder=HashingEmbedder()).close()
    with pytest.raises(EmbedderMismatch):
        KnowledgeBase(tmp_path / "kb", embedder=H(dim=128))


def test_snapshot_is_read_only_and_frozen(kb):
    _filler(kb, 5)
    snap = kb.snapshot("ck-001")
    query = RetrievalQuery(text="XMLTABLE shred xml column")
    kb.ingest(XML, APPROVAL)
    assert kb.retrieve(query).positives[0].kind == "correction"
    assert all(h.kind != "correction" for h in snap.retrieve(query).positives)  # frozen at ck-001
    with pytest.raises(ReadOnlyError):
        snap.add_experience(exp("held-out result"))
    with pytest.raises(ReadOnlyError):
        snap.ingest(XML, APPROVAL)
    with pytest.raises(sqlite3.OperationalError):
        snap.sql.conn.execute("DELETE FROM entries")
    manifest = json.loads((snap.root / "manifest.json").read_text())
    assert manifest["config"]["admit_confidence"] == 0.65 and manifest["config"]["dense_weight"] == 0.75
    assert manifest["embedder"] == "hashing-v1 (not semantic)" and manifest["state"]["entries"] == 5
    assert not (snap.root / "experience_events.jsonl").exists()
    traces = [json.loads(x) for x in kb.traces_path.read_text().splitlines()]
    assert [t["snapshot"] for t in traces] == [None, "ck-001"]
    with pytest.raises(FileExistsError):
        kb.snapshot("ck-001")
    snap.close()
    with KnowledgeBase.open_snapshot(kb.root, "ck-001") as again:
        assert len(again) == 5


def test_export_import_round_trip(kb, tmp_path):
    from knowledge_base import Rule
    from knowledge_base.checkpoints import export_records
    from knowledge_base.imports import import_records

    a = kb.add_experience(exp("one").model_copy(update={"tier": "G3"}))
    b = kb.add_experience(exp("two").model_copy(update={"tier": "G3"}))
    rid, _ = kb.propose_rule(Rule(construct_id="c", idiom="i", paragraph="p", supporting=(a, b)), APPROVAL)
    kb.ingest(XML, APPROVAL)
    kb.deprecate(a, "test")
    assert export_records(kb, tmp_path / "x.jsonl") == 4
    with KnowledgeBase(tmp_path / "new", embedder=HashingEmbedder()) as new:
        kb.add_experience(exp("not exported"))
        mapping = import_records(new, tmp_path / "x.jsonl").mapping
        rule = new.get(mapping[rid]).record
        assert rule.status == "admitted" and rule.supporting == (mapping[a], mapping[b])
        assert new.get(mapping[a]).status == "deprecated"
        assert len(new) == 4


def test_empty_store_answers_with_nothing(kb):
    r = kb.retrieve(RetrievalQuery(text="anything at all", failure_type="syntax"))
    assert r.positives == () and r.negatives == () and r.eligible_count == 0
    assert kb.add_many([]) == [] and kb.sql.generation() == 0


def test_the_stream_clock_is_store_wide_and_survives_reopening(tmp_path):
    """Positions continue across runs: what run 1 finalized is in the past for run 2's first unit."""
    with KnowledgeBase(tmp_path / "kb", embedder=HashingEmbedder()) as kb:
        assert [kb.take_position() for _ in range(3)] == [0, 1, 2]
        late = kb.add_experience(exp("run one, last unit", stream_position=2))
    with KnowledgeBase(tmp_path / "kb", embedder=HashingEmbedder()) as kb:
        first = kb.take_position()
        assert first == 3
        hits = kb.retrieve(RetrievalQuery(text="run one last unit", stream_position=first)).positives
        assert [h.id for h in hits] == [late]
        kb.add_many([exp("imported from elsewhere", stream_position=40)])
        assert kb.next_position() == 41  # never behind a stored position


def test_contraindications_are_recorded_and_shown_with_the_hit(kb):
    from knowledge_base.records import untrusted_block

    eid = kb.add_experience(exp("coalesce for nvl").model_copy(update={"applicability": {"unit_kind": "function"}}))
    kb.contraindicate(eid, "procedure:app.p2 (wrong rows)")
    kb.contraindicate(eid, "procedure:app.p2 (wrong rows)")  # the same note once
    stored = kb.get(eid).record
    assert stored.contraindications == ("procedure:app.p2 (wrong rows)",)
    assert [e["kind"] for e in kb.events(eid)] == ["experience_added", "contraindicated"]
    hit = kb.retrieve(RetrievalQuery(text="coalesce for nvl")).positives[0]
    assert hit.contraindications == ("procedure:app.p2 (wrong rows)",)
    block = untrusted_block(hit)
    assert "applies to: unit_kind=function" in block and "did not carry over to: procedure:app.p2" in block
