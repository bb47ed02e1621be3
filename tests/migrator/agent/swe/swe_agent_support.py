"""Helpers for the SWE agent's end-to-end tests: a run configuration on the shipped instances and
scripted answers built from the instance files."""

from __future__ import annotations

import json
from pathlib import Path

from migrator.agent.models import ScriptRule
from migrator.agent.tasks.swe.run import SweRunConfig
from tests.swe_fixtures import SWE_FIXTURES

PLAN = (
    '```json\n[{"phase": "reproduce", "goal": "reproduce the issue"}, {"phase": "localize", "goal": "find the cause"},'
    ' {"phase": "edit", "goal": "fix it"}, {"phase": "verify", "goal": "reproduction and tests pass"}]\n```'
)


def run_config(tmp_path: Path, repos: Path, env_options, isolation: str, **changes) -> SweRunConfig:
    values = {
        "instances": SWE_FIXTURES / "instances.jsonl",
        "repos": repos,
        "out": tmp_path / "out",
        "model": "scripted",
        "env_cache": env_options.cache_dir,
        "seed": ("pytest",),
        "offline": True,
        "isolation": isolation,
        "embedder": "hashing",
        "per_test_timeout_s": 5.0,
        "repro_timeout_s": 30.0,
        "progress": False,
        "max_steps": 12,
    }
    values.update(changes)
    return SweRunConfig(**values)


def use_model(monkeypatch, model) -> None:
    monkeypatch.setattr("migrator.agent.tasks.swe.run.load_model", lambda spec, cache_dir: model)


def plan_rule(instance_id: str) -> ScriptRule:
    return ScriptRule(f"(?s)# Instance {instance_id} \\(.*Decompose", [PLAN], regex=True)


def steps_rule(instance_id: str, answers: list[str]) -> ScriptRule:
    return ScriptRule(f"[instance {instance_id} ·", answers)


def reproduce(instance_id: str) -> str:
    script = (SWE_FIXTURES / "instances" / instance_id / "repro.py").read_text()
    return f"Reproduce it first.\nACTION: reproduce\n```python\n{script}```"


def gold_patch(instance_id: str) -> str:
    for line in (SWE_FIXTURES / "instances.jsonl").read_text().splitlines():
        data = json.loads(line)
        if data["instance_id"] == instance_id:
            return f"The cause is clear now.\nACTION: patch\n```diff\n{data['patch']}```"
    raise KeyError(instance_id)


def trajectory(cfg: SweRunConfig, instance_id: str) -> dict:
    return json.loads((cfg.out / "trajectories" / f"{instance_id}.json").read_text())


def prompts_of(model, instance_id: str) -> list[str]:
    """The last user message of every call the model got for an instance."""
    tag = f"[instance {instance_id} ·"
    return [call[-1].content for call in model.calls if tag in call[-1].content]
