"""Amazon Bedrock through the boto3 `bedrock-runtime` Converse API.

Credentials and region come from the standard AWS chain (env, shared profile, SSO, instance or
task role) — nothing is hard-coded. Region precedence: the spec's `?region=`, then AWS_REGION,
then whatever boto3 resolves (AWS_DEFAULT_REGION, the profile's config).

botocore's own retries are switched off so the only retry loop is ours: bounded, with jitter,
and visible to tests through the injectable sleep.
"""

from __future__ import annotations

import os
import time
from typing import Any

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

_THROTTLED = {"ThrottlingException", "TooManyRequestsException"}
_UNAVAILABLE = {
    "ServiceUnavailableException",
    "ModelNotReadyException",
    "InternalServerException",
    "ModelTimeoutException",
}
_ACCESS_HINT = (
    "check that your AWS credentials are valid and that this model is enabled for the account "
    "in the Bedrock console (Model access) in this region, and that IAM allows bedrock:InvokeModel"
)


class BedrockModel:
    def __init__(
        self,
        model_id: str,
        *,
        name: str | None = None,
        region: str | None = None,
        profile: str | None = None,
        client: Any = None,
        retry: RetryPolicy | None = None,
        read_timeout_s: float = 300.0,
    ):
        if not model_id:
            raise ValueError("bedrock model id is empty (expected bedrock:<modelId>)")
        self.model_id = model_id
        self.name = name or f"bedrock:{model_id}"
        self.region = region or os.environ.get("AWS_REGION") or None
        self.profile = profile
        self.retry = retry or RetryPolicy()
        self.read_timeout_s = read_timeout_s
        self._client = client

    @property
    def client(self) -> Any:
        """Created on first use, so loading a spec needs neither boto3 nor credentials."""
        if self._client is None:
            self._client = _make_client(self.region, self.profile, self.read_timeout_s, self.name)
        return self._client

    def complete(
        self,
        messages: list[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int = 2048,
        stop: list[str] | None = None,
    ) -> Completion:
        request = self.converse_request(messages, temperature=temperature, max_tokens=max_tokens, stop=stop)
        started = time.perf_counter()
        response = call_with_retry(lambda: self._converse_once(request), self.retry, what=self.name)
        return self._completion(response, time.perf_counter() - started)

    def converse_request(
        self, messages: list[Message], *, temperature: float, max_tokens: int, stop: list[str] | None
    ) -> dict[str, Any]:
        system, turns = _split_messages(messages, self.name)
        config: dict[str, Any] = {"temperature": temperature, "maxTokens": max_tokens}
        if stop:
            config["stopSequences"] = list(stop)
        request: dict[str, Any] = {"modelId": self.model_id, "messages": turns, "inferenceConfig": config}
        if system:
            request["system"] = system
        return request

    def _converse_once(self, request: dict[str, Any]) -> dict[str, Any]:
        try:
            from botocore.exceptions import BotoCoreError, ClientError, NoCredentialsError
        except ImportError:
            raise missing_extra("boto3", "bedrock", self.name) from None
        try:
            return self.client.converse(**request)
        except ClientError as err:
            raise _map_client_error(err, self.name) from err
        except NoCredentialsError as err:
            raise ModelAccessDenied(f"no AWS credentials found; {_ACCESS_HINT}", model=self.name) from err
        except BotoCoreError as err:  # connection errors, read timeouts
            raise ModelUnavailable(f"{type(err).__name__}: {err}", model=self.name) from err

    def _completion(self, response: dict[str, Any], latency_s: float) -> Completion:
        content = response.get("output", {}).get("message", {}).get("content", [])
        usage = response.get("usage") or {}
        if "inputTokens" not in usage or "outputTokens" not in usage:
            raise ModelError("Converse response has no token usage", model=self.name)
        return Completion(
            text="".join(block["text"] for block in content if "text" in block),
            input_tokens=int(usage["inputTokens"]),
            output_tokens=int(usage["outputTokens"]),
            latency_s=latency_s,
            stop_reason=str(response.get("stopReason", "")),
            raw_id=str(response.get("ResponseMetadata", {}).get("RequestId", "")),
            model=self.model_id,
        )


def _make_client(region: str | None, profile: str | None, read_timeout_s: float, name: str) -> Any:
    try:
        import boto3
        from botocore.config import Config
        from botocore.exceptions import BotoCoreError
    except ImportError:
        raise missing_extra("boto3", "bedrock", name) from None

    session = boto3.Session(profile_name=profile, region_name=region)
    if not session.region_name:
        raise ModelError("no AWS region: set AWS_REGION or use bedrock:<modelId>?region=<region>", model=name)
    config = Config(
        retries={"total_max_attempts": 1, "mode": "standard"}, connect_timeout=10, read_timeout=read_timeout_s
    )
    try:
        return session.client("bedrock-runtime", config=config)
    except BotoCoreError as err:  # e.g. a named profile that does not exist
        raise ModelError(f"cannot create bedrock-runtime client: {err}", model=name) from err


def _split_messages(messages: list[Message], name: str) -> tuple[list[dict], list[dict]]:
    """System messages go to `system`; consecutive same-role turns are merged into one turn,
    because Converse requires strictly alternating user/assistant messages."""
    system = [{"text": m.content} for m in messages if m.role == "system"]
    turns: list[dict[str, Any]] = []
    for m in messages:
        if m.role == "system":
            continue
        if turns and turns[-1]["role"] == m.role:
            turns[-1]["content"].append({"text": m.content})
        else:
            turns.append({"role": m.role, "content": [{"text": m.content}]})
    if not turns or turns[0]["role"] != "user":
        raise ModelValidationError("Converse needs the first non-system message to be from the user", model=name)
    return system, turns


def _map_client_error(err: Any, name: str) -> ModelError:
    error = err.response.get("Error", {})
    code, message = error.get("Code", ""), error.get("Message", "")
    text = f"{code}: {message}"
    if code in _THROTTLED:
        return ModelThrottled(text, model=name)
    if code in _UNAVAILABLE:
        return ModelUnavailable(text, model=name)
    if code in {"AccessDeniedException", "UnrecognizedClientException"}:
        return ModelAccessDenied(f"{text} — {_ACCESS_HINT}", model=name)
    if code == "ResourceNotFoundException":
        return ModelNotFound(
            f"{text} — check the model id and that it is offered in this region "
            "(some models need an inference profile id such as us.<modelId>)",
            model=name,
        )
    if code == "ValidationException":
        cls = ContextWindowExceeded if looks_like_context_overflow(message) else ModelValidationError
        return cls(text, model=name)
    return ModelError(text, model=name)
