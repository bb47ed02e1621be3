"""Recorded completions for reproducible reruns: `replay:<file>` and the recorder that writes it.

The file is JSONL, one recorded call per line: the request hash, the model that answered, the
request itself and the completion. The hash covers the request only (messages, temperature,
max_tokens, stop), not the model spec, because a replay is loaded as `replay:<file>` and must find
calls recorded from `bedrock:...` or `openai:...`. When a file holds the same hash twice, the
first line wins, matching the cache's "first call" protocol. Both wrappers are
`stored.StoredModel`: the replay answers only from the file, the recorder never from it.
"""

from __future__ import annotations

import fcntl
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from migrator.agent.models.base import Completion, Model, ModelError
from migrator.agent.models.stored import CompletionRecord, StoredModel, request_hash


class ReplayMiss(ModelError):
    """The request was never recorded: the rerun asked something the original run did not."""


class Recording(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    hash: str
    model: str
    request: dict[str, Any]
    completion: CompletionRecord


class ReplayFile:
    """A `stored.Store` over a JSONL file: `recordings` read from it, or None to only append."""

    def __init__(self, path: Path, model: str, recordings: dict[str, Recording] | None):
        self.path = Path(path)
        self.model = model
        self.recordings = recordings

    def find(self, payload: dict[str, Any]) -> Completion | None:
        found = self.recordings.get(request_hash(payload)) if self.recordings is not None else None
        return found.completion.to_completion(cached=True) if found is not None else None

    def keep(self, payload: dict[str, Any], completion: Completion) -> None:
        rec = Recording(
            hash=request_hash(payload), model=self.model, request=payload, completion=CompletionRecord.of(completion)
        )
        _append_line(self.path, rec.model_dump_json())

    def miss(self, payload: dict[str, Any]) -> ModelError:
        return ReplayMiss(
            f"no recorded completion for request hash {request_hash(payload)} in {self.path} "
            f"({len(self.recordings or {})} recorded); the prompt or parameters differ from the recorded run",
            model=self.model,
        )


class ReplayModel(StoredModel):
    def __init__(self, path: Path, *, name: str | None = None):
        self.path = Path(path)
        self.recordings = load_recordings(self.path)
        name = name or f"replay:{self.path}"
        super().__init__(None, ReplayFile(self.path, name, self.recordings), name)


class RecordingModel(StoredModel):
    """Wraps any Model and appends every call it answers to a replay file (same `name`)."""

    def __init__(self, inner: Model, path: Path):
        self.path = Path(path)
        super().__init__(inner, ReplayFile(self.path, inner.name, None), inner.name)


def load_recordings(path: Path) -> dict[str, Recording]:
    if not path.is_file():
        raise ModelError(f"replay file not found: {path}")
    recordings: dict[str, Recording] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = Recording.model_validate_json(line)
        except ValidationError as err:
            raise ModelError(f"{path}:{lineno}: not a recording: {err}") from err
        recordings.setdefault(rec.hash, rec)
    return recordings


def _append_line(path: Path, line: str) -> None:
    """One write under an exclusive lock, so concurrent recorders never interleave lines."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        try:
            f.write(line + "\n")
            f.flush()
        finally:
            fcntl.flock(f.fileno(), fcntl.LOCK_UN)
