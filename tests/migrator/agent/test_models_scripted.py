"""The deterministic scripted model: rules, ordered answers, limits, YAML."""

from __future__ import annotations

import pytest

from migrator.agent.models import Message, ModelError, ScriptedModel, ScriptRule, load_model


def _ask(model, text, **kw):
    return model.complete([Message("system", "ignored by rules"), Message("user", text)], **kw)


def test_first_matching_rule_answers_in_order_then_repeats_last():
    model = ScriptedModel(
        rules=[
            ScriptRule(when="NO_DATA_FOUND", answers=["wrong", "right"]),
            ScriptRule(when="NO_DATA", answers=["never"]),
        ],
        default="fallback",
    )
    texts = [_ask(model, "fix NO_DATA_FOUND handler").text for _ in range(3)]
    assert texts == ["wrong", "right", "right"]
    assert _ask(model, "something else").text == "fallback"
    assert len(model.calls) == 4 and model.calls[0][1].content == "fix NO_DATA_FOUND handler"


def test_matches_only_the_last_user_message_and_supports_regex():
    model = ScriptedModel([ScriptRule(when=r"CONNECT\s+BY", answers="WITH RECURSIVE", regex=True)], default="d")
    msgs = [Message("user", "CONNECT BY earlier"), Message("assistant", "ok"), Message("user", "now plain")]
    assert model.complete(msgs).text == "d"
    assert _ask(model, "CONNECT\n  BY prior").text == "WITH RECURSIVE"


def test_deterministic_tokens_and_ids():
    runs = [_ask(ScriptedModel(default="SELECT 1 ;"), "a b  c") for _ in range(2)]
    assert runs[0] == runs[1]
    assert (runs[0].input_tokens, runs[0].output_tokens, runs[0].raw_id) == (3 + 3, 3, "scripted-1")


def test_stop_sequences_and_max_tokens_behave_like_a_server():
    model = ScriptedModel(default="one two three\n```\nafter")
    c = _ask(model, "x", stop=["```"])
    assert (c.text, c.stop_reason) == ("one two three\n", "stop_sequence")
    c = _ask(model, "x", max_tokens=2)
    assert (c.text, c.stop_reason, c.output_tokens, c.truncated) == ("one two", "max_tokens", 2, True)


def test_yaml_script(tmp_path):
    path = tmp_path / "script.yaml"
    path.write_text(
        "default: nothing\n"
        "rules:\n"
        "  - when: ROWNUM\n    answers: [LIMIT 1, LIMIT 2]\n"
        "  - regex: 'SYSDATE\\b'\n    answer: CURRENT_TIMESTAMP\n"
    )
    model = load_model(f"scripted:{path}", cache_dir=None)
    assert model.name == f"scripted:{path}"
    assert [_ask(model, q).text for q in ("ROWNUM", "ROWNUM", "SYSDATE", "x")] == [
        "LIMIT 1",
        "LIMIT 2",
        "CURRENT_TIMESTAMP",
        "nothing",
    ]


def test_yaml_errors_are_clear(tmp_path):
    path = tmp_path / "bad.yaml"
    path.write_text("rules:\n  - when: a\n    regex: b\n    answer: c\n")
    with pytest.raises(ModelError, match="exactly one of `when`"):
        load_model(f"scripted:{path}", cache_dir=None)
