"""Model spec strings → backends, and the errors for malformed specs."""

from __future__ import annotations

import pytest

from migrator.agent.models import CachedModel, Model, ModelSpecError, OpenAICompatModel, ScriptedModel, load_model


def test_specs_pick_backends(tmp_path):
    m = load_model("openai:http://gpu-host:8000/v1/#Qwen/Qwen2.5-Coder-32B", cache_dir=None)
    assert isinstance(m, OpenAICompatModel)
    assert (m.base_url, m.model) == ("http://gpu-host:8000/v1", "Qwen/Qwen2.5-Coder-32B")
    cached = load_model("scripted", cache_dir=tmp_path)
    assert isinstance(cached, CachedModel) and isinstance(cached.inner, ScriptedModel)
    assert cached.name == "scripted" and isinstance(cached, Model)


@pytest.mark.parametrize(
    "spec, message",
    [
        ("gpt4", "expected one of"),
        ("openai:http://h:8000/v1", "#<model>"),
        ("openai:gpu-host:8000#m", "http"),
        ("bedrock:", "expected one of"),
        ("bedrock:m?regoin=us-east-1", "unknown option"),
        ("vertex:m", "unknown backend"),
    ],
)
def test_bad_specs(spec, message):
    with pytest.raises(ModelSpecError, match=message):
        load_model(spec, cache_dir=None)
