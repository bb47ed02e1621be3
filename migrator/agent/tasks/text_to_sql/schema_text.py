"""The schema as a prompt shows it: each table's CREATE statement, compacted, with up to three
sample values per column (distinct, non-NULL, shortened). Cached per database."""

from __future__ import annotations

from dataclasses import dataclass, field

from migrator.agent.tasks.text_to_sql.data import Databases

SAMPLES = 3
VALUE_CHARS = 40


def _quote(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def _short(value) -> str:
    text = repr(value) if isinstance(value, str) else str(value)
    return text if len(text) <= VALUE_CHARS else text[: VALUE_CHARS - 3] + "..."


@dataclass
class SchemaText:
    databases: Databases
    max_chars: int = 8000
    _cache: dict[str, str] = field(default_factory=dict)

    def __call__(self, db_id: str) -> str:
        if db_id not in self._cache:
            self._cache[db_id] = self._build(db_id)
        return self._cache[db_id]

    def _build(self, db_id: str) -> str:
        db = self.databases.get(db_id)
        parts = []
        for table, ddl in db.schema_rows():
            head = db.run(f"SELECT * FROM {_quote(table)} LIMIT 0")
            samples = []
            for column in head.names:
                q = _quote(column)
                got = db.run(f"SELECT DISTINCT {q} FROM {_quote(table)} WHERE {q} IS NOT NULL LIMIT {SAMPLES}")
                if got.ok and got.rows:
                    samples.append(f"{column}: " + ", ".join(_short(r[0]) for r in got.rows))
            text = " ".join((ddl or f"CREATE TABLE {table} (...)").split())
            parts.append(text + ";" + ("\n-- samples: " + "; ".join(samples) if samples else ""))
        out = "\n".join(parts)
        if len(out) > self.max_chars:
            out = out[: self.max_chars] + f"\n-- (schema cut at {self.max_chars} characters)"
        return out
