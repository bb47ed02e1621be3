"""Opening a knowledge base: settle embedder and config, load metadata, check and repair the
derived indexes against SQLite, and bring the JSONL event mirror up to date."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from pydantic import TypeAdapter

from knowledge_base.catalog import EntryColumns, EntryMeta
from knowledge_base.config import KBConfig
from knowledge_base.content import content_hash
from knowledge_base.dense import DenseIndex, IndexState
from knowledge_base.embedders import make_embedder
from knowledge_base.lexical import LexicalIndex, tokenize
from knowledge_base.records import Record
from knowledge_base.sqlstore import SqlStore

DB, INDEX_DIR, EVENTS = "kb.sqlite", "index", "experience_events.jsonl"
RECORD = TypeAdapter(Record)


class EmbedderMismatch(ValueError):
    """The store's vectors were made by another embedder; mixing them would be meaningless."""


def open_store(kb, embedder, config: KBConfig | None) -> None:
    db = kb.root / DB
    if kb.read_only:
        if not db.is_file():
            raise FileNotFoundError(f"no knowledge base at {db}")
        kb.sql = SqlStore(db, read_only=True, immutable=kb.snapshot_name is not None)
    else:
        kb.root.mkdir(parents=True, exist_ok=True)
        kb.sql = SqlStore(db)
    _settle_embedder(kb, embedder)
    _settle_config(kb, config)
    if not kb.read_only:
        _hash_old_entries(kb.sql)
    kb.held_out = kb.sql.held_out()
    kb.catalog = load_catalog(kb.sql)
    kb._event_seq = 0 if kb.read_only else last_logged_seq(kb.root / EVENTS)
    kb.dense, kb.last_repair = load_dense(kb)
    cfg = kb.config
    kb.lexical = LexicalIndex(cfg.bm25_k1, cfg.bm25_b, cfg.bm25_delta_min, cfg.bm25_delta_share)
    kb.lexical.build([tokenize(text) for _, text in kb.sql.texts()])
    sync_events(kb)


def _settle_embedder(kb, embedder) -> None:
    stored = kb.sql.meta("embedder")
    if stored is None:
        if kb.read_only:
            raise ValueError(f"{kb.root} has no embedder recorded")
        embedder = embedder or make_embedder("auto")
        kb.sql.set_meta("embedder", embedder.name)
        kb.sql.set_meta("dim", str(embedder.dim))
        kb._embedder = embedder
    elif embedder is not None and embedder.name != stored:
        raise EmbedderMismatch(
            f"{kb.root} was built with {stored!r}; got {embedder.name!r} (export and re-import to change embedders)"
        )
    kb.embedder_name = kb.sql.meta("embedder")
    kb.dim = int(kb.sql.meta("dim"))


def _settle_config(kb, config: KBConfig | None) -> None:
    stored = kb.sql.meta("config")
    current = KBConfig.model_validate_json(stored) if stored else KBConfig()
    if config is not None and config != current and not kb.read_only:
        kb.sql.log("config_changed", None, {"from": current.model_dump(), "to": config.model_dump()})
    kb.config = config or current
    if not kb.read_only and stored != kb.config.model_dump_json():
        kb.sql.set_meta("config", kb.config.model_dump_json())


def _hash_old_entries(sql: SqlStore) -> None:
    """Entries written before content hashes existed get theirs (in id order: evidence first)."""
    rows = sql.unhashed()
    if not rows:
        return
    known: dict[int, str] = {}
    pairs = []
    for entry_id, raw in rows:
        record = RECORD.validate_json(raw)
        ids = getattr(record, "supporting", ()) + getattr(record, "opposing", ())
        known.update(sql.content_hashes(i for i in ids if i not in known))
        # evidence missing from an old store still hashes, as what it is: a dangling reference
        known[entry_id] = content_hash(record, lambda i: known.get(i, f"missing:{i}"))
        pairs.append((known[entry_id], entry_id))
    sql.set_content_hashes(pairs)


def load_catalog(sql: SqlStore) -> EntryColumns:
    cat = EntryColumns()
    for row in sql.meta_rows():
        cat.append(
            EntryMeta(
                id=row[0],
                kind=row[1],
                polarity=row[2],
                retrievable=bool(row[3]),
                advisory=bool(row[4]),
                stream_position=row[5],
                task_id=row[6],
                task_group=row[7],
                reference_target_id=row[8],
                failure_type=row[9],
            )
        )
    return cat


def load_dense(kb) -> tuple[DenseIndex, dict]:
    """The FAISS index, checked against SQLite: fresh, appended (the index is a prefix of the
    entries, e.g. after a crash before the index write), or rebuilt from the stored vectors."""
    gen, want = kb.sql.generation(), kb.catalog.ids.view
    loaded = DenseIndex.load(kb.root / INDEX_DIR)
    if loaded and (loaded[1].embedder != kb.embedder_name or loaded[1].dim != kb.dim):
        loaded = None
    report = {"index_generation": loaded[1].generation if loaded else None, "sqlite_generation": gen}
    if loaded:
        index, state = loaded
        have = index.ids()
        if np.array_equal(have, want):
            # same vectors; a newer generation only means metadata writes (status, held-out, ...)
            if state.generation != gen and not kb.read_only:
                kb.dense = index
                save_index(kb)
            return index, {**report, "mode": "fresh", "added": 0}
        if len(have) <= len(want) and np.array_equal(have, want[: len(have)]):
            ids, vectors = kb.sql.vectors(kb.dim, int(have[-1]) if len(have) else 0)
            index.add(ids, vectors)
            return _repaired(kb, index, {**report, "mode": "appended", "added": len(ids)})
    index = DenseIndex(kb.dim)
    ids, vectors = kb.sql.vectors(kb.dim)
    index.add(ids, vectors)
    if loaded is None and len(ids) == 0:
        return index, {**report, "mode": "empty", "added": 0}
    return _repaired(kb, index, {**report, "mode": "rebuilt", "added": len(ids)})


def _repaired(kb, index: DenseIndex, report: dict) -> tuple[DenseIndex, dict]:
    if not kb.read_only:
        kb.sql.log("index_repair", None, report)
        kb.dense = index
        save_index(kb)
    return index, report


def save_index(kb) -> None:
    ids = kb.dense.ids()
    state = IndexState(
        generation=kb.sql.generation(),
        count=len(kb.dense),
        max_id=int(ids[-1]) if len(ids) else 0,
        embedder=kb.embedder_name,
        dim=kb.dim,
    )
    kb.dense.save(kb.root / INDEX_DIR, state)


def last_logged_seq(path: Path) -> int:
    """Highest SQLite event seq already mirrored in the JSONL file (0 if none)."""
    if not path.is_file():
        return 0
    with open(path, "rb") as fh:
        fh.seek(0, 2)
        size = fh.tell()
        fh.seek(max(0, size - (1 << 18)))
        tail = fh.read().decode("utf-8", "replace").splitlines()
    for whole in (tail, None):
        lines = whole if whole is not None else path.read_text("utf-8", "replace").splitlines()
        for line in reversed(lines):
            try:
                seq = json.loads(line).get("seq")
            except (ValueError, AttributeError):
                continue  # a torn last line from a crash, or the cut start of the tail
            if isinstance(seq, int):
                return seq
    return 0


def sync_events(kb) -> None:
    if kb.read_only:
        return
    rows = kb.sql.events_after(kb._event_seq)
    if not rows:
        return
    with open(kb.root / EVENTS, "a", encoding="utf-8") as fh:
        for seq, at, kind, entry_id, payload, generation in rows:
            fh.write(
                json.dumps(
                    {
                        "seq": seq,
                        "at": at,
                        "kind": kind,
                        "entry_id": entry_id,
                        "generation": generation,
                        "payload": json.loads(payload),
                    },
                    sort_keys=True,
                )
                + "\n"
            )
    kb._event_seq = rows[-1][0]
