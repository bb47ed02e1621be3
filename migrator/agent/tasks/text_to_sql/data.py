"""Spider- and BIRD-format data directories: questions, gold SQL, and where each database lives.

Spider: DATA/tables.json, DATA/<split>.json (db_id, question, query), DATA/database/<db>/<db>.sqlite.
BIRD:   DATA/<split>.json (question_id, db_id, question, evidence, SQL, difficulty),
        DATA/<split>_databases/<db>/<db>.sqlite (dev_databases, train_databases).
Either format can instead point at PostgreSQL (`pg_dsn`): each db_id is a schema of that database,
or a database of its own when the DSN holds the placeholder `{db_id}`.

A bad entry (a field missing, no database, gold SQL the database cannot parse) is reported with
its index and reason and left out; the rest load.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from harness.tasks.readonly_pg import PostgresReadOnly
from harness.tasks.readonly_sql import Limits, ReadOnlyDatabase, SqliteReadOnly
from migrator.agent.tasks.text_to_sql.hardness import spider_hardness

Flavor = Literal["spider", "bird"]
UNLABELLED = "unlabelled"


class DataError(ValueError):
    """The data directory itself cannot be read (no split file, not JSON, not a list)."""


class Entry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    index: int  # position in the split file: the benchmarks' "question order"
    db_id: str
    question: str
    gold: str
    evidence: str = ""
    difficulty: str = UNLABELLED

    @property
    def uid(self) -> str:
        return f"{self.index}:{self.db_id}"

    @property
    def group(self) -> str:
        """Same database and same question text: one query for causal eligibility (never its own memory)."""
        digest = hashlib.sha1(" ".join(self.question.lower().split()).encode()).hexdigest()[:12]
        return f"{self.db_id}:{digest}"


class BadEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    index: int
    db_id: str = ""
    reason: str


class _Raw(BaseModel):
    # Benchmarks' files carry more than we read (Spider's token lists, BIRD's question_id): ignored.
    model_config = ConfigDict(extra="ignore")
    db_id: str
    question: str
    query: str | None = None
    SQL: str | None = None
    evidence: str | None = None
    difficulty: str | None = None
    hardness: str | None = None


@dataclass
class Databases:
    """Opens each db_id once, read-only, on SQLite files or a PostgreSQL DSN."""

    root: Path | None
    pg_dsn: str | None = None
    limits: Limits = field(default_factory=Limits)
    _open: dict[str, ReadOnlyDatabase] = field(default_factory=dict)

    @property
    def dialect(self) -> str:
        return "postgres" if self.pg_dsn else "sqlite"

    def sqlite_path(self, db_id: str) -> Path:
        if self.root is None:
            raise ValueError(f"no data folder for {db_id}: this dataset's databases are on PostgreSQL")
        return self.root / db_id / f"{db_id}.sqlite"

    def missing(self, db_id: str) -> str | None:
        if self.pg_dsn or self.sqlite_path(db_id).is_file():
            return None
        hint = (
            " (build it: migrator text2sql build DATA)" if self.sqlite_path(db_id).with_suffix(".sql").is_file() else ""
        )
        return f"no database file {self.sqlite_path(db_id)}{hint}"

    def get(self, db_id: str) -> ReadOnlyDatabase:
        if db_id not in self._open:
            if self.pg_dsn and "{db_id}" in self.pg_dsn:
                self._open[db_id] = PostgresReadOnly(self.pg_dsn.replace("{db_id}", db_id), limits=self.limits)
            elif self.pg_dsn:
                self._open[db_id] = PostgresReadOnly(self.pg_dsn, schema=db_id, limits=self.limits)
            else:
                self._open[db_id] = SqliteReadOnly(self.sqlite_path(db_id), self.limits)
        return self._open[db_id]

    def close(self) -> None:
        for db in self._open.values():
            db.close()
        self._open.clear()


@dataclass
class Dataset:
    root: Path
    flavor: Flavor
    split: str
    entries: list[Entry]
    bad: list[BadEntry]
    databases: Databases

    @property
    def size(self) -> int:
        """Every question of the split file, bad ones included (prediction files are in this order)."""
        return len(self.entries) + len(self.bad)

    def fingerprint(self) -> str:
        text = json.dumps([e.model_dump() for e in self.entries], sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def split_file(root: Path, split: str) -> Path:
    path = Path(split) if split.endswith(".json") and Path(split).is_file() else root / f"{split}.json"
    if not path.is_file():
        raise DataError(f"no split file {path}: expected a Spider or BIRD data directory")
    return path


def _flavor(root: Path, split: str, rows: list) -> Flavor:
    """The folder layout decides; without databases (PostgreSQL targets) the entries' gold field does."""
    if (root / f"{split}_databases").is_dir():
        return "bird"
    if (root / "database").is_dir():
        return "spider"
    return "bird" if any(isinstance(r, dict) and "SQL" in r for r in rows[:20]) else "spider"


def _db_root(root: Path, flavor: Flavor, split: str) -> Path:
    return root / f"{split}_databases" if flavor == "bird" else root / "database"


def load_dataset(
    root: Path, split: str = "dev", pg_dsn: str | None = None, limits: Limits | None = None, check_gold: bool = True
) -> Dataset:
    root = Path(root)
    path = split_file(root, split)
    try:
        rows = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise DataError(f"{path}: not readable JSON: {err}") from err
    if not isinstance(rows, list):
        raise DataError(f"{path}: expected a JSON list of questions, got {type(rows).__name__}")
    name = Path(split).stem if split.endswith(".json") else split
    flavor = _flavor(root, name, rows)
    dbs = Databases(_db_root(root, flavor, name), pg_dsn, limits or Limits())
    entries, bad = [], []
    for index, row in enumerate(rows):
        entry = _entry(index, row, flavor)
        if isinstance(entry, BadEntry):
            bad.append(entry)
            continue
        problem = dbs.missing(entry.db_id) or (_gold_problem(dbs, entry) if check_gold else None)
        if problem:
            bad.append(BadEntry(index=index, db_id=entry.db_id, reason=problem))
        else:
            entries.append(entry)
    return Dataset(root, flavor, name, entries, bad, dbs)


def _entry(index: int, row, flavor: Flavor) -> Entry | BadEntry:
    try:
        raw = _Raw.model_validate(row)
    except ValidationError as err:
        fields = ", ".join(".".join(str(p) for p in e["loc"]) or "entry" for e in err.errors())
        return BadEntry(index=index, reason=f"not a question entry (missing or invalid: {fields})")
    gold = raw.SQL if flavor == "bird" else raw.query
    if gold is None:
        gold = raw.query if raw.query is not None else raw.SQL
    if not gold or not gold.strip():
        return BadEntry(index=index, db_id=raw.db_id, reason="no gold SQL (field 'SQL' or 'query')")
    difficulty = raw.difficulty or raw.hardness
    if difficulty is None:  # Spider's files carry none: its evaluator computes them from the gold SQL
        difficulty = spider_hardness(gold) if flavor == "spider" else UNLABELLED
    return Entry(
        index=index,
        db_id=raw.db_id,
        question=raw.question,
        gold=gold.strip(),
        evidence=raw.evidence or "",
        difficulty=difficulty,
    )


def _gold_problem(dbs: Databases, entry: Entry) -> str | None:
    """The database's own parser and name resolution (EXPLAIN), without running the query."""
    try:
        result = dbs.get(entry.db_id).run("EXPLAIN " + entry.gold)
    except Exception as err:  # noqa: BLE001 - an unreadable database is this entry's problem, not the run's
        return f"cannot open database {entry.db_id}: {err}"
    return None if result.ok else f"gold SQL does not parse on {entry.db_id}: {result.error}"


def build_sqlite(root: Path) -> list[Path]:
    """Create DATA/database/<db>/<db>.sqlite from the committed <db>.sql script where it is missing
    or older than the script; return the files built."""
    built = []
    for script in sorted(Path(root).glob("database/*/*.sql")):
        target = script.with_suffix(".sqlite")
        if target.is_file() and target.stat().st_mtime >= script.stat().st_mtime:
            continue
        partial = target.with_suffix(".sqlite.part")
        partial.unlink(missing_ok=True)
        con = sqlite3.connect(partial)
        try:
            con.executescript(script.read_text(encoding="utf-8"))
            con.commit()
        finally:
            con.close()
        partial.replace(target)
        built.append(target)
    return built
