"""On-disk response cache that every backend goes through.

Key: sha256 of the model spec and the whole request (messages, temperature, max_tokens, stop).
A hit returns the stored Completion marked `cached=True` with the FIRST call's token counts and
latency — the seed papers' protocol, so a rerun reports what the experiment actually cost.

One JSON file per key (`<dir>/<k[:2]>/<k>.json`). Writes go to a temp file in the same
directory and are published atomically; when two processes race on the same key, the first
published file wins and is never overwritten, so "first call" stays well defined. The wrapper
itself is `stored.StoredModel`, shared with replay files.
"""

from __future__ import annotations

import logging
import os
import tempfile
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from migrator.agent.models.base import Completion, Model, ModelError
from migrator.agent.models.stored import CACHE_FORMAT, CompletionRecord, StoredModel, request_hash

log = logging.getLogger(__name__)


class CacheEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    format: int
    key: str
    model: str
    request: dict[str, Any]  # kept so a reviewer can see what was asked, not only the answer
    completion: CompletionRecord


class ResponseCache:
    """The cache directory of one model spec (a `stored.Store`)."""

    def __init__(self, cache_dir: Path, model: str):
        self.cache_dir = Path(cache_dir)
        self.model = model

    def path_for(self, key: str) -> Path:
        return self.cache_dir / key[:2] / f"{key}.json"

    def find(self, payload: dict[str, Any]) -> Completion | None:
        key = request_hash(payload, model=self.model)
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

    def keep(self, payload: dict[str, Any], completion: Completion) -> None:
        key = request_hash(payload, model=self.model)
        entry = CacheEntry(
            format=CACHE_FORMAT, key=key, model=self.model, request=payload, completion=CompletionRecord.of(completion)
        )
        path = self.path_for(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{key[:12]}.", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(entry.model_dump_json(indent=1).encode("utf-8"))
                f.flush()
                os.fsync(f.fileno())
            _publish(Path(tmp), path)
        finally:
            Path(tmp).unlink(missing_ok=True)

    def miss(self, payload: dict[str, Any]) -> ModelError:
        """A cache read with no model behind it (an offline look at a run's answers) has no answer."""
        key = request_hash(payload, model=self.model)
        return ModelError(f"request {key} is not in the response cache {self.cache_dir}", model=self.model)


class CachedModel(StoredModel):
    """Wraps any Model; same protocol, same `name`, so the cache is invisible to callers."""

    def __init__(self, inner: Model, cache_dir: Path):
        self.cache = ResponseCache(cache_dir, inner.name)
        super().__init__(inner, self.cache, inner.name)


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
