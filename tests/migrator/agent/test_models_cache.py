"""The on-disk response cache: keys, first-call tokens, atomic files, concurrent writers."""

from __future__ import annotations

import json
from concurrent.futures import ProcessPoolExecutor

import pytest

from migrator.agent.models import (
    CachedModel,
    Message,
    ModelError,
    ScriptedModel,
    ScriptRule,
    StoredModel,
    request_hash,
    request_payload,
)
from migrator.agent.models.cache import ResponseCache

PROMPT = [Message("user", "convert ROWNUM")]


def _scripted():
    return ScriptedModel([ScriptRule(when="ROWNUM", answers=["LIMIT 1", "LIMIT 2"])])


def test_hit_returns_first_answer_and_tokens(tmp_path):
    inner = _scripted()
    model = CachedModel(inner, tmp_path)
    first = model.complete(PROMPT)
    second = model.complete(PROMPT)
    assert len(inner.calls) == 1  # the backend was called once
    assert (first.text, second.text) == ("LIMIT 1", "LIMIT 1")
    assert (second.cached, second.input_tokens, second.output_tokens) == (True, 2, 2)
    assert model.name == inner.name == "scripted"


def test_key_covers_spec_messages_and_parameters():
    payload = request_payload(PROMPT, temperature=0.0, max_tokens=100, stop=None)
    base = request_hash(payload, model="a")
    assert base == request_hash(request_payload(PROMPT, temperature=0, max_tokens=100, stop=[]), model="a")
    assert base != request_hash(payload, model="b")
    for change in ({"temperature": 0.5}, {"max_tokens": 101}, {"stop": [";"]}):
        args = {"temperature": 0.0, "max_tokens": 100, "stop": None, **change}
        assert request_hash(request_payload(PROMPT, **args), model="a") != base
    other = request_payload([Message("system", "convert ROWNUM")], temperature=0.0, max_tokens=100, stop=None)
    assert request_hash(other, model="a") != base


def test_one_json_file_per_key_and_no_temp_files_left(tmp_path):
    model = CachedModel(_scripted(), tmp_path)
    model.complete(PROMPT)
    model.complete(PROMPT, temperature=0.7)
    files = sorted(p for p in tmp_path.rglob("*") if p.is_file())
    assert len(files) == 2 and all(p.suffix == ".json" for p in files)
    entry = json.loads(files[0].read_text())
    assert entry["model"] == "scripted" and entry["completion"]["cached"] is False
    assert files[0].stem == entry["key"]


def test_corrupt_entry_is_a_miss_and_gets_replaced(tmp_path):
    inner = _scripted()
    model = CachedModel(inner, tmp_path)
    model.complete(PROMPT)
    (path,) = [p for p in tmp_path.rglob("*.json")]
    path.write_text("{truncated")
    assert model.complete(PROMPT).text == "LIMIT 2"  # a real call (the rule's next answer)
    assert model.complete(PROMPT).text == "LIMIT 2" and len(inner.calls) == 2


def _race(cache_dir: str, answer: str) -> str:
    model = CachedModel(ScriptedModel(default=answer), cache_dir)
    model.complete(PROMPT)
    return model.complete(PROMPT).text


def test_concurrent_processes_agree_on_the_first_published_answer(tmp_path):
    with ProcessPoolExecutor(max_workers=4) as pool:
        results = list(pool.map(_race, [str(tmp_path)] * 8, [f"answer-{i}" for i in range(8)]))
    assert len(set(results)) == 1  # whoever published first, everyone reads the same entry
    assert len(list(tmp_path.rglob("*.json"))) == 1
    assert not [p for p in tmp_path.rglob("*") if p.is_file() and p.suffix != ".json"]


def test_a_cache_read_without_a_model_answers_hits_and_names_a_miss(tmp_path):
    CachedModel(_scripted(), tmp_path).complete(PROMPT)
    offline = StoredModel(None, ResponseCache(tmp_path, "scripted"), "scripted")
    assert offline.complete(PROMPT).text == "LIMIT 1" and offline.complete(PROMPT).cached
    with pytest.raises(ModelError, match=r"request [0-9a-f]{64} is not in the response cache"):
        offline.complete(PROMPT, max_tokens=7)
