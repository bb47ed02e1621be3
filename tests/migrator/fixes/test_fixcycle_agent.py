"""Fix cycles whose change acts through the repair agent: both arms run the model (the shipped
scripted one here), so the predicted flips of a prompt paragraph or a knowledge-base rule are
measured, not assumed. Real PostgreSQL, real knowledge bases.

The corpus is the agent tests' small schema with DBMS_OUTPUT's rule switched off: the rules leave
its three functions rejected.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import yaml

from harness.fixcycles import gates
from knowledge_base import HashingEmbedder, KnowledgeBase
from migrator.batch.pipeline import MigrateOptions, migrate
from migrator.cli.main import main
from migrator.fixes.settings import load_settings
from tests.migrator.agent_support import write_schema

MARK = "SAY-IT-WITH-RAISE-NOTICE"
UNITS = ("function:app.stock_note", "function:app.item_label", "function:app.double_qty")


def _made(root: Path) -> Path:
    root.mkdir(parents=True)
    return write_schema(root)


def _corpus(tmp_path: Path) -> Path:
    made = _made(tmp_path / "made")
    corpus = tmp_path / "corpus"
    shutil.copytree(made / "app", corpus / "schemas" / "app")
    (corpus / "scenarios").mkdir()
    (corpus / "transcripts").mkdir()
    shutil.copy(made / "scen.yaml", corpus / "scenarios" / "app.yaml")
    shutil.copy(made / "trans.yaml", corpus / "transcripts" / "app.yaml")
    return corpus / "schemas" / "app"


def _fixed(src: Path, out: Path) -> dict[str, str]:
    report = migrate(src, out, MigrateOptions(progress=False))
    return {u.id: f"```sql\n{(out / u.output).read_text()}\n```" for u in report.units if u.id in UNITS}


def _env(tmp_path: Path, pg_engine, rules: list[dict]) -> tuple[list[str], Path]:
    src = _corpus(tmp_path)
    (tmp_path / "model.yaml").write_text(yaml.safe_dump({"default": "no idea", "rules": rules}))
    settings = tmp_path / "settings.yaml"
    settings.write_text(yaml.safe_dump({"version": 1, "disabled_rules": ["plsql.dbms_output"]}))
    common = ["--cycles", str(tmp_path / "cycles"), "--settings", str(settings), "--corpus", str(src)]
    common += ["--pg-dsn", pg_engine.admin_dsn(), "--kb", str(tmp_path / "kb"), "--attempts", "1"]
    return common, src


def fix(common: list[str], *argv: str) -> int:
    return main(["fix", *argv, *common])


def _edit(path: Path, **fields) -> None:
    path.write_text(yaml.safe_dump(yaml.safe_load(path.read_text()) | fields, sort_keys=False))


def test_a_prompt_paragraph_cycle_runs_the_agent_in_both_arms_and_checks_its_flips(tmp_path, pg_engine, capsys):
    fixed = _fixed(_made(tmp_path / "ref") / "app", tmp_path / "ref-out")
    # The scripted model repairs these two only when the reviewed paragraph is in its prompt.
    rules = [
        {"regex": rf"(?s)(?=.*{MARK})(?=.*# Unit {uid.replace('.', '[.]')}\n)", "answer": fixed[uid]}
        for uid in UNITS[:2]
    ]
    common, _ = _env(tmp_path, pg_engine, rules)
    model = f"scripted:{tmp_path / 'model.yaml'}"
    assert fix(common, "new", "Say DBMS_OUTPUT with RAISE NOTICE") == 0
    path = tmp_path / "cycles" / "FIX-001.yaml"
    _edit(
        path,
        hypothesis="With the paragraph the model converts PUT_LINE; stock_note and item_label flip, double_qty does not.",
        change={
            "kind": "prompt",
            "paragraph_id": "raise-notice",
            "text": f"PUT_LINE(x) is RAISE NOTICE '%', x. {MARK}",
        },
        predicates={
            "flips": [{"unit": UNITS[0], "to": "correct"}, {"unit": UNITS[1], "to": "correct"}],
            "max_regressions": 0,
            "do_nothing_below": True,
        },
    )
    capsys.readouterr()
    assert fix(common, "freeze", "FIX-001") == 1  # a prompt change measured without a model: refused
    assert "give --model" in capsys.readouterr().err
    agent = [*common, "--model", model]
    assert fix(agent, "freeze", "FIX-001") == 0
    assert fix(agent, "run", "FIX-001") == 0
    cycle = gates.load_cycle(tmp_path / "cycles", "FIX-001")
    base, cand = cycle.run.baseline.categories(), cycle.run.candidate.categories()
    assert [base[u] for u in UNITS] == ["rejected", "rejected", "rejected"]  # the agent ran, no paragraph
    assert [cand[u] for u in UNITS] == ["correct", "correct", "rejected"]
    assert {u for u, _, _ in gates.flips(base, cand)} == set(UNITS[:2])  # exactly the predicted flips
    assert cycle.run.all_met and [p.met for p in cycle.run.predicates] == [True, True, True, True]
    assert "with model scripted:" in cycle.run.candidate.applied and "with model" in cycle.run.baseline.applied
    assert fix(agent, "decide", "FIX-001", "promote", "--reviewer", "ana", "--reason", "2 predicted flips") == 0
    active = load_settings(tmp_path / "settings.yaml")
    assert [(p.id, p.added_by) for p in active.prompt_paragraphs] == [("raise-notice", "FIX-001")]


def test_a_rule_proposed_from_verified_experiences_is_admitted_only_through_its_cycle(tmp_path, pg_engine, capsys):
    fixed = _fixed(_made(tmp_path / "ref") / "app", tmp_path / "ref-out")
    rule_block = r"<<<memory id=\d+ kind=rule polarity=\+[^>]*>>>\n[^<]*DBMS_OUTPUT"
    rules = [
        {"when": f"# Unit {UNITS[0]}\n", "answer": fixed[UNITS[0]]},
        {"when": f"# Unit {UNITS[2]}\n", "answer": fixed[UNITS[2]]},
        # item_label: only when an admitted rule about DBMS_OUTPUT is in the prompt
        {"regex": rf"(?s)(?=.*# Unit function:app[.]item_label\n)(?=.*{rule_block})", "answer": fixed[UNITS[1]]},
    ]
    common, src = _env(tmp_path, pg_engine, rules)
    model = f"scripted:{tmp_path / 'model.yaml'}"
    kb_path = tmp_path / "kb"
    KnowledgeBase(kb_path, embedder=HashingEmbedder()).close()
    corpus = src.parent.parent
    learned = migrate(  # a first run leaves two verified repairs of DBMS_OUTPUT (and item_label's failure)
        src,
        tmp_path / "run1",
        MigrateOptions(
            force=True,
            deploy=pg_engine.admin_dsn(),
            verify=True,
            scenarios=corpus / "scenarios" / "app.yaml",
            transcript=corpus / "transcripts" / "app.yaml",
            disabled_rules=frozenset({"plsql.dbms_output"}),
            model=model,
            kb=kb_path,
            attempts=1,
            progress=False,
        ),
    )
    assert [u.category for u in learned.units if u.id in UNITS] == ["correct", "rejected", "correct"]

    capsys.readouterr()
    assert fix(common, "propose") == 0
    assert "drafted" in capsys.readouterr().out
    proposed = {p.stem: gates.load_cycle(tmp_path / "cycles", p.stem) for p in (tmp_path / "cycles").glob("FIX-*.yaml")}
    cid, cycle = next((c, y) for c, y in proposed.items() if y.change.construct_id == "DBMS_OUTPUT")
    with KnowledgeBase(kb_path) as kb:
        stored = kb.get(cycle.change.entry)
        assert stored.status == "candidate" and len(stored.record.supporting) == 2  # stored, not active
    assert fix(common, "propose") == 0 and "already proposed" in capsys.readouterr().out
    assert len(list((tmp_path / "cycles").glob("FIX-*.yaml"))) == len(proposed)  # deduplicated

    _edit(tmp_path / "cycles" / f"{cid}.yaml", predicates={"flips": [{"unit": UNITS[1], "to": "correct"}]})
    agent = [*common, "--model", model]
    assert fix(agent, "freeze", cid) == 0
    assert fix(agent, "run", cid) == 0
    ran = gates.load_cycle(tmp_path / "cycles", cid)
    assert ran.run.baseline.categories()[UNITS[1]] == "rejected"
    assert ran.run.candidate.categories()[UNITS[1]] == "correct" and ran.run.all_met
    with KnowledgeBase(kb_path) as kb:
        assert kb.get(cycle.change.entry).status == "candidate"  # the arms wrote only their scratch copies
    assert fix(agent, "decide", cid, "promote", "--reviewer", "ana", "--reason", "item_label flips") == 0
    with KnowledgeBase(kb_path) as kb:
        admitted = kb.get(cycle.change.entry)
    assert admitted.status == "admitted" and admitted.record.approval.reference == cid
    assert admitted.record.approval.approved_by == "ana"
