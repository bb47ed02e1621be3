"""JSONL import: read and check a whole export file first, then add only what the store lacks.

Reading is all-or-nothing, as before: every bad line is reported at its own file line
(`file:line: reason`) and nothing is written. Adding is idempotent by content hash
(knowledge_base.content): an entry already present, or repeated within the file, maps to the entry
that holds it, so a second import of the same file, or a retry after a failure, adds nothing twice.
Callers hold the store's writer lock for the whole import (a writable KnowledgeBase always does).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from knowledge_base.content import content_hash
from knowledge_base.records import Record, Rule

JSON_KINDS = {list: "array", str: "string", int: "number", float: "number", bool: "boolean", type(None): "null"}


class ExportLine(BaseModel):
    """One line of `kb export`."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    id: int = Field(ge=1)
    status: str = Field(min_length=1)
    record: Record


@dataclass(frozen=True)
class Parsed:
    line: int
    entry: ExportLine
    hash: str


@dataclass
class ImportResult:
    mapping: dict[int, int] = field(default_factory=dict)  # exported id -> id in this store
    new: int = 0
    present: int = 0


class ImportFileError(ValueError):
    def __init__(self, path: Path, problems: list[str]):
        self.path, self.problems = path, problems
        super().__init__("\n".join(problems) + f"\n{len(problems)} bad line(s) in {path}; nothing imported")


def read_export(path: Path) -> list[Parsed]:
    """Every line checked; raises ImportFileError listing all bad lines, or returns them all parsed."""
    path = Path(path)
    try:
        text = path.read_text("utf-8")
    except UnicodeDecodeError as exc:
        raise ImportFileError(path, [f"{path}: not UTF-8 text (byte {exc.start}: {exc.reason})"]) from None
    problems: list[str] = []
    entries: list[tuple[int, ExportLine]] = []
    # split on "\n" only: str.splitlines would also cut at U+2028 and friends inside a JSON string
    for number, raw in enumerate(text.split("\n"), 1):
        if raw.strip():
            entry = _parse_line(raw, f"{path}:{number}", problems)
            if entry is not None:
                entries.append((number, entry))
    parsed = _hashed(entries, path, problems)
    if problems:
        raise ImportFileError(path, problems)
    return parsed


def _parse_line(raw: str, where: str, problems: list[str]) -> ExportLine | None:
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:  # its own "line 1 column N" is about this line's text
        problems.append(f"{where}: not valid JSON: {exc.msg} at column {exc.colno}")
        return None
    if not isinstance(data, dict):
        kind = JSON_KINDS.get(type(data), type(data).__name__)
        problems.append(f"{where}: a JSON {kind}, not an object (each line is one exported entry)")
        return None
    try:
        return ExportLine.model_validate(data)
    except ValidationError as exc:
        reasons = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'line'}: {e['msg']}" for e in exc.errors())
        problems.append(f"{where}: not an exported entry: {reasons}")
        return None


def _hashed(entries: list[tuple[int, ExportLine]], path: Path, problems: list[str]) -> list[Parsed]:
    """Content hashes, plain entries first: a rule's hash is made from its evidence's hashes."""
    first_line: dict[int, int] = {}
    evidence: dict[int, str] = {}  # only plain entries are evidence, never another rule
    out: list[Parsed] = []
    for number, entry in sorted(entries, key=lambda e: isinstance(e[1].record, Rule)):
        if entry.id in first_line:
            problems.append(f"{path}:{number}: id {entry.id} appears again (first at line {first_line[entry.id]})")
            continue
        first_line[entry.id] = number
        try:
            digest = content_hash(entry.record, evidence.__getitem__)
        except KeyError as exc:
            problems.append(
                f"{path}:{number}: rule evidence id {exc.args[0]} is not an experience or correction of this file"
            )
            continue
        if not isinstance(entry.record, Rule):
            evidence[entry.id] = digest
        out.append(Parsed(number, entry, digest))
    return out


def import_records(kb, source: Path | list[Parsed]) -> ImportResult:
    """Add the entries of an export (a path, or what read_export returned) that `kb` lacks."""
    parsed = read_export(source) if isinstance(source, (str, Path)) else source
    result = ImportResult()
    plain = [p for p in parsed if not isinstance(p.entry.record, Rule)]
    _add_missing(kb, plain, result)
    _add_missing(kb, [p for p in parsed if isinstance(p.entry.record, Rule)], result)
    for p in plain:  # also for entries already present: a retry finishes what a failed run began
        entry_id = result.mapping[p.entry.id]
        if p.entry.status in ("deprecated", "superseded") and kb.get(entry_id).status == "active":
            kb.deprecate(entry_id, f"imported as {p.entry.status}")
    return result


def _add_missing(kb, parsed: list[Parsed], result: ImportResult) -> None:
    present = kb.sql.ids_by_hash({p.hash for p in parsed})
    fresh: dict[str, list[Parsed]] = {}  # hash -> lines holding it, first one is added
    for p in parsed:
        if p.hash in present:
            result.mapping[p.entry.id] = present[p.hash]
        else:
            fresh.setdefault(p.hash, []).append(p)
    result.present += len(parsed) - len(fresh)
    records = [_remapped(same[0].entry.record, result.mapping) for same in fresh.values()]
    ids = kb.add_many(records) if records else []
    for same, new_id in zip(fresh.values(), ids):
        for p in same:
            result.mapping[p.entry.id] = new_id
    result.new += len(ids)


def _remapped(record, mapping: dict[int, int]):
    if not isinstance(record, Rule):
        return record
    return record.model_copy(
        update={
            "supporting": tuple(mapping[i] for i in record.supporting),
            "opposing": tuple(mapping[i] for i in record.opposing),
        }
    )
