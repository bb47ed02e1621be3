"""The two deterministic test models of `migrator eval`: memory-sensitive and memory-blind."""

from __future__ import annotations

import pytest
import yaml

from knowledge_base.records import Hit, untrusted_block
from migrator.agent.models import Message, ModelError, load_model


def _files(tmp_path, memory: str, flaky: float = 0.0):
    (tmp_path / "answers.yaml").write_text(yaml.safe_dump({"function:s.out_1": "A1", "function:s.out_5": "A5"}))
    spec = {
        "memory": memory,
        "answers": "answers.yaml",
        "skills": [
            {"name": "print", "units": r"\.out_", "evidence": r"constructs=[^\n]*DBMS_OUTPUT", "direct": r"out_1$"}
        ],
        "flaky": flaky,
    }
    (tmp_path / "model.yaml").write_text(yaml.safe_dump(spec))
    return load_model(f"scripted:{tmp_path / 'model.yaml'}", cache_dir=None)


def _block(polarity: str, constructs: str) -> str:
    text = f"failure\napplies to: constructs={constructs}; unit_kind=function"
    hit = Hit(
        id=7,
        kind="experience",
        polarity=polarity,
        failure_type="f",
        score=1,
        dense=1,
        lexical=0,
        dense_norm=1,
        lexical_norm=0,
        advisory=False,
        text=text,
    )
    return untrusted_block(hit)


def ask(model, unit: str, *blocks: str) -> str:
    return model.complete([Message("user", f"# Unit {unit}\n\nfix it\n\n" + "\n\n".join(blocks))]).text


def test_memory_sensitive_repairs_only_with_a_verified_block_of_its_skill(tmp_path):
    model = _files(tmp_path, "required")
    assert ask(model, "function:s.out_1") == "```sql\nA1\n```"  # known directly
    assert ask(model, "function:s.out_5") == "I cannot repair this unit."
    assert (
        ask(model, "function:s.out_5", _block("-", "DBMS_OUTPUT")) == "I cannot repair this unit."
    )  # failed direction
    assert ask(model, "function:s.out_5", _block("+", "NVL")) == "I cannot repair this unit."  # another skill
    assert ask(model, "function:s.out_5", _block("+", "%TYPE DBMS_OUTPUT")) == "```sql\nA5\n```"
    assert ask(model, "function:s.nvl_2", _block("+", "DBMS_OUTPUT")) == "I cannot repair this unit."  # no skill
    assert [why for _, why in model.decisions][:3] == [
        "answered",
        "no verified memory of print",
        "no verified memory of print",
    ]


def test_memory_blind_makes_the_same_repairs_whatever_memory_shows(tmp_path):
    model = _files(tmp_path, "ignored")
    assert (
        ask(model, "function:s.out_5")
        == ask(model, "function:s.out_5", _block("+", "DBMS_OUTPUT"))
        == "```sql\nA5\n```"
    )


def test_flakiness_is_a_deterministic_share_of_prompts(tmp_path):
    model = _files(tmp_path, "ignored", flaky=0.5)
    answers = [ask(model, "function:s.out_5", f"variant {i}") for i in range(200)]
    failed = answers.count("I cannot repair this unit.")
    assert 70 < failed < 130
    again = _files(tmp_path, "ignored", flaky=0.5)
    assert [ask(again, "function:s.out_5", f"variant {i}") for i in range(200)] == answers


def test_a_bad_skill_file_is_a_model_error(tmp_path):
    (tmp_path / "bad.yaml").write_text(yaml.safe_dump({"memory": "sometimes", "answers": "x", "skills": []}))
    with pytest.raises(ModelError):
        load_model(f"scripted:{tmp_path / 'bad.yaml'}", cache_dir=None)
