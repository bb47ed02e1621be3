"""OpenAI-compatible backend against a local HTTP server speaking the chat-completions shape."""

from __future__ import annotations

import json
import threading
from collections import deque
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("httpx")

from migrator.agent.models import (  # noqa: E402
    CachedModel,
    ContextWindowExceeded,
    Message,
    ModelAccessDenied,
    ModelNotFound,
    ModelUnavailable,
    ModelValidationError,
    OpenAICompatModel,
    RetryPolicy,
    Timeouts,
    load_model,
)

PROMPT = [Message("system", "You translate Oracle PL/SQL."), Message("user", "Convert SYSDATE.")]


class ChatServer:
    """Serves queued (status, body, headers) replies and records every request it receives."""

    def __init__(self):
        self.replies: deque = deque()
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                status, reply, headers = (
                    server.replies.popleft() if server.replies else (599, {"error": "no reply queued"}, {})
                )
                data = json.dumps(reply).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in headers.items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):  # keep pytest output clean
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def reply(self, status: int, body: dict, headers: dict | None = None) -> None:
        self.replies.append((status, body, headers or {}))


def ok_body(text="CURRENT_TIMESTAMP", rid="chatcmpl-abc", finish="stop"):
    return {
        "id": rid,
        "object": "chat.completion",
        "created": 1700000000,
        "model": "qwen-coder",
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish, "logprobs": None}
        ],
        "usage": {"prompt_tokens": 21, "completion_tokens": 3, "total_tokens": 24},
        "system_fingerprint": None,
    }


@pytest.fixture
def server():
    srv = ChatServer()
    srv.thread.start()
    yield srv
    srv.httpd.shutdown()
    srv.httpd.server_close()
    srv.thread.join(timeout=5)


@pytest.fixture(autouse=True)
def no_key_env(monkeypatch):
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("MIGRATOR_OPENAI_API_KEY", raising=False)


def _model(base_url, sleeps=None, attempts=3):
    policy = RetryPolicy(
        max_attempts=attempts, base_delay_s=0.01, sleep=(sleeps.append if sleeps is not None else lambda s: None)
    )
    return OpenAICompatModel(base_url, "qwen-coder", timeouts=Timeouts(connect_s=2, read_s=5), retry=policy)


def test_success_with_token_counts(server):
    server.reply(200, ok_body())
    c = _model(server.base_url).complete(PROMPT, max_tokens=64, stop=[";"])
    assert (c.text, c.input_tokens, c.output_tokens) == ("CURRENT_TIMESTAMP", 21, 3)
    assert (c.stop_reason, c.raw_id, c.model, c.cached) == ("end_turn", "chatcmpl-abc", "qwen-coder", False)
    (req,) = server.requests
    assert req["path"] == "/v1/chat/completions"
    assert req["body"]["messages"][0] == {"role": "system", "content": "You translate Oracle PL/SQL."}
    assert (req["body"]["temperature"], req["body"]["max_tokens"], req["body"]["stop"]) == (0.0, 64, [";"])
    assert "Authorization" not in req["headers"]


def test_length_finish_reason_is_reported_as_truncation(server):
    server.reply(200, ok_body(finish="length"))
    assert _model(server.base_url).complete(PROMPT).truncated


def test_429_then_success_honours_retry_after(server):
    server.reply(429, {"error": {"message": "rate limited", "type": "rate_limit"}}, {"Retry-After": "0.2"})
    server.reply(200, ok_body(rid="second"))
    sleeps: list[float] = []
    c = _model(server.base_url, sleeps).complete(PROMPT)
    assert c.raw_id == "second" and len(server.requests) == 2
    assert sleeps == [pytest.approx(0.2)]


def test_500s_exhaust_retries_with_clear_error(server):
    for _ in range(3):
        server.reply(500, {"error": {"message": "CUDA out of memory"}})
    sleeps: list[float] = []
    with pytest.raises(ModelUnavailable, match=r"HTTP 500: CUDA out of memory.*gave up after 3 attempts"):
        _model(server.base_url, sleeps).complete(PROMPT)
    assert len(server.requests) == 3 and len(sleeps) == 2


def test_400_context_length_is_context_window_exceeded(server):
    msg = "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens."
    server.reply(400, {"object": "error", "message": msg, "type": "BadRequestError", "code": 400})
    with pytest.raises(ContextWindowExceeded, match="maximum context length"):
        _model(server.base_url).complete(PROMPT)
    assert len(server.requests) == 1


def test_other_400_is_validation_error(server):
    server.reply(
        422, {"error": "Input validation error: `temperature` must be strictly positive", "error_type": "validation"}
    )
    with pytest.raises(ModelValidationError, match="temperature") as info:
        _model(server.base_url).complete(PROMPT)
    assert not isinstance(info.value, ContextWindowExceeded)


def test_401_and_404_errors(server):
    server.reply(401, {"error": {"message": "invalid api key"}})
    with pytest.raises(ModelAccessDenied, match="OPENAI_API_KEY"):
        _model(server.base_url).complete(PROMPT)
    server.reply(404, {"error": {"message": "The model `qwen-coder` does not exist."}})
    with pytest.raises(ModelNotFound, match="does not exist"):
        _model(server.base_url).complete(PROMPT)


def test_api_key_header_sent_when_env_set(server, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-123")
    server.reply(200, ok_body())
    _model(server.base_url).complete(PROMPT)
    assert server.requests[0]["headers"]["Authorization"] == "Bearer sk-test-123"


def test_connection_refused_is_unavailable_after_retries():
    import socket

    with socket.socket() as s:  # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    sleeps: list[float] = []
    with pytest.raises(ModelUnavailable, match="cannot reach"):
        _model(f"http://127.0.0.1:{port}/v1", sleeps).complete(PROMPT)
    assert len(sleeps) == 2


def test_cache_hit_reports_first_call_tokens_without_a_request(server, tmp_path):
    server.reply(200, ok_body(text="first"))
    spec = f"openai:{server.base_url}#qwen-coder"
    first = load_model(spec, cache_dir=tmp_path).complete(PROMPT)
    # A fresh model object (as in a rerun) with the same cache dir: no request reaches the server.
    second = load_model(spec, cache_dir=tmp_path).complete(PROMPT)
    assert len(server.requests) == 1
    assert (first.cached, second.cached) == (False, True)
    assert (second.text, second.input_tokens, second.output_tokens, second.raw_id) == ("first", 21, 3, "chatcmpl-abc")
    assert second.latency_s == first.latency_s
    # Any change in the request is a different key, hence a real call.
    server.reply(200, ok_body(text="other"))
    assert CachedModel(_model(server.base_url), tmp_path).complete(PROMPT, max_tokens=10).text == "other"
    assert len(server.requests) == 2
