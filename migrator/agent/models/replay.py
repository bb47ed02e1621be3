"""Recorded completions for reproducible reruns: `replay:<file>` and the recorder that writes it.

The file is JSONL, one recorded call per line: the request hash, the model that answered, the
request itself and the completion. The hash covers the request only (messages, temperature,
max_tokens, stop), not the model spec, because a replay is loaded as `replay:<file>` and must find
calls recorded from `bedrock:...` or `openai:...`. When a file holds the same hash twice, the
first line wins, matching the cache's "first call" protocol.
"""

from __future__ import annotations

import dataclasses
import fcntl
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from migrator.agent.models.base import Completion, Message, ModelError
from migrator.agent.models.cache import CompletionRecord, request_hash, request_payload


class ReplayMiss(ModelError):
    """The request was never recorded: the rerun asked something the original run did not."""


class Recording(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    hash: str
    model: str
    request: dict[str, Any]
    completion: CompletionRecord


class ReplayModel:
    def __init__(self, path: Path, *, name: str | None = None):
        self.path = Path(path)
        self.name = name or f"replay:{self.path}"
        self.recordings = load_recordings(self.path)

    def complete(
        self,
        messages: list[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int = 2048,
        stop: list[str] | None = None,
    ) -> Completion:
        payload = request_payload(messages, temperature=temperature, max_tokens=max_tokens, stop=stop)
        key = request_hash(payload)
        found = self.recordings.get(key)
        if found is None:
            raise ReplayMiss(
                f"no recorded completion for request hash {key} in {self.path} "
                f"({len(self.recordings)} recorded); the prompt or parameters differ from the recorded run",
                model=self.name,
            )
        return found.completion.to_completion(cached=True)


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


class RecordingModel:
    """Wraps any Model and appends every call it answers to a replay file (same `name`)."""

    def __init__(self, inner: Any, path: Path):
        self.inner = inner
        self.name: str = inner.name
        self.path = Path(path)

    def complete(
        self,
        messages: list[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int = 2048,
        stop: list[str] | None = None,
    ) -> Completion:
        completion = self.inner.complete(messages, temperature=temperature, max_tokens=max_tokens, stop=stop)
        payload = request_payload(messages, temperature=temperature, max_tokens=max_tokens, stop=stop)
        rec = Recording(
            hash=request_hash(payload),
            model=self.name,
            request=payload,
            completion=CompletionRecord.of(dataclasses.replace(completion, cached=False)),
        )
        _append_line(self.path, rec.model_dump_json())
        return completion


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
