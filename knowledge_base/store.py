"""The knowledge base: SQLite truth, JSONL event log, derived FAISS + BM25 indexes, retrieval.

Layout of a knowledge-base directory:
    kb.sqlite                  entries (with vectors), events, held-out targets, meta (generation)
    experience_events.jsonl    append-only mirror of the event table, plus retrieval events
    retrieval_traces.jsonl     one line per retrieval call
    index/dense.faiss, index/state.json   the FAISS index and the generation it reflects
    snapshots/NAME/            read-only checkpoint copies with a manifest

One writer at a time: a writable store holds an OS lock on its directory from open to close
(knowledge_base.lock); a second writer waits up to `lock_timeout` seconds, then gets StoreBusy.
A write commits to SQLite first, then updates the in-memory indexes
(visible to the next query at once), then persists the FAISS file every `flush_every` writes.
Opening compares the index's generation with SQLite's and repairs a stale index.

The stream clock is store-wide (`take_position`): positions continue across runs and schema
directories, so an experience finalized by an earlier run is in the past for every later unit.
Rules reach active knowledge only with an approval (a promoted fix cycle): `propose_rule` without
one stores a candidate, whatever its evidence would earn.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from knowledge_base import gate, loading
from knowledge_base.admission import Decision
from knowledge_base.catalog import EntryColumns, EntryMeta
from knowledge_base.config import KBConfig
from knowledge_base.content import content_hash
from knowledge_base.dense import DenseIndex
from knowledge_base.embedders import Embedder, make_embedder
from knowledge_base.gate import ApprovalRequired
from knowledge_base.lexical import LexicalIndex, tokenize
from knowledge_base.lock import StoreLock
from knowledge_base.records import (
    Approval,
    Correction,
    Experience,
    Hit,
    PoolReport,
    RetrievalQuery,
    RetrievalResult,
    Rule,
    StoredEntry,
    entry_tags,
    entry_text,
)
from knowledge_base.retrieval import eligibility, search_pool
from knowledge_base.sqlstore import NewEntry, SqlStore
from knowledge_base.traces import write_trace

EVENTS, TRACES = "experience_events.jsonl", "retrieval_traces.jsonl"


class ReadOnlyError(PermissionError):
    """A write was attempted on a snapshot."""


class KnowledgeBase:
    # Set when the store is opened (loading.open_store): SQLite first, then the derived indexes.
    sql: SqlStore
    embedder_name: str
    dim: int
    config: KBConfig
    held_out: frozenset[str]
    catalog: EntryColumns
    dense: DenseIndex
    last_repair: dict
    lexical: LexicalIndex
    _event_seq: int

    def __init__(
        self,
        path: str | Path,
        embedder: Embedder | None = None,
        config: KBConfig | None = None,
        read_only: bool = False,
        traces_path: Path | None = None,
        snapshot: str | None = None,
        lock_timeout: float = 120.0,
    ):
        self.root = Path(path)
        self.read_only, self.snapshot_name = read_only, snapshot
        if traces_path is None and read_only and self.root.parent.name == "snapshots":
            traces_path = self.root.parent.parent / TRACES  # a snapshot's own folder is read-only
        self.traces_path = traces_path or self.root / TRACES
        self._after_commit = None  # test seam: called between the SQLite commit and the index write
        self._embedder = embedder
        self._writes_since_flush = 0
        self._clock: int | None = None  # the next stream position, once read
        self._tags: dict[int, frozenset[str]] = {}  # entry id -> tags (records never change them)
        self._embed_pool: ThreadPoolExecutor | None = None
        # Taken before SQLite is opened: opening a writable store already writes (meta, index repair).
        self._lock = None if read_only else StoreLock.acquire(self.root, lock_timeout)
        try:
            loading.open_store(self, embedder, config)
        except BaseException:
            self._release()
            raise

    # -- context, embedder ---------------------------------------------------------------------
    def __enter__(self) -> KnowledgeBase:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        try:
            if not self.read_only and self._writes_since_flush:
                self.flush()
            self.sql.close()
        finally:
            self._release()

    def _release(self) -> None:
        pool = getattr(self, "_embed_pool", None)
        if pool is not None:
            pool.shutdown(wait=True)
            self._embed_pool = None
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = make_embedder(self.embedder_name)
        return self._embedder

    def flush(self) -> None:
        """Persist the FAISS index with the generation it now reflects."""
        self._check_writable()
        loading.save_index(self)
        self._writes_since_flush = 0

    # -- writes ----------------------------------------------------------------------------------
    def add_experience(self, experience: Experience) -> int:
        return self._insert([experience], "experience_added", [{}])[0]

    def add_many(self, records: list, vectors: np.ndarray | None = None) -> list[int]:
        """Bulk insert in one transaction, records taken as they are (import, benchmarks): a Rule
        keeps its recorded status, so only trusted exports belong here; new rules go through
        propose_rule(). Corrections must carry their approval. `vectors` skips embedding."""
        for record in records:
            if isinstance(record, Correction) and record.approval is None:
                raise ApprovalRequired("a correction needs its approval record")
        return self._insert(records, "bulk_added", [{} for _ in records], vectors)

    def ingest(self, correction: Correction, approval: Approval | None) -> int:
        """Write back a human-approved correction; retrievable by the very next query."""
        if approval is None:
            raise ApprovalRequired("ingest() refuses a correction without an approval record")
        approved = Approval.model_validate(approval)
        record = correction.model_copy(update={"approval": approved})
        return self._insert([record], "correction_ingested", [{"approval": approved.model_dump()}])[0]

    def propose_rule(self, rule: Rule, approval: Approval | None = None) -> tuple[int, Decision]:
        """Store a rule; admitted only with an approval (knowledge_base.gate explains the gate)."""
        return gate.propose(self, rule, approval)

    def admit_rule(self, rule_id: int, approval: Approval) -> Decision:
        """Admit a candidate rule through the human gate, if its evidence (judged now) allows it."""
        return gate.admit(self, rule_id, approval)

    def contraindicate(self, entry_id: int, note: str) -> None:
        """Record where an experience was shown and the unit still failed (kept, at most 20)."""
        entry = self.get(entry_id)
        record = entry.record
        if not isinstance(record, Experience) or note in record.contraindications:
            return
        notes = (*record.contraindications, note)[-20:]
        self._set_status(
            entry_id,
            entry.status,
            "contraindicated",
            {"note": note},
            record=record.model_copy(update={"contraindications": notes}),
        )

    # -- the stream clock --------------------------------------------------------------------------
    def next_position(self) -> int:
        """The position the next episode takes: after every position stored or taken so far."""
        if self._clock is None:
            taken = int(self.sql.meta("clock", "0") or 0)
            latest = self.sql.conn.execute("SELECT MAX(stream_position) FROM entries").fetchone()[0]
            self._clock = max(taken, latest + 1 if latest is not None else 0)
        return self._clock

    def take_position(self) -> int:
        """Take the next stream position for an episode (persisted: a later run continues after it)."""
        self._check_writable()
        position = self.next_position()
        self._clock = position + 1
        self.sql.set_meta("clock", str(self._clock))
        return position

    def deprecate(self, entry_id: int, reason: str) -> None:
        self._set_status(entry_id, "deprecated", "deprecated", {"reason": reason})
        gate.release(self, entry_id)

    def supersede(self, old_id: int, new_id: int, reason: str = "") -> None:
        self.get(new_id)
        self._set_status(old_id, "superseded", "superseded", {"by": new_id, "reason": reason})
        gate.release(self, old_id)

    def finalize(self, entry_id: int) -> None:
        """Mark an experience's episode finalized: only now may later queries retrieve it."""
        entry = self.get(entry_id)
        if isinstance(entry.record, Rule):
            raise ValueError(f"entry {entry_id} is a rule: only an episode's entries are finalized")
        prov = entry.record.provenance.model_copy(update={"finalized": True})
        self._set_status(
            entry_id, entry.status, "finalized", {}, record=entry.record.model_copy(update={"provenance": prov})
        )

    def declare_held_out(self, targets) -> None:
        """Reference targets of the held-out panel: entries scored against them are never retrieved."""
        self._check_writable()
        self.sql.add_held_out(sorted(set(targets)))
        self.held_out = self.sql.held_out()
        loading.sync_events(self)

    def snapshot(self, name: str) -> KnowledgeBase:
        """Freeze the current state as checkpoint NAME and return a read-only view of it for
        held-out scoring (its retrievals are traced, nothing is ever written back)."""
        from knowledge_base.checkpoints import create_snapshot

        dest = create_snapshot(self, name)
        return KnowledgeBase(dest, embedder=self._embedder, read_only=True, traces_path=self.traces_path, snapshot=name)

    @classmethod
    def open_snapshot(cls, root: str | Path, name: str, embedder: Embedder | None = None) -> KnowledgeBase:
        root = Path(root)
        return cls(
            root / "snapshots" / name, embedder=embedder, read_only=True, traces_path=root / TRACES, snapshot=name
        )

    # -- reads -----------------------------------------------------------------------------------
    def get(self, entry_id: int) -> StoredEntry:
        row = self.sql.entry(entry_id)
        if row is None:
            raise KeyError(f"no entry {entry_id}")
        return StoredEntry(id=row[0], generation=row[1], status=row[2], record=json.loads(row[3]))

    def events(self, entry_id: int) -> list[dict]:
        rows = self.sql.conn.execute(
            "SELECT seq, at, kind, payload FROM events WHERE entry_id = ? ORDER BY seq", (entry_id,)
        ).fetchall()
        return [{"seq": s, "at": a, "kind": k, "payload": json.loads(p)} for s, a, k, p in rows]

    def __len__(self) -> int:
        return len(self.catalog)

    def ids_of_task(self, task_id: str) -> list[int]:
        """Active entries whose provenance names this task (e.g. to retire those of an episode that a
        crash cut short before its run recorded it)."""
        rows = self.sql.conn.execute(
            "SELECT id FROM entries WHERE task_id = ? AND status = 'active' ORDER BY id", (task_id,)
        )
        return [r[0] for r in rows.fetchall()]

    def stats(self) -> dict:
        from knowledge_base.monitor import state_counts

        return {
            "path": str(self.root),
            "embedder": self.embedder_name,
            "dim": self.dim,
            "generation": self.sql.generation(),
            "snapshot": self.snapshot_name,
            "state": state_counts(self.sql),
            "by_kind_polarity_status": self.sql.counts(),
            "held_out_targets": len(self.held_out),
            "index": dict(self.last_repair),
            "bm25": {"base": self.lexical.base_count, "delta": len(self.lexical) - self.lexical.base_count},
            "config": self.config.model_dump(mode="json"),
        }

    def retrieve(self, query: RetrievalQuery) -> RetrievalResult:
        embedder = self.embedder
        if not getattr(embedder, "releases_gil", False):
            return self.retrieve_vector(query, embedder.embed([query.text])[0])
        # The query is embedded on a second thread (onnxruntime lets go of the GIL) while this one
        # works out eligibility and BM25, which do not need the vector.
        pending = self._embedding_thread().submit(embedder.embed, [query.text])
        mask = eligibility(self.catalog, query, self.held_out)
        lexical = self.lexical.scores(tokenize(query.text))
        return self._retrieve(query, pending.result()[0], mask, lexical)

    def _embedding_thread(self):
        if self._embed_pool is None:
            self._embed_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="kb-embed")
        return self._embed_pool

    def retrieve_vector(self, query: RetrievalQuery, qvec: np.ndarray) -> RetrievalResult:
        """Retrieval with a precomputed query vector (so benchmarks can time embedding apart)."""
        mask = eligibility(self.catalog, query, self.held_out)
        return self._retrieve(query, qvec, mask, self.lexical.scores(tokenize(query.text)))

    def _retrieve(self, query: RetrievalQuery, qvec: np.ndarray, mask: np.ndarray, lexical: np.ndarray):
        cfg, cat = self.config, self.catalog
        dense = self.dense.ranking_scores(qvec)
        vectors = self.dense.matrix() if cfg.mmr_lambda is not None else None
        hits, pools, margin = {}, {}, None
        for pol, k in (("+", query.k_positive), ("-", query.k_negative)):
            k = (cfg.k_positive if pol == "+" else cfg.k_negative) if k is None else k
            pool = mask & (cat.positive.view if pol == "+" else ~cat.positive.view)
            every = pol == "+" and bool(query.relevant)  # the margin needs every searched row's score
            out = search_pool(cat, pool, query.failure_type, dense, lexical, k, cfg, vectors, every)
            pools[pol] = PoolReport(eligible=out.eligible, searched=out.searched, type_conditioned=out.type_conditioned)
            hits[pol] = tuple(self._hit(r, pol) for r in out.ranked)
            if pol == "+" and query.relevant and out.rows is not None and out.scores is not None:
                margin = self._margin(out.rows, out.scores, query.relevant)
        result = RetrievalResult(
            query=query,
            embedder=self.embedder_name,
            positives=hits["+"],
            negatives=hits["-"],
            pools=pools,
            margin=margin,
        )
        self._trace(result)
        return result

    def tags(self, entry_id: int) -> frozenset[str]:
        """What an entry is about (its constructs); cached, since a record never changes them."""
        if entry_id not in self._tags:
            self._tags[entry_id] = entry_tags(self.get(entry_id).record)
        return self._tags[entry_id]

    def _margin(self, rows: np.ndarray, scores: np.ndarray, relevant: frozenset[str]) -> float | None:
        """Best relevant minus best irrelevant score in a searched pool (EPAM Study 4's margin,
        in hybrid-score units): > 0 means an entry that applies ranks above everything that does
        not. An entry applies when its tags and the query's overlap by Jaccard >= 0.5 (a tag that
        every unit carries, such as %TYPE, does not make a DBMS_OUTPUT fix apply to NVL)."""
        ids = self.catalog.ids.view[rows]
        hit = np.fromiter((_jaccard(self.tags(int(i)), relevant) >= 0.5 for i in ids), dtype=bool, count=len(ids))
        if not hit.any() or hit.all():
            return None
        return float(scores[hit].max() - scores[~hit].max())

    # -- internals -------------------------------------------------------------------------------
    def _check_writable(self) -> None:
        if self.read_only:
            raise ReadOnlyError(f"{self.root} is a read-only snapshot")

    def _insert(self, records: list, event: str, payloads: list[dict], vectors=None) -> list[int]:
        self._check_writable()
        if not records:
            return []
        texts = [entry_text(r) for r in records]
        if vectors is None:
            vectors = self.embedder.embed(texts)
        vectors = np.asarray(vectors, dtype=np.float32)
        if vectors.shape != (len(records), self.dim):
            raise ValueError(f"vectors must have shape ({len(records)}, {self.dim}), got {vectors.shape}")
        rows = [_new_entry(r, t, v) for r, t, v in zip(records, texts, vectors)]
        for row, record in zip(rows, records):
            row.content_hash = content_hash(record, self._evidence_hashes(record))
        ids, _ = self.sql.insert(rows, event, payloads)
        if self._after_commit is not None:
            self._after_commit()
        self.dense.add(np.asarray(ids, dtype=np.int64), vectors)
        for entry_id, row, text in zip(ids, rows, texts):
            self.catalog.append(_meta(entry_id, row))
            if self._clock is not None and row.stream_position is not None:
                self._clock = max(self._clock, row.stream_position + 1)
            self.lexical.add(tokenize(text))
        self.lexical.maybe_compact(self._all_tokens)
        self._after_write(len(ids))
        return ids

    def _evidence_hashes(self, record):
        """id -> content hash for a rule's evidence; a rule must point at entries of this store."""
        known = self.sql.content_hashes(getattr(record, "supporting", ()) + getattr(record, "opposing", ()))

        def lookup(entry_id: int) -> str:
            if entry_id not in known:
                raise ValueError(f"rule {record.construct_id!r}: evidence entry {entry_id} is not in {self.root}")
            return known[entry_id]

        return lookup

    def _set_status(self, entry_id: int, status: str, event: str, payload: dict, record=None) -> None:
        self._check_writable()
        entry = self.get(entry_id)
        record = record or entry.record
        if isinstance(record, Rule):
            record = record.model_copy(update={"status": status})
        row = _new_entry(record, "", np.zeros(0), status=status)
        self.sql.update(entry_id, status, row.retrievable, row.advisory, row.record, event, payload)
        self.catalog.set_state(entry_id, row.retrievable, row.advisory)
        self._after_write(0)

    def _after_write(self, added: int) -> None:
        loading.sync_events(self)
        self._writes_since_flush += 1
        if self._writes_since_flush >= self.config.flush_every:
            self.flush()

    def _all_tokens(self) -> list[list[str]]:
        return [tokenize(text) for _, text in self.sql.texts()]

    def _hit(self, ranked, polarity: str) -> Hit:
        cat, row = self.catalog, ranked.row
        entry_id = int(cat.ids.view[row])
        text = self.sql.conn.execute(
            "SELECT text, kind, failure_type, record FROM entries WHERE id = ?", (entry_id,)
        ).fetchone()
        contra = tuple(json.loads(text[3]).get("contraindications", ())) if text[1] == "experience" else ()
        return Hit(
            id=entry_id,
            kind=text[1],
            polarity=polarity,
            failure_type=text[2],
            score=ranked.score,
            dense=ranked.dense,
            lexical=ranked.lexical,
            dense_norm=ranked.dense_norm,
            lexical_norm=ranked.lexical_norm,
            advisory=bool(cat.advisory.view[row]),
            text=text[0],
            contraindications=contra,
        )

    def _trace(self, result: RetrievalResult) -> None:
        write_trace(self, result)


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a or b else 0.0


def _new_entry(record, text: str, vector: np.ndarray, status: str | None = None) -> NewEntry:
    prov = getattr(record, "provenance", None)
    if isinstance(record, Rule):
        status = status or record.status
        retrievable, advisory = status == "admitted", record.advisory
    else:
        status = status or "active"
        retrievable, advisory = status == "active" and (prov is None or prov.finalized), False
    return NewEntry(
        kind=record.kind,
        polarity=getattr(record, "polarity", "+"),
        failure_type=record.failure_type,
        status=status,
        retrievable=retrievable,
        advisory=advisory,
        stream_position=prov.stream_position if prov else None,
        task_id=prov.task_id if prov else None,
        task_group=prov.task_group if prov else None,
        reference_target_id=prov.reference_target_id if prov else None,
        text=text,
        record=record.model_dump_json(),
        vector=vector,
    )


def _meta(entry_id: int, row: NewEntry) -> EntryMeta:
    return EntryMeta(
        id=entry_id,
        kind=row.kind,
        polarity=row.polarity,
        retrievable=row.retrievable,
        advisory=row.advisory,
        stream_position=row.stream_position,
        task_id=row.task_id,
        task_group=row.task_group,
        reference_target_id=row.reference_target_id,
        failure_type=row.failure_type,
    )
