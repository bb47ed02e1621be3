"""Record any model's calls to JSONL, then replay them reproducibly."""

from __future__ import annotations

import pytest

from migrator.agent.models import (
    Message,
    ModelError,
    RecordingModel,
    ReplayMiss,
    ReplayModel,
    ScriptedModel,
    ScriptRule,
    load_model,
)


def _prompt(text):
    return [Message("system", "translate"), Message("user", text)]


def test_record_then_replay_gives_same_completions(tmp_path):
    log = tmp_path / "calls.jsonl"
    inner = ScriptedModel([ScriptRule(when="NVL", answers=["COALESCE(a, 0)"])], default="?")
    recorder = RecordingModel(inner, log)
    originals = [recorder.complete(_prompt("NVL(a,0)")), recorder.complete(_prompt("DECODE"), max_tokens=50)]
    assert len(log.read_text().splitlines()) == 2

    replay = load_model(f"replay:{log}", cache_dir=None)
    again = [replay.complete(_prompt("NVL(a,0)")), replay.complete(_prompt("DECODE"), max_tokens=50)]
    for before, after in zip(originals, again):
        assert (after.text, after.input_tokens, after.output_tokens) == (
            before.text,
            before.input_tokens,
            before.output_tokens,
        )
        assert after.model == "scripted" and after.cached is True


def test_miss_names_the_hash(tmp_path):
    log = tmp_path / "calls.jsonl"
    RecordingModel(ScriptedModel(default="x"), log).complete(_prompt("a"))
    replay = ReplayModel(log)
    with pytest.raises(ReplayMiss, match=r"request hash [0-9a-f]{64}"):
        replay.complete(_prompt("a"), temperature=0.2)  # same text, other parameters


def test_first_recording_of_a_hash_wins(tmp_path):
    log = tmp_path / "calls.jsonl"
    recorder = RecordingModel(ScriptedModel([ScriptRule(when="q", answers=["one", "two"])]), log)
    recorder.complete(_prompt("q"))
    recorder.complete(_prompt("q"))
    assert ReplayModel(log).complete(_prompt("q")).text == "one"


def test_load_model_records_cache_hits_too(tmp_path):
    log = tmp_path / "calls.jsonl"
    model = load_model("scripted", cache_dir=tmp_path / "cache", record_to=log)
    model.complete(_prompt("a"))
    model.complete(_prompt("a"))
    assert len(log.read_text().splitlines()) == 2


def test_missing_or_broken_file_is_a_clear_error(tmp_path):
    with pytest.raises(ModelError, match="not found"):
        ReplayModel(tmp_path / "nope.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"hash": "x"}\n')
    with pytest.raises(ModelError, match=r"bad.jsonl:1"):
        ReplayModel(bad)
