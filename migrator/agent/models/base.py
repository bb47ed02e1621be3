"""The one model protocol, its value types and its errors.

Every backend (Bedrock, OpenAI-compatible servers, replay, scripted) speaks this protocol so the
agent loop never knows which one it talks to. Errors form one hierarchy so the loop can decide
per class: a context overflow means "shrink the prompt", access denied means "stop the run".
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from migrator.errors import MigratorError

ROLES = frozenset({"system", "user", "assistant"})


@dataclass(frozen=True)
class Message:
    role: str  # "system" | "user" | "assistant"
    content: str

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"message role must be one of {sorted(ROLES)}, got {self.role!r}")
        if not isinstance(self.content, str):
            raise TypeError(f"message content must be str, got {type(self.content).__name__}")


@dataclass(frozen=True)
class Completion:
    text: str
    input_tokens: int
    output_tokens: int
    latency_s: float  # wall time of the call that produced it, retries included
    stop_reason: str  # normalized: "end_turn" | "max_tokens" | "stop_sequence" | backend's own word
    raw_id: str  # the backend's request/response id, for tracing a call in its logs
    model: str  # the model that answered (as the backend reports it)
    cached: bool = False  # True when served from the cache or a recording, not a fresh call

    @property
    def truncated(self) -> bool:
        return self.stop_reason == "max_tokens"


@runtime_checkable
class Model(Protocol):
    """What the agent loop calls. `name` is the spec string the model was loaded from."""

    name: str

    def complete(
        self,
        messages: list[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int = 2048,
        stop: list[str] | None = None,
    ) -> Completion: ...


class ModelError(Exception):
    """Any failure to get a completion. `retryable` says whether trying again later may help."""

    retryable = False

    def __init__(self, message: str, *, model: str = "", retry_after_s: float | None = None):
        super().__init__(f"{model}: {message}" if model else message)
        self.model = model
        self.retry_after_s = retry_after_s  # server's Retry-After hint, when it gave one
        self.attempts = 1  # set by the retry loop when it gives up

    def __str__(self) -> str:
        text = super().__str__()
        return f"{text} (gave up after {self.attempts} attempts)" if self.attempts > 1 else text


class ModelSetupError(ModelError):
    """The backend cannot run on this install or configuration (a package of an extra missing, no
    region); retrying, or asking again for another unit, cannot help."""


def missing_extra(package: str, backend: str, model: str) -> ModelSetupError:
    return ModelSetupError(
        f"the {backend} backend needs {package}, which is not installed: "
        "install the llm extra with pip install '.[llm]'",
        model=model,
    )


class ModelSpecError(MigratorError):
    """A model spec that names no model (unknown backend, malformed options): bad usage, found
    before any call is made."""


class ModelAccessDenied(ModelError):
    """Credentials missing or rejected, or the account has no access to this model."""


class ModelValidationError(ModelError):
    """The backend refused the request itself (bad parameters, malformed messages)."""


class ContextWindowExceeded(ModelValidationError):
    """The prompt (plus max_tokens) does not fit the model's context window: shrink and retry."""


class ModelNotFound(ModelError):
    """No such model (or endpoint) at this backend."""


class ModelUnavailable(ModelError):
    """Transient server-side failure (5xx, not ready, connection refused, timeout)."""

    retryable = True


class ModelThrottled(ModelUnavailable):
    """Rate limited (HTTP 429, ThrottlingException)."""


# Messages servers use when the prompt does not fit, collected from Bedrock (Anthropic, Llama,
# Mistral, Titan), vLLM, TGI, SGLang and the OpenAI API. Deliberately about the *input*: "max
# tokens exceeds the model limit" is a plain validation error, since shrinking the prompt will
# not fix it.
_CONTEXT_OVERFLOW = re.compile(
    r"(input|prompt|message|request)s? (is )?too long|maximum context|context[ _-]?(window|length)"
    r"|too many (input |prompt )?tokens|(inputs?|prompt)\W{0,2} ?tokens?\b.{0,60}(exceed|must be (<=|less))"
    r"|(input|prompt).{0,40}(exceeds|too large)",
    re.IGNORECASE,
)


def looks_like_context_overflow(message: str) -> bool:
    return bool(_CONTEXT_OVERFLOW.search(message or ""))
