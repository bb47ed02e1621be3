"""`migrator eval` end to end on the shipped PL/SQL fixture: the protocol's power check and its
false-positive check, on a real PostgreSQL with real knowledge bases and the shipped test models.

- memory-sensitive model: it repairs a family of units only when memory shows it a verified repair
  of that family, so memory must be found to help (the interval excludes 0);
- memory-blind model: the same repairs whatever memory shows, so memory must not be found to help
  or hurt.
Both runs must read leakage 0 and write the pages and pictures."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from migrator.cli.main import main
from migrator.eval.config import load_config
from migrator.eval.runner import run_eval

EVAL = Path(__file__).resolve().parents[3] / "fixtures" / "eval"
PNG = b"\x89PNG\r\n\x1a\n"


def _run(name: str, out: Path, pg_engine) -> dict:
    cfg = load_config(EVAL / name)
    cfg = cfg.model_copy(update={"data": cfg.data.model_copy(update={"engine": pg_engine.admin_dsn()})})
    return run_eval(cfg, out)


def _contrast(data: dict, a: str, b: str) -> dict:
    return next(c for c in data["comparisons"] if (c["a"], c["b"]) == (a, b))


@pytest.mark.parametrize(
    "config, verdict",
    [("plsql-memory-sensitive.yaml", "helps"), ("plsql-memory-blind.yaml", "no measurable effect")],
)
def test_shipped_configs_power_and_false_positive_checks(config, verdict, tmp_path, pg_engine):
    data = _run(config, tmp_path / "out", pg_engine)
    memory = _contrast(data, "agent-memory", "agent-no-memory")
    assert memory["verdict"] == verdict, memory
    if verdict == "helps":
        assert memory["ci_low"] > 0 and memory["p_holm"] < 0.05 and memory["sei_met"]
    else:
        assert memory["ci_low"] <= 0 <= memory["ci_high"] and memory["within_sei"]
    leak = data["leakage"]
    assert leak["held_out_seen"] == 0 and leak["retrieved_own_reference"] == 0 and not leak["refused"]
    rows = {s["name"]: s for s in data["systems"]}
    assert set(rows) == {"rules-only", "M0", "M1", "M2", "M3", "agent-no-memory", "agent-memory"}
    assert all(s["units"] == data["split"]["test_units"] for s in rows.values())
    assert rows["M0"]["correct"] == 0  # an empty output is never correct here
    assert rows["agent-memory"]["correct"] > max(rows[m]["correct"] for m in ("M0", "M1", "M2", "M3", "rules-only"))
    assert len(rows["agent-memory"]["spread"]["runs"]) == 3  # three stream orders
    # the repair loop itself helps in both (a positive control inside the false-positive check)
    assert _contrast(data, "agent-memory", data["best_baseline"])["verdict"] == "helps"
    out = tmp_path / "out"
    for name in ("eval.md", "eval.html", "learning_curve.png", "monitor.png"):
        assert (out / name).stat().st_size > 0
    assert (out / "learning_curve.png").read_bytes()[:8] == PNG and (out / "monitor.png").read_bytes()[:8] == PNG
    saved = json.loads((out / "eval.json").read_text())
    assert {"systems", "comparisons", "leakage"} <= set(saved) and saved["leakage"]["held_out_seen"] == 0
    assert f"**{verdict}**" in (out / "eval.md").read_text() and "<img" in (out / "eval.html").read_text()
    monitor = [m for m in saved["monitor"] if m["order"] == 0]
    assert [m["checkpoint"] for m in monitor] == ["ck01", "ck02", "ck03", "ck04"]
    assert monitor[-1]["verified_entries"] >= monitor[0]["verified_entries"] and monitor[-1]["churn"] is not None


def test_an_ungrouped_split_is_refused_before_anything_runs(tmp_path):
    text = (
        (EVAL / "plsql-memory-sensitive.yaml")
        .read_text()
        .replace("seed: 1\nstatistics", "seed: 1\n  grouped: false\nstatistics")
    )
    assert "grouped: false" in text
    (tmp_path / "plsql").symlink_to(EVAL / "plsql")
    (tmp_path / "leaky.yaml").write_text(text)
    code = main(["eval", "run", str(tmp_path / "leaky.yaml"), "--out", str(tmp_path / "out"), "--no-progress"])
    assert code == 1
    data = json.loads((tmp_path / "out" / "eval.json").read_text())
    assert data["leakage"]["refused"] and data["leakage"]["held_out_seen"] > 0
    assert data["systems"] == [] and data["comparisons"] == []
    assert not (tmp_path / "out" / "runs").exists()  # refused before any system ran


def test_the_committed_fixture_is_what_the_generator_writes(tmp_path):
    from migrator.eval.fixture import write_fixture

    for path in write_fixture(tmp_path / "plsql"):
        committed = EVAL / path.relative_to(tmp_path)
        assert committed.read_text() == path.read_text(), f"{committed} is stale: run `migrator eval make-fixture`"
