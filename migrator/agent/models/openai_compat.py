"""Any OpenAI-compatible chat-completions server (vLLM, TGI, SGLang, Ollama, the OpenAI API).

`openai:<base_url>#<model>` posts to `<base_url>/chat/completions`, with base_url like
`http://gpu-host:8000/v1`. The API key is optional (self-hosted servers often run without one):
MIGRATOR_OPENAI_API_KEY first, since it names this tool, then OPENAI_API_KEY.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass
from typing import Any

from pydantic import BaseModel, ConfigDict, ValidationError

from migrator.agent.models.base import (
    Completion,
    ContextWindowExceeded,
    Message,
    ModelAccessDenied,
    ModelError,
    ModelNotFound,
    ModelThrottled,
    ModelUnavailable,
    ModelValidationError,
    looks_like_context_overflow,
    missing_extra,
)
from migrator.agent.models.retry import RetryPolicy, call_with_retry

API_KEY_ENV = ("MIGRATOR_OPENAI_API_KEY", "OPENAI_API_KEY")
# finish_reason → the Converse vocabulary Completion uses, so the loop checks one word for truncation.
_STOP_REASONS = {
    "stop": "end_turn",
    "eos": "end_turn",
    "length": "max_tokens",
    "content_filter": "content_filtered",
    "tool_calls": "tool_use",
}


@dataclass(frozen=True)
class Timeouts:
    connect_s: float = 10.0
    read_s: float = 300.0  # a long generation on a busy GPU is slow but not dead


# Server responses: extra fields ignored on purpose, since every server adds its own.
class _Msg(BaseModel):
    model_config = ConfigDict(extra="ignore")
    content: str | None = None


class _Choice(BaseModel):
    model_config = ConfigDict(extra="ignore")
    message: _Msg
    finish_reason: str | None = None


class _Usage(BaseModel):
    model_config = ConfigDict(extra="ignore")
    prompt_tokens: int
    completion_tokens: int


class _ChatResponse(BaseModel):
    model_config = ConfigDict(extra="ignore")
    id: str = ""
    model: str = ""
    choices: list[_Choice]
    usage: _Usage


class OpenAICompatModel:
    def __init__(
        self,
        base_url: str,
        model: str,
        *,
        name: str | None = None,
        api_key: str | None = None,
        timeouts: Timeouts = Timeouts(),
        retry: RetryPolicy | None = None,
    ):
        if not base_url.startswith(("http://", "https://")):
            raise ValueError(f"base_url must be an http(s) URL, got {base_url!r}")
        if not model:
            raise ValueError("model name is empty (expected openai:<base_url>#<model>)")
        self.base_url = base_url.rstrip("/")
        self.model = model
        self.name = name or f"openai:{self.base_url}#{model}"
        self.api_key = api_key if api_key is not None else _api_key_from_env()
        self.timeouts = timeouts
        self.retry = retry or RetryPolicy()
        self._client: Any = None

    @property
    def client(self) -> Any:
        if self._client is None:
            httpx = _httpx(self.name)
            timeout = httpx.Timeout(self.timeouts.read_s, connect=self.timeouts.connect_s)
            headers = {"Authorization": f"Bearer {self.api_key}"} if self.api_key else {}
            self._client = httpx.Client(timeout=timeout, headers=headers)
        return self._client

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
            self._client = None

    def complete(
        self,
        messages: list[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int = 2048,
        stop: list[str] | None = None,
    ) -> Completion:
        body: dict[str, Any] = {
            "model": self.model,
            "messages": [{"role": m.role, "content": m.content} for m in messages],
            "temperature": temperature,
            "max_tokens": max_tokens,
            "stream": False,
        }
        if stop:
            body["stop"] = list(stop)
        started = time.perf_counter()
        data = call_with_retry(lambda: self._post_once(body), self.retry, what=self.name)
        return self._completion(data, time.perf_counter() - started)

    def _post_once(self, body: dict[str, Any]) -> bytes:
        httpx = _httpx(self.name)
        url = f"{self.base_url}/chat/completions"
        try:
            response = self.client.post(url, json=body)
        except httpx.TimeoutException as err:
            raise ModelUnavailable(f"timed out talking to {url}: {type(err).__name__}", model=self.name) from err
        except httpx.TransportError as err:
            raise ModelUnavailable(f"cannot reach {url}: {type(err).__name__}: {err}", model=self.name) from err
        if response.status_code >= 400:
            raise _map_http_error(response.status_code, response.text, response.headers, self.name)
        return response.content

    def _completion(self, data: bytes, latency_s: float) -> Completion:
        try:
            parsed = _ChatResponse.model_validate_json(data)
        except ValidationError as err:
            raise ModelError(f"not a chat-completions response (with usage): {err}", model=self.name) from err
        if not parsed.choices:
            raise ModelError("response has no choices", model=self.name)
        choice = parsed.choices[0]
        reason = choice.finish_reason or ""
        return Completion(
            text=choice.message.content or "",
            input_tokens=parsed.usage.prompt_tokens,
            output_tokens=parsed.usage.completion_tokens,
            latency_s=latency_s,
            stop_reason=_STOP_REASONS.get(reason, reason),
            raw_id=parsed.id,
            model=parsed.model or self.model,
        )


def _httpx(name: str):
    try:
        import httpx
    except ImportError:
        raise missing_extra("httpx", "openai", name) from None
    return httpx


def _api_key_from_env() -> str | None:
    for var in API_KEY_ENV:
        if os.environ.get(var):
            return os.environ[var]
    return None


def _map_http_error(status: int, body: str, headers: Any, name: str) -> ModelError:
    message = _error_message(body)
    text = f"HTTP {status}: {message}"
    if status == 429:
        return ModelThrottled(text, model=name, retry_after_s=_retry_after(headers))
    if status >= 500:
        return ModelUnavailable(text, model=name, retry_after_s=_retry_after(headers))
    if status in (401, 403):
        hint = "set MIGRATOR_OPENAI_API_KEY or OPENAI_API_KEY to the server's key"
        return ModelAccessDenied(f"{text} — {hint}", model=name)
    if status == 404:
        hint = (
            "check that base_url ends in the API root (often /v1) and that the server serves "
            "this model name (GET <base_url>/models lists them)"
        )
        return ModelNotFound(f"{text} — {hint}", model=name)
    if looks_like_context_overflow(message):
        return ContextWindowExceeded(text, model=name)
    return ModelValidationError(text, model=name)


def _error_message(body: str) -> str:
    """Servers disagree on the error shape: {"error": {"message"}}, {"error": "..."}, {"message"}, {"detail"}."""
    try:
        data = json.loads(body)
    except ValueError:
        return body.strip()[:500]
    if isinstance(data, dict):
        error = data.get("error")
        if isinstance(error, dict) and error.get("message"):
            return str(error["message"])
        for value in (error, data.get("message"), data.get("detail")):
            if value:
                return str(value)
    return body.strip()[:500]


def _retry_after(headers: Any) -> float | None:
    value = headers.get("retry-after")
    try:
        return float(value) if value is not None else None
    except ValueError:  # an HTTP date; rare from model servers, and backoff covers it
        return None
