"""Held-out steps never reach a repair prompt, and a repair must satisfy them to be accepted.

One function, one scenario of six steps; every step's argument and expected value carry a code
found nowhere else, and every step's SQL a comment marker. The held-out steps come first in the
file, so a judge that quoted "the first mismatch" of all steps would leak one. The scripted model
first answers with a candidate fitted to the visible steps only, then with a real fix: the first
must not be accepted as correct, the second must.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from harness.ground_truth.scenarios import ScenarioFile, held_out, held_out_steps, load_scenarios, load_transcript
from harness.judge.incremental import IncrementalJudge
from migrator.agent.loop import AgentConfig, run_agent
from migrator.agent.models import ScriptedModel, ScriptRule
from migrator.agent.tasks.plsql import PlsqlTask
from migrator.batch.output import PREAMBLE
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.source.dependencies import analyze_dependencies
from migrator.source.reader import read_schema_dir

SOURCE = """CREATE OR REPLACE FUNCTION tag (p_code IN VARCHAR2) RETURN VARCHAR2 IS
BEGIN
  RETURN 'T:' || UPPER(p_code);
END tag;
/
"""
CODES = ["q7f1", "zx42", "mw93", "pk55", "rt08", "bn61"]


def _step(code: str) -> dict:
    return {
        "name": f"code_{code}",
        "oracle": f"SELECT tag('{code}') FROM dual /* SQLMARK-{code} */",
        "postgres": f"SELECT tag('{code}') /* SQLMARK-{code} */",
    }


def _write(tmp_path: Path) -> tuple[Path, Path, Path]:
    src = tmp_path / "app"
    src.mkdir()
    (src / "tag.fnc").write_text(SOURCE)
    scenario = {"id": "tag.codes", "units": ["function:app.tag"], "steps": [_step(c) for c in CODES]}
    probe = ScenarioFile.model_validate({"schema": "app", "scenarios": [scenario]}).scenarios[0]
    held = held_out_steps(probe)
    scenario["steps"].sort(key=lambda s: s["name"] not in held)  # held-out steps first
    (tmp_path / "scen.yaml").write_text(yaml.safe_dump({"schema": "app", "scenarios": [scenario]}))
    outcomes = {f"code_{c}": {"rows": [[f"T:{c.upper()}"]]} for c in CODES}
    transcript = {
        "schema": "app",
        "provenance": {"kind": "authored", "author": "test", "basis": "UPPER and || semantics"},
        "outcomes": {"tag.codes": outcomes},
    }
    (tmp_path / "trans.yaml").write_text(yaml.safe_dump(transcript))
    return src, tmp_path / "scen.yaml", tmp_path / "trans.yaml"


def _fence(text: str) -> str:
    return f"```sql\n{text}\n```"


@pytest.fixture
def run(tmp_path, pg_engine):
    src, scen_path, trans_path = _write(tmp_path)
    report = migrate(src, tmp_path / "out", MigrateOptions(progress=False))
    right = (tmp_path / "out" / report.units[0].output).read_text()
    assert "UPPER(" in right.upper()
    wrong = right.replace("UPPER(", "LOWER(").replace("upper(", "lower(")
    scenarios, transcript = load_scenarios(scen_path), load_transcript(trans_path)
    case = scenarios.scenarios[0]
    visible = [s.name.removeprefix("code_") for s in case.steps if not held_out(case, s)]
    hidden = [s.name.removeprefix("code_") for s in case.steps if held_out(case, s)]
    assert visible and hidden and held_out(case, case.steps[0])
    quoted = ", ".join(f"'{c}'" for c in visible)
    fitted = wrong.replace("LOWER(p_code)", f"CASE WHEN p_code IN ({quoted}) THEN UPPER(p_code) ELSE LOWER(p_code) END")
    fitted = fitted.replace(
        "lower(p_code)", f"CASE WHEN p_code IN ({quoted}) THEN upper(p_code) ELSE lower(p_code) END"
    )
    assert fitted != wrong
    model = ScriptedModel([ScriptRule(when="# Unit function:app.tag", answers=[_fence(fitted), _fence(right)])])
    source = read_schema_dir(src)
    analyze_dependencies(source)
    preamble = (tmp_path / "out" / PREAMBLE).read_text()
    with IncrementalJudge(pg_engine, preamble, scenarios, transcript) as judge:
        task = PlsqlTask(source.units, {"function:app.tag": wrong}, {}, judge, lambda *_: None, [], "t")
        episodes, failure = run_agent(task, model, None, AgentConfig(attempts=3))
    return model, episodes[0], visible, hidden


def test_no_prompt_quotes_a_held_out_step(run):
    model, _episode, visible, hidden = run
    prompts = [m.content.lower() for call in model.calls for m in call]
    assert prompts
    for code in hidden:  # neither its argument, its expected value, nor its SQL
        assert not any(code in p or f"sqlmark-{code}" in p for p in prompts), code
    # The scan can fail: the visible steps' feedback does reach the first prompt.
    assert any(code in prompts[1] for code in visible)


def test_a_repair_fitted_to_the_visible_steps_is_not_accepted(run):
    model, episode, _visible, hidden = run
    first, second = episode.attempts[0], episode.attempts[1]
    assert first.outcome == "wrong"  # visible steps agree, held-out ones do not
    assert second.outcome == "correct" and episode.final == "correct"
    second_prompt = model.calls[1][-1].content
    assert f"{len(hidden)} held-out step(s) disagree" in second_prompt
    assert not any(code in episode.final_reason.lower() for code in hidden)
