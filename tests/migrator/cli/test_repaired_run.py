"""A fully repaired run is a success (issue #30, item 7): the units the repair agent made correct
count as correct for the exit code, carry status `repaired` (not `partial`), are not listed as
problems, and their files say they were repaired instead of starting with "-- NOT CONVERTED".
The real pipeline on a real PostgreSQL, with the deterministic scripted model."""

from __future__ import annotations

import json

from migrator.agent.models import ScriptedModel, ScriptRule
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.cli.main import main
from tests.migrator.agent_support import write_schema

RULE = "plsql.dbms_output"  # off: the three functions of the test schema are left unconverted


def test_a_run_whose_failures_were_all_repaired_exits_0(tmp_path, pg_engine, monkeypatch, capsys):
    schema = write_schema(tmp_path)
    ref = migrate(schema / "app", schema / "ref", MigrateOptions(progress=False))  # what the full rules make
    answers = {u.id: (schema / "ref" / u.output).read_text() for u in ref.units}
    model = ScriptedModel(
        rules=[ScriptRule(when=f"# Unit {uid}\n", answers=[f"```sql\n{text}\n```"]) for uid, text in answers.items()],
        default="no idea",
    )
    monkeypatch.setattr("migrator.agent.run.load_model", lambda spec, cache_dir: model)
    out = schema / "out"
    argv = ["migrate", str(schema / "app"), "--out", str(out), "--verify", "--no-progress"]
    argv += ["--scenarios", str(schema / "scen.yaml"), "--transcript", str(schema / "trans.yaml")]
    argv += [
        "--disable-rule",
        RULE,
        "--model",
        "scripted",
        "--kb",
        str(schema / "kb"),
        "--pg-dsn",
        pg_engine.admin_dsn(),
    ]
    code = main(argv)
    printed = capsys.readouterr().out

    report = json.loads((out / "report.json").read_text())
    units = {u["id"]: u for u in report["units"]}
    repaired = [uid for uid, u in units.items() if u["status"] == "repaired"]
    assert repaired and all(units[uid]["rules_category"] == "rejected" for uid in repaired)
    assert all(units[uid]["category"] == "correct" for uid in repaired)
    assert not any(u["category"] in ("wrong", "rejected") for u in units.values())
    assert code == 0, printed
    assert f"repaired by the model: {len(repaired)} unit(s), {len(repaired)} of them correct" in printed
    for uid in repaired:
        assert f"  {uid} (" not in printed  # not listed as a problem
        text = (out / units[uid]["output"]).read_text()
        assert "-- NOT CONVERTED" not in text and text.splitlines()[1].startswith("-- REPAIRED by the repair agent")
        assert units[uid]["unconverted"]  # what the rules left undone stays on record
    assert report["summary"]["by_status"].get("partial", 0) == 0
