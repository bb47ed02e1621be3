"""Memory across runs and schema directories: the store-wide stream clock.

Run 1 migrates one schema and leaves a verified repair in the knowledge base. Run 2 migrates another
schema directory with the same knowledge base; its first function is repaired only when memory shows
it a verified fix. Before the clock was store-wide, run 2's positions restarted at 0, so run 1's
entries (written at later positions) were invisible to run 2's early units.
"""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from knowledge_base.embedders import HashingEmbedder
from knowledge_base.store import KnowledgeBase
from migrator.batch.pipeline import MigrateOptions, migrate
from tests.migrator.agent_support import SCENARIOS, SOURCE, TRANSCRIPT


def _schema(root: Path, name: str) -> Path:
    src = root / name
    src.mkdir(parents=True)
    for file, text in SOURCE.items():
        (src / file).write_text(text)
    for doc, file in ((SCENARIOS, "scen"), (TRANSCRIPT, "trans")):
        (root / f"{name}-{file}.yaml").write_text(yaml.safe_dump(doc).replace("app", name))
    return src


def _fixed(src: Path, out: Path, unit: str) -> str:
    report = migrate(src, out, MigrateOptions(progress=False))
    return next((out / u.output).read_text() for u in report.units if u.id == unit)


def test_an_experience_from_run_1_is_retrieved_in_run_2_for_an_early_unit(tmp_path, pg_engine):
    app, shop = _schema(tmp_path, "app"), _schema(tmp_path, "shop")
    fix_app = _fixed(app, tmp_path / "ref-app", "function:app.stock_note")
    fix_shop = _fixed(shop, tmp_path / "ref-shop", "function:shop.stock_note")
    script = {
        "default": "I cannot tell.",
        "rules": [
            {"when": "# Unit function:app.stock_note\n", "answer": f"```sql\n{fix_app}\n```"},
            {  # run 2's unit: repaired only with a verified experience in its prompt
                "regex": r"(?s)(?=.*# Unit function:shop\.stock_note\n)(?=.*<<<memory id=\d+ kind=experience polarity=\+)",
                "answer": f"```sql\n{fix_shop}\n```",
            },
        ],
    }
    (tmp_path / "model.yaml").write_text(yaml.safe_dump(script))
    kb = tmp_path / "kb"
    KnowledgeBase(kb, embedder=HashingEmbedder()).close()  # a store keeps the embedder it was made with

    def run(src: Path, name: str):
        return migrate(
            src,
            tmp_path / f"out-{name}",
            MigrateOptions(
                force=True,
                deploy=pg_engine.admin_dsn(),
                verify=True,
                scenarios=tmp_path / f"{name}-scen.yaml",
                transcript=tmp_path / f"{name}-trans.yaml",
                disabled_rules=frozenset({"plsql.dbms_output"}),
                model=f"scripted:{tmp_path / 'model.yaml'}",
                kb=kb,
                attempts=1,
                progress=False,
            ),
        )

    first = run(app, "app")
    assert {u.id: u.category for u in first.units}["function:app.stock_note"] == "correct"
    with KnowledgeBase(kb) as store:
        learned = [
            i for i in range(1, len(store) + 1) if store.get(i).record.provenance.task_id == "function:app.stock_note"
        ]
        run1_position = store.get(learned[0]).record.provenance.stream_position
    assert len(learned) == 1  # run 1 left its verified repair

    second = run(shop, "shop")
    manifest = json.loads((tmp_path / "out-shop" / "run_manifest.json").read_text())
    episodes = {u["item_id"]: u for u in manifest["units"]}
    early = episodes["function:shop.stock_note"]
    # run 2's first function: before the clock was store-wide its position restarted below run 1's
    assert learned[0] in early["attempts"][0]["shown_positive"]
    assert {u.id: u.category for u in second.units}["function:shop.stock_note"] == "correct"
    with KnowledgeBase(kb) as store:
        shop_entry = next(
            store.get(i).record
            for i in range(1, len(store) + 1)
            if store.get(i).record.provenance.task_id == "function:shop.stock_note"
        )
    assert shop_entry.provenance.stream_position > run1_position
    # migrate snapshots the store at checkpoints and reports the monitor's figures
    rows = second.agent.monitor
    assert rows and rows[-1]["position"] == len(second.units) and rows[-1]["verified_entries"] >= 2
    assert rows[-1]["distinct_positive_shown"] >= 1 and "margin_mean" in rows[-1]
    assert (tmp_path / "out-shop" / "memory_monitor.png").read_bytes()[:4] == b"\x89PNG"
    assert "Memory at each checkpoint" in (tmp_path / "out-shop" / "report.md").read_text()
    assert manifest["monitor"] == rows
    assert shop_entry.applicability == {
        "constructs": "%TYPE DBMS_OUTPUT",
        "failure_type": shop_entry.failure_type,
        "unit_kind": "function",
    }
