"""`migrator eval` on the other task adapters: Text-to-SQL (MERIT's fixture and scripted model)
and SWE (the fixture repositories, the gold-agent scripted model): the same protocol, judged by
each task's own judge."""

from __future__ import annotations

import json

import yaml

from migrator.eval.config import load_config
from migrator.eval.runner import run_eval
from migrator.eval.stats import verdict
from tests.migrator.agent.text_to_sql.t2s_support import SCRIPT, fixture_copy
from tests.swe_fixtures import SWE_FIXTURES

EXPECTED_KEYS = {
    "title",
    "task",
    "config",
    "split",
    "leakage",
    "systems",
    "comparisons",
    "curves",
    "monitor",
    "figures",
}


def _consistent(data: dict) -> None:
    """Whatever the numbers, the verdicts follow the intervals and the audit reads 0."""
    assert set(data) >= EXPECTED_KEYS and data["leakage"]["held_out_seen"] == 0
    assert data["leakage"]["retrieved_own_reference"] == 0
    for c in data["comparisons"]:
        assert c["ci_low"] <= c["diff"] <= c["ci_high"] and c["verdict"] == verdict(c["ci_low"], c["ci_high"])
        assert 0 <= c["p"] <= c["p_holm"] <= 1


def test_text_to_sql_on_the_fixture(tmp_path):
    data_dir = fixture_copy(tmp_path)
    config = {
        "task": "text_to_sql",
        "data": {"data": str(data_dir)},
        "model": f"scripted:{SCRIPT}",
        "attempts": 3,
        "embedder": "hashing",
        "orders": [0, 1],
        "systems": [
            "M0",
            "M1",
            "M2",
            "M3",
            "initial",
            "agent-no-memory",
            "agent-memory",
            "agent-bandit",
            "agent-arm-failure",
        ],
        "split": {"test_share": 0.4, "seed": 1, "group_by": ["reference"]},
        "statistics": {"resamples": 2000},
        "checkpoints": 3,
    }
    (tmp_path / "t2s.yaml").write_text(yaml.safe_dump(config))
    data = run_eval(load_config(tmp_path / "t2s.yaml"), tmp_path / "out")
    _consistent(data)
    rows = {s["name"]: s for s in data["systems"]}
    assert set(rows) == {
        "initial",
        "M0",
        "M1",
        "M2",
        "M3",
        "agent-no-memory",
        "agent-memory",
        "agent-bandit",
        "agent-arm-failure",
    }
    # the retrieval controller runs on this adapter too: decisions logged, regret against the fixed arm
    assert data["retrieval"]["best_fixed_arm"] == "agent-arm-failure"
    assert sum(data["retrieval"]["arm_counts"]["agent-bandit"].values()) > 0
    assert rows["M0"]["correct"] == 0 and rows["initial"]["spread"]["min"] == rows["initial"]["spread"]["max"]
    assert rows["agent-no-memory"]["correct"] > rows["initial"]["correct"]  # the repair loop repairs
    assert {m["order"] for m in data["monitor"]} == {0, 1} and data["figures"]["monitor"] == "monitor.png"
    # the gold SQL never reached a prompt: memory holds the agent's own outputs only
    assert all(json.loads(line)["unit"] for line in (tmp_path / "out" / "runs" / "agent-memory" / "o0-r0.jsonl").open())


def test_swe_on_the_fixture_repositories(tmp_path, swe_repos, swe_env_options, swe_isolation):
    keep = ("swefix__ledger-1", "swefix__ledger-2", "swefix__miniconf-1", "swefix__miniconf-2")
    lines = [
        ln
        for ln in (SWE_FIXTURES / "instances.jsonl").read_text().splitlines()
        if json.loads(ln)["instance_id"] in keep
    ]
    (tmp_path / "instances.jsonl").write_text("\n".join(lines) + "\n")
    config = {
        "task": "swe",
        "data": {
            "instances": str(tmp_path / "instances.jsonl"),
            "repos": str(swe_repos),
            "env_cache": str(swe_env_options.cache_dir),
            "offline": True,
            "seed": ["pytest"],
            "isolation": swe_isolation,
            "max_steps": 12,
            "per_test_timeout_s": 10,
        },
        "model": f"scripted:{SWE_FIXTURES / 'models' / 'gold-agent.yaml'}",
        "embedder": "hashing",
        "systems": ["M0", "M2", "agent-no-memory", "agent-memory", "agent-bandit"],
        "orders": [0],
        "split": {"test_share": 0.5, "seed": 1},
        "statistics": {"resamples": 1000},
        "checkpoints": 2,
    }
    (tmp_path / "swe.yaml").write_text(yaml.safe_dump(config))
    data = run_eval(load_config(tmp_path / "swe.yaml"), tmp_path / "out")
    _consistent(data)
    rows = {s["name"]: s for s in data["systems"]}
    assert rows["M0"]["correct"] == 0 and rows["initial"]["correct"] == 0  # the empty patch resolves nothing
    n = data["split"]["test_units"]
    assert rows["agent-no-memory"]["correct"] == rows["agent-memory"]["correct"] == n  # it knows every gold patch
    assert rows["agent-bandit"]["correct"] == n  # the controller chose every step's context; the answers held
    assert any((tmp_path / "out" / "runs" / "agent-bandit").glob("*.decisions.jsonl"))
    memory = next(c for c in data["comparisons"] if (c["a"], c["b"]) == ("agent-memory", "agent-no-memory"))
    assert memory["verdict"] == "no measurable effect" and memory["diff"] == 0
