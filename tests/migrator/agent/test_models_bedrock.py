"""Bedrock backend on a real boto3 bedrock-runtime client with botocore's Stubber (no network)."""

from __future__ import annotations

import pytest

boto3 = pytest.importorskip("boto3")
from botocore.stub import Stubber  # noqa: E402

from migrator.agent.models import (  # noqa: E402
    BedrockModel,
    ContextWindowExceeded,
    Message,
    ModelAccessDenied,
    ModelError,
    ModelNotFound,
    ModelThrottled,
    ModelValidationError,
    RetryPolicy,
    load_model,
)

MODEL_ID = "anthropic.claude-3-5-sonnet-20240620-v1:0"
PROMPT = [Message("system", "You translate Oracle PL/SQL."), Message("user", "Convert NVL(a, 0).")]


@pytest.fixture(autouse=True)
def fake_aws_env(monkeypatch, tmp_path):
    # Static fake credentials and an empty config: the standard chain resolves without touching
    # ~/.aws or an instance-metadata endpoint.
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIAFAKEFAKEFAKEFAKE")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "fake-secret")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    monkeypatch.delenv("AWS_PROFILE", raising=False)


@pytest.fixture
def stubbed():
    client = boto3.client("bedrock-runtime", region_name="us-east-1")
    with Stubber(client) as stubber:
        yield client, stubber
        stubber.assert_no_pending_responses()


def _model(client, sleeps=None, attempts=4):
    policy = RetryPolicy(
        max_attempts=attempts, base_delay_s=0.5, sleep=(sleeps.append if sleeps is not None else lambda s: None)
    )
    return BedrockModel(MODEL_ID, client=client, retry=policy)


def _ok(text="COALESCE(a, 0)", request_id="req-123"):
    return {
        "output": {"message": {"role": "assistant", "content": [{"text": text}]}},
        "stopReason": "end_turn",
        "usage": {"inputTokens": 17, "outputTokens": 5, "totalTokens": 22},
        "metrics": {"latencyMs": 120},
        "ResponseMetadata": {"RequestId": request_id, "HTTPStatusCode": 200},
    }


EXPECTED = {
    "modelId": MODEL_ID,
    "messages": [{"role": "user", "content": [{"text": "Convert NVL(a, 0)."}]}],
    "system": [{"text": "You translate Oracle PL/SQL."}],
    "inferenceConfig": {"temperature": 0.0, "maxTokens": 256, "stopSequences": ["```\n"]},
}


def test_success_maps_text_tokens_stop_reason_and_request_id(stubbed):
    client, stubber = stubbed
    stubber.add_response("converse", _ok(), EXPECTED)
    c = _model(client).complete(PROMPT, max_tokens=256, stop=["```\n"])
    assert (c.text, c.input_tokens, c.output_tokens) == ("COALESCE(a, 0)", 17, 5)
    assert (c.stop_reason, c.raw_id, c.model, c.cached) == ("end_turn", "req-123", MODEL_ID, False)
    assert c.latency_s >= 0


def test_consecutive_same_role_messages_are_merged(stubbed):
    client, stubber = stubbed
    expected = {
        "modelId": MODEL_ID,
        "messages": [{"role": "user", "content": [{"text": "a"}, {"text": "b"}]}],
        "inferenceConfig": {"temperature": 0.0, "maxTokens": 2048},
    }
    stubber.add_response("converse", _ok(), expected)
    _model(client).complete([Message("user", "a"), Message("user", "b")])


def test_throttling_then_success_retries_with_backoff(stubbed):
    client, stubber = stubbed
    stubber.add_client_error("converse", "ThrottlingException", "Too many requests", 429)
    stubber.add_client_error("converse", "ServiceUnavailableException", "busy", 503)
    stubber.add_response("converse", _ok(request_id="req-3"))
    sleeps: list[float] = []
    c = _model(client, sleeps).complete(PROMPT)
    assert c.raw_id == "req-3"
    assert len(sleeps) == 2  # two failures → two waits → third call succeeded
    assert 0.25 <= sleeps[0] <= 0.5 and 0.5 <= sleeps[1] <= 1.0  # equal-jitter exponential steps


def test_throttling_exhausts_bounded_attempts(stubbed):
    client, stubber = stubbed
    for _ in range(3):
        stubber.add_client_error("converse", "ThrottlingException", "Rate exceeded", 429)
    sleeps: list[float] = []
    with pytest.raises(ModelThrottled, match=r"Rate exceeded.*gave up after 3 attempts"):
        _model(client, sleeps, attempts=3).complete(PROMPT)
    assert len(sleeps) == 2


def test_validation_error(stubbed):
    client, stubber = stubbed
    stubber.add_client_error("converse", "ValidationException", "temperature: must be <= 1", 400)
    with pytest.raises(ModelValidationError, match="temperature") as info:
        _model(client).complete(PROMPT)
    assert not isinstance(info.value, ContextWindowExceeded)


def test_context_window_validation_message(stubbed):
    client, stubber = stubbed
    stubber.add_client_error("converse", "ValidationException", "Input is too long for requested model.", 400)
    sleeps: list[float] = []
    with pytest.raises(ContextWindowExceeded, match="too long"):
        _model(client, sleeps).complete(PROMPT)
    assert sleeps == []  # not retried


def test_access_denied_has_console_hint(stubbed):
    client, stubber = stubbed
    stubber.add_client_error(
        "converse", "AccessDeniedException", "You don't have access to the model with the specified model ID.", 403
    )
    with pytest.raises(ModelAccessDenied, match="Model access"):
        _model(client).complete(PROMPT)


def test_resource_not_found(stubbed):
    client, stubber = stubbed
    stubber.add_client_error("converse", "ResourceNotFoundException", "Model not found", 404)
    with pytest.raises(ModelNotFound, match="model id"):
        _model(client).complete(PROMPT)


def test_region_from_spec_query_then_env(monkeypatch):
    monkeypatch.setenv("AWS_REGION", "eu-central-1")
    assert load_model(f"bedrock:{MODEL_ID}", cache_dir=None).client.meta.region_name == "eu-central-1"
    m = load_model(f"bedrock:{MODEL_ID}?region=us-west-2", cache_dir=None)
    assert m.model_id == MODEL_ID and m.client.meta.region_name == "us-west-2"


def test_missing_region_is_a_clear_error(monkeypatch):
    monkeypatch.delenv("AWS_REGION", raising=False)
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    with pytest.raises(ModelError, match="AWS_REGION"):
        _ = load_model(f"bedrock:{MODEL_ID}", cache_dir=None).client
