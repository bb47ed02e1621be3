"""One wrapper for answers kept on disk: the response cache, the replay file and its recorder.

A `StoredModel` asks its store first; on a miss it asks the model it wraps and hands the fresh
answer to the store. A replay wraps no model, so its miss is an error. The stores differ only in
where answers live and how a request is keyed:

* `cache.ResponseCache`: one JSON file per request; the key covers the model spec too.
* `replay.ReplayFile`: JSONL recordings keyed by the request alone (a replay must find calls
  recorded from any backend); read-only for `replay:<file>`, append-only for the recorder.

Every store keeps the same `CompletionRecord` and computes keys with `request_hash`.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict

from migrator.agent.models.base import Completion, Message, Model, ModelError

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
        """The record of a fresh answer (stored as not cached, whatever the answer said)."""
        return cls(**dataclasses.asdict(dataclasses.replace(completion, cached=False)))

    def to_completion(self, *, cached: bool) -> Completion:
        return Completion(**{**self.model_dump(), "cached": cached})


class Store(Protocol):
    def find(self, payload: dict[str, Any]) -> Completion | None:
        """The stored answer to this request (marked cached), or None."""

    def keep(self, payload: dict[str, Any], completion: Completion) -> None:
        """Store a fresh answer to this request."""

    def miss(self, payload: dict[str, Any]) -> ModelError:
        """The error for a request nobody can answer (a store that wraps no model)."""


class StoredModel:
    """A Model answered from `store` first, then by `inner` (whose answers the store keeps)."""

    def __init__(self, inner: Model | None, store: Store, name: str):
        self.inner = inner
        self.store = store
        self.name = name

    def complete(
        self,
        messages: list[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int = 2048,
        stop: list[str] | None = None,
    ) -> Completion:
        payload = request_payload(messages, temperature=temperature, max_tokens=max_tokens, stop=stop)
        hit = self.store.find(payload)
        if hit is not None:
            return hit
        if self.inner is None:
            raise self.store.miss(payload)
        completion = self.inner.complete(messages, temperature=temperature, max_tokens=max_tokens, stop=stop)
        self.store.keep(payload, completion)
        return completion
