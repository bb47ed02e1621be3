"""SQLite (WAL) source of truth: entries with their vectors, the event log, held-out targets, meta.

Every write is one transaction that also appends its event and bumps the generation counter; the
derived indexes record the generation they reflect, so a reader can tell whether they are stale.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL, polarity TEXT NOT NULL, failure_type TEXT NOT NULL, status TEXT NOT NULL,
    retrievable INTEGER NOT NULL, advisory INTEGER NOT NULL,
    stream_position INTEGER, task_id TEXT, task_group TEXT, reference_target_id TEXT,
    text TEXT NOT NULL, record TEXT NOT NULL, vector BLOB NOT NULL, generation INTEGER NOT NULL,
    content_hash TEXT);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY, at TEXT NOT NULL, kind TEXT NOT NULL, entry_id INTEGER,
    payload TEXT NOT NULL, generation INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS held_out (target TEXT PRIMARY KEY);
"""
META_COLUMNS = (
    "id, kind, polarity, retrievable, advisory, stream_position, task_id, task_group, reference_target_id, failure_type"
)


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


@dataclass
class NewEntry:
    kind: str
    polarity: str
    failure_type: str
    status: str
    retrievable: bool
    advisory: bool
    stream_position: int | None
    task_id: str | None
    task_group: str | None
    reference_target_id: str | None
    text: str
    record: str
    vector: np.ndarray
    content_hash: str | None = None


class SqlStore:
    def __init__(self, path: Path, read_only: bool = False, immutable: bool = False):
        self.path = path
        if read_only:
            # immutable: a snapshot never changes, so SQLite needs no lock or journal files beside it
            flags = "mode=ro&immutable=1" if immutable else "mode=ro"
            self.conn = sqlite3.connect(f"file:{path}?{flags}", uri=True)
        else:
            self.conn = sqlite3.connect(path)
            self.conn.execute("PRAGMA journal_mode=WAL")
            self.conn.execute("PRAGMA synchronous=NORMAL")
            self.conn.executescript(SCHEMA)
            self._add_content_hash_column()
            self.conn.execute("INSERT OR IGNORE INTO meta VALUES ('generation', '0')")
            self.conn.commit()
        self.read_only = read_only

    def close(self) -> None:
        self.conn.close()

    def _add_content_hash_column(self) -> None:
        """Stores made before content hashes get the column here; loading fills it in."""
        columns = {row[1] for row in self.conn.execute("PRAGMA table_info(entries)")}
        if "content_hash" not in columns:
            self.conn.execute("ALTER TABLE entries ADD COLUMN content_hash TEXT")
        self.conn.execute("CREATE INDEX IF NOT EXISTS entries_content_hash ON entries (content_hash)")

    def meta(self, key: str, default: str | None = None) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value: str) -> None:
        with self.conn:
            self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def generation(self) -> int:
        stored = self.meta("generation")
        return int(stored) if stored is not None else 0

    def _bump(self) -> int:
        self.conn.execute("UPDATE meta SET value = CAST(value AS INTEGER) + 1 WHERE key = 'generation'")
        return self.generation()

    def _event(self, kind: str, entry_id: int | None, payload: dict, generation: int) -> None:
        self.conn.execute(
            "INSERT INTO events (at, kind, entry_id, payload, generation) VALUES (?,?,?,?,?)",
            (now(), kind, entry_id, json.dumps(payload, sort_keys=True), generation),
        )

    def insert(self, entries: list[NewEntry], event_kind: str, payloads: list[dict]) -> tuple[list[int], int]:
        """Insert entries and their events in one transaction; returns their ids and the generation."""
        ids = []
        with self.conn:
            gen = self._bump()
            for e, payload in zip(entries, payloads):
                cur = self.conn.execute(
                    "INSERT INTO entries (kind, polarity, failure_type, status, retrievable, advisory, "
                    "stream_position, task_id, task_group, reference_target_id, text, record, vector, "
                    "generation, content_hash) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
                    (
                        e.kind,
                        e.polarity,
                        e.failure_type,
                        e.status,
                        int(e.retrievable),
                        int(e.advisory),
                        e.stream_position,
                        e.task_id,
                        e.task_group,
                        e.reference_target_id,
                        e.text,
                        e.record,
                        np.asarray(e.vector, dtype=np.float32).tobytes(),
                        gen,
                        e.content_hash,
                    ),
                )
                entry_id = cur.lastrowid
                assert entry_id is not None  # set by the INSERT just run
                ids.append(entry_id)
                self._event(event_kind, entry_id, payload, gen)
        if len(entries) >= 1000:
            # fold a bulk load's large WAL into the database now, not on the next small commit
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return ids, gen

    def update(
        self, entry_id: int, status: str, retrievable: bool, advisory: bool, record: str, event_kind: str, payload: dict
    ) -> int:
        with self.conn:
            gen = self._bump()
            cur = self.conn.execute(
                "UPDATE entries SET status=?, retrievable=?, advisory=?, record=?, generation=? WHERE id=?",
                (status, int(retrievable), int(advisory), record, gen, entry_id),
            )
            if cur.rowcount != 1:
                raise KeyError(entry_id)
            self._event(event_kind, entry_id, payload, gen)
        return gen

    def log(self, event_kind: str, entry_id: int | None, payload: dict) -> int:
        with self.conn:
            gen = self._bump()
            self._event(event_kind, entry_id, payload, gen)
        return gen

    def add_held_out(self, targets: list[str]) -> None:
        with self.conn:
            self.conn.executemany("INSERT OR IGNORE INTO held_out VALUES (?)", [(t,) for t in targets])
            gen = self._bump()
            self._event("held_out", None, {"targets": sorted(targets)}, gen)

    def held_out(self) -> frozenset[str]:
        return frozenset(r[0] for r in self.conn.execute("SELECT target FROM held_out"))

    def count(self) -> int:
        return self.conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0]

    def meta_rows(self):
        return self.conn.execute(f"SELECT {META_COLUMNS} FROM entries ORDER BY id")

    def texts(self, after_id: int = 0) -> list[tuple[int, str]]:
        return self.conn.execute("SELECT id, text FROM entries WHERE id > ? ORDER BY id", (after_id,)).fetchall()

    def vectors(self, dim: int, after_id: int = 0) -> tuple[np.ndarray, np.ndarray]:
        rows = self.conn.execute("SELECT id, vector FROM entries WHERE id > ? ORDER BY id", (after_id,)).fetchall()
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        mat = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), dim)
        return ids, mat

    def entry(self, entry_id: int):
        return self.conn.execute(
            "SELECT id, generation, status, record, text FROM entries WHERE id = ?", (entry_id,)
        ).fetchone()

    def content_hashes(self, ids) -> dict[int, str]:
        rows = self._where_in("SELECT id, content_hash FROM entries WHERE id IN ({})", list(ids))
        return {i: h for i, h in rows if h is not None}

    def ids_by_hash(self, hashes) -> dict[str, int]:
        """The first entry holding each of `hashes` (a store may hold older duplicates)."""
        out: dict[str, int] = {}
        for entry_id, h in sorted(
            self._where_in("SELECT id, content_hash FROM entries WHERE content_hash IN ({})", list(hashes))
        ):
            out.setdefault(h, entry_id)
        return out

    def _where_in(self, sql: str, values: list) -> list[tuple]:
        rows = []
        for start in range(0, len(values), 500):  # SQLite caps the number of bound parameters
            part = values[start : start + 500]
            rows += self.conn.execute(sql.format(",".join("?" * len(part))), part).fetchall()
        return rows

    def unhashed(self) -> list[tuple[int, str]]:
        return self.conn.execute("SELECT id, record FROM entries WHERE content_hash IS NULL ORDER BY id").fetchall()

    def set_content_hashes(self, pairs: list[tuple[str, int]]) -> None:
        with self.conn:
            self.conn.executemany("UPDATE entries SET content_hash = ? WHERE id = ?", pairs)

    def records(self):
        return self.conn.execute("SELECT id, generation, status, record FROM entries ORDER BY id")

    def events_after(self, seq: int):
        return self.conn.execute(
            "SELECT seq, at, kind, entry_id, payload, generation FROM events WHERE seq > ? ORDER BY seq", (seq,)
        ).fetchall()

    def counts(self) -> dict[str, int]:
        rows = self.conn.execute(
            "SELECT kind || ':' || polarity || ':' || status, COUNT(*) FROM entries GROUP BY 1"
        ).fetchall()
        return {k: n for k, n in rows}

    def backup_to(self, target: Path) -> None:
        dest = sqlite3.connect(target)
        with dest:
            self.conn.backup(dest)
        dest.execute("PRAGMA journal_mode=DELETE")
        dest.close()
