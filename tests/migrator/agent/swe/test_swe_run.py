"""`run_swe` as a library and `migrator swe` as a command: outputs, manifest, report, resume, the
ablation arms, and failures reported per instance (never a traceback)."""

from __future__ import annotations

import json

import pytest

from migrator.agent.models import ScriptedModel, load_script
from migrator.agent.tasks.swe.run import SweUsageError, ablation_configs, interaction, run_swe
from migrator.cli.main import main
from tests.migrator.agent.swe.swe_agent_support import prompts_of, run_config, use_model
from tests.swe_fixtures import SWE_FIXTURES

GOLD_AGENT = SWE_FIXTURES / "models" / "gold-agent.yaml"
PREDICTIONS = SWE_FIXTURES / "predictions"
TWO = ("swefix__ledger-1", "swefix__miniconf-2")


def test_outputs_manifest_report_and_resume(tmp_path, monkeypatch, swe_repos, swe_env_options, swe_isolation):
    use_model(monkeypatch, load_script(GOLD_AGENT))
    cfg = run_config(tmp_path, swe_repos, swe_env_options, swe_isolation, ids=TWO)
    report = run_swe(cfg)
    assert (report.resolved, report.total, report.agent_verified) == (2, 2, 2)
    assert report.tokens_per_resolved == round(report.tokens / 2, 1) and report.calls == 12
    preds = [json.loads(line) for line in (cfg.out / "predictions.jsonl").read_text().splitlines()]
    assert [set(p) for p in preds] == [{"instance_id", "model_name_or_path", "model_patch"}] * 2
    assert all(p["model_patch"].startswith("diff --git") for p in preds)
    manifest = json.loads((cfg.out / "run_manifest.json").read_text())
    assert manifest["arm"] == "plan+memory" and manifest["prompt_version"] == "swe-pmcoder/1"
    assert manifest["planner"] == {"hysteresis": 2, "cooldown": 8, "stack_depth": 16, "min_step": 10}
    assert manifest["stuck"]["repeated_action"] == 8 and manifest["memory"]["lambda"] == 0.7
    assert manifest["embedder"] == "hashing-v1 (not semantic)"
    markdown = (cfg.out / "report.md").read_text()
    assert "**Resolved 2 of 2**" in markdown and "| do-nothing (empty patch) | 0 |" in markdown

    with pytest.raises(SweUsageError, match="--resume"):
        run_swe(cfg)
    fresh = ScriptedModel(default="ACTION: submit")
    use_model(monkeypatch, fresh)
    three = cfg.model_copy(update={"ids": (*TWO, "swefix__ledger-3"), "resume": True})
    report = run_swe(three)
    assert [r.instance_id for r in report.instances] == ["swefix__ledger-1", "swefix__ledger-3", "swefix__miniconf-2"]
    assert prompts_of(fresh, "swefix__ledger-1") == [] and prompts_of(fresh, "swefix__ledger-3")  # only the new one ran
    assert report.resolved == 2 and report.by_status == {"resolved": 2, "empty patch": 1}
    assert len((cfg.out / "predictions.jsonl").read_text().splitlines()) == 3


def test_the_ablation_arms_and_their_interaction_contrast(tmp_path, swe_repos, swe_env_options, swe_isolation):
    arms = ablation_configs(run_config(tmp_path, swe_repos, swe_env_options, swe_isolation))
    assert {a: (c.planner, c.memory) for a, c in arms.items()} == {
        "baseline": (False, False),
        "memory": (False, True),
        "plan": (True, False),
        "plan+memory": (True, True),
    }
    assert len({c.out for c in arms.values()}) == 4
    # PMCoder's Table VIII run means: 142.33, 148.67, 150.67, 167.33 -> +10.3
    means = {"baseline": 142.33, "plan": 148.67, "memory": 150.67, "plan+memory": 167.33}
    assert round(interaction(means), 1) == 10.3


def test_a_model_that_cannot_be_loaded_is_reported_on_every_instance(
    tmp_path, swe_repos, swe_env_options, swe_isolation, capsys
):
    cfg = run_config(tmp_path, swe_repos, swe_env_options, swe_isolation, ids=TWO, model="scripted:/no/such.yaml")
    report = run_swe(cfg)  # the library reports it per instance ...
    assert report.model_error.startswith("cannot load the model")
    assert all(r.error.startswith("not attempted: cannot load the model") for r in report.instances)
    assert report.by_status == {"empty patch": 2}
    argv = _run_argv(tmp_path / "cli", swe_repos, swe_env_options, swe_isolation, "scripted:/no/such.yaml")
    assert main(argv) == 2  # ... the command refuses it before any work
    assert "--model scripted:/no/such.yaml" in capsys.readouterr().err
    assert not (tmp_path / "cli" / "out").exists()


def test_an_instance_that_cannot_be_set_up_is_reported_and_the_others_run(
    tmp_path, monkeypatch, swe_repos, swe_env_options, swe_isolation
):
    lines = (SWE_FIXTURES / "instances.jsonl").read_text().splitlines()
    ghost = json.loads(lines[0]) | {"instance_id": "nobody__ghost-1", "repo": "nobody/ghost"}
    path = tmp_path / "instances.jsonl"
    path.write_text(json.dumps(ghost) + "\n" + lines[0] + "\n" + "{broken\n")
    use_model(monkeypatch, load_script(GOLD_AGENT))
    report = run_swe(run_config(tmp_path, swe_repos, swe_env_options, swe_isolation, instances=path))
    by_id = {r.instance_id: r for r in report.instances}
    assert "no clone of nobody/ghost" in by_id["nobody__ghost-1"].error
    assert by_id["swefix__ledger-1"].judge_status == "resolved"
    assert report.input_errors and "not JSON" in report.input_errors[0]


def _run_argv(tmp_path, repos, env_options, isolation, model, *extra):
    return [
        "swe", "run", str(SWE_FIXTURES / "instances.jsonl"), "--repos", str(repos), "--out", str(tmp_path / "out"),
        "--model", model, "--ids", "swefix__ledger-1", "--env-cache", str(env_options.cache_dir), "--seed", "pytest",
        "--offline", "--isolation", isolation, "--embedder", "hashing", "--per-test-timeout", "5", "--no-progress", *extra,
    ]  # fmt: skip


def test_the_run_command(tmp_path, swe_repos, swe_env_options, swe_isolation, capsys):
    argv = _run_argv(tmp_path, swe_repos, swe_env_options, swe_isolation, f"scripted:{GOLD_AGENT}", "--no-memory")
    argv += ["--repro", str(SWE_FIXTURES / "instances")]
    assert main(argv) == 0
    assert "plan: resolved 1 / 1" in capsys.readouterr().out
    record = json.loads((tmp_path / "out" / "results" / "swefix__ledger-1.json").read_text())
    assert record["reproduction"] == "offline"  # armed from the table before the episode began


def test_usage_errors_exit_2(tmp_path, swe_repos, monkeypatch, capsys):
    assert (
        main(
            [
                "swe",
                "run",
                str(tmp_path / "missing.jsonl"),
                "--repos",
                str(swe_repos),
                "--out",
                str(tmp_path / "o"),
                "--model",
                "scripted",
            ]
        )
        == 2
    )
    monkeypatch.setattr("harness.tasks.process_sandbox.namespace_support", lambda: (False, "no user namespaces"))
    argv = ["swe", "score", str(SWE_FIXTURES / "instances.jsonl"), "--repos", str(swe_repos)]
    assert main([*argv, "--predictions", str(SWE_FIXTURES / "predictions" / "empty.jsonl")]) == 2
    assert "no user namespaces" in capsys.readouterr().err


def test_make_repos_builds_the_clones(tmp_path, capsys):
    assert main(["swe", "make-repos", "--fixtures", str(SWE_FIXTURES), "--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["swefix__ledger", "swefix__miniconf", "swefix__textkit"]


def test_score_command_writes_the_json_summary(tmp_path, swe_repos, swe_env_options, swe_isolation, capsys):
    out = tmp_path / "score.json"
    argv = ["swe", "score", str(SWE_FIXTURES / "instances.jsonl"), "--repos", str(swe_repos)]
    argv += ["--predictions", str(PREDICTIONS / "partial.jsonl"), "--json", str(out), "--no-progress"]
    argv += ["--ids", "swefix__ledger-1", "swefix__ledger-2", "--isolation", swe_isolation]
    argv += ["--env-cache", str(swe_env_options.cache_dir), "--seed", "pytest", "--offline"]
    assert main(argv) == 0
    data = json.loads(out.read_text())
    assert (data["resolved"], data["total"]) == (1, 2)
    assert data["per_instance"]["swefix__ledger-2"]["resolved"] is True
    assert "resolved 1 / 2" in capsys.readouterr().out


def test_an_unexpected_failure_inside_one_episode_is_that_instance_s_error(
    tmp_path, monkeypatch, swe_repos, swe_env_options, swe_isolation
):
    from migrator.agent.tasks.swe.episode import SweEpisode

    real = SweEpisode.act

    def flaky(self, answer):
        if self.instance.instance_id == "swefix__ledger-1":
            raise RuntimeError("disk full")
        return real(self, answer)

    monkeypatch.setattr(SweEpisode, "act", flaky)
    use_model(monkeypatch, load_script(GOLD_AGENT))
    report = run_swe(run_config(tmp_path, swe_repos, swe_env_options, swe_isolation, ids=TWO, memory=False))
    by_id = {r.instance_id: r for r in report.instances}
    assert by_id["swefix__ledger-1"].error == "episode failed: RuntimeError: disk full"
    assert by_id["swefix__miniconf-2"].judge_status == "resolved"
