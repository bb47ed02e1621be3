"""On-disk response cache that every backend goes through.

Key: sha256 of the model spec and the whole request (messages, temperature, max_tokens, stop).
A hit returns the stored Completion marked `cached=True` with the FIRST call's token counts and
latency — the seed papers' protocol, so a rerun reports what the experiment actually cost.

One JSON file per key (`<dir>/<k[:2]>/<k>.json`). Writes go to a temp file in the same
directory and are published atomically; when two processes race on the same key, the first
published file wins and is never overwritten, so "first call" stays well defined.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from migrator.agent.models.base import Completion, Message

log = logging.getLogger(__name__)
# Bump when the key payload or the file format changes, so old entries are simply missed.
CACHE_FORMAT = 1


def request_payload(
    messages: list[Message], *, temperature: float, max_tokens: int, stop: list[str] | None
) -> dict[str, Any]:
    """The request as plain JSON data: what a cache key or a replay hash is computed from."""
    return {
        "messages": [{"role": m.role, "content": m.content} for m in messages],
        "temperature": float(temperature),
        "max_tokens": int(max_tokens),
        "stop": list(stop) if stop else None,
    }


def request_hash(payload: dict[str, Any], *, model: str | None = None) -> str:
    """sha256 over canonical JSON (sorted keys, no whitespace) so equal requests hash equal."""
    data = {"format": CACHE_FORMAT, "model": model, "request": payload}
    canonical = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(canonical.encode("utf-8")).hexdigest()


class CompletionRecord(BaseModel):
    """A Completion as stored in cache files and replay recordings."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    text: str
    input_tokens: int
    output_tokens: int
    latency_s: float
    stop_reason: str
    raw_id: str
    model: str
    cached: bool = False

    @classmethod
    def of(cls, completion: Completion) -> CompletionRecord:
        return cls(**dataclasses.asdict(completion))

    def to_completion(self, *, cached: bool) -> Completion:
        return Completion(**{**self.model_dump(), "cached": cached})


class CacheEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    format: int
    key: str
    model: str
    request: dict[str, Any]  # kept so a reviewer can see what was asked, not only the answer
    completion: CompletionRecord


class CachedModel:
    """Wraps any Model; same protocol, same `name`, so the cache is invisible to callers."""

    def __init__(self, inner: Any, cache_dir: Path):
        self.inner = inner
        self.name: str = inner.name
        self.cache_dir = Path(cache_dir)

    def complete(
        self,
        messages: list[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int = 2048,
        stop: list[str] | None = None,
    ) -> Completion:
        payload = request_payload(messages, temperature=temperature, max_tokens=max_tokens, stop=stop)
        key = request_hash(payload, model=self.name)
        hit = self.lookup(key)
        if hit is not None:
            return hit
        completion = self.inner.complete(messages, temperature=temperature, max_tokens=max_tokens, stop=stop)
        entry = CacheEntry(
            format=CACHE_FORMAT,
            key=key,
            model=self.name,
            request=payload,
            completion=CompletionRecord.of(dataclasses.replace(completion, cached=False)),
        )
        self._store(entry)
        return completion

    def path_for(self, key: str) -> Path:
        return self.cache_dir / key[:2] / f"{key}.json"

    def lookup(self, key: str) -> Completion | None:
        path = self.path_for(key)
        try:
            entry = CacheEntry.model_validate_json(path.read_bytes())
        except FileNotFoundError:
            return None
        except (OSError, ValidationError, ValueError) as err:
            # A file we cannot read is a miss, and it will be replaced by a fresh answer.
            log.warning("unreadable cache entry %s (%s); treating as a miss", path, err)
            return None
        if entry.key != key:
            log.warning("cache entry %s holds key %s; treating as a miss", path, entry.key)
            return None
        return entry.completion.to_completion(cached=True)

    def _store(self, entry: CacheEntry) -> None:
        path = self.path_for(entry.key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{entry.key[:12]}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(entry.model_dump_json(indent=1).encode("utf-8"))
                f.flush()
                os.fsync(f.fileno())
            _publish(Path(tmp), path)
        finally:
            Path(tmp).unlink(missing_ok=True)


def _publish(tmp: Path, path: Path) -> None:
    """Atomically make `tmp` visible at `path`, keeping an existing valid entry (first call wins).

    os.link fails if `path` exists, which gives no-clobber publication; filesystems without hard
    links fall back to os.replace (still atomic, last writer wins). A corrupt existing file is
    replaced, since keeping it would make the key a permanent miss.
    """
    try:
        os.link(tmp, path)
    except FileExistsError:
        if _is_valid_entry(path):
            return
        os.replace(tmp, path)
    except OSError:
        os.replace(tmp, path)


def _is_valid_entry(path: Path) -> bool:
    try:
        CacheEntry.model_validate_json(path.read_bytes())
    except (OSError, ValidationError, ValueError):
        return False
    return True
