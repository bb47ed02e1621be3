"""Fix-cycle bars on the fixture corpus (hr_payroll only, to stay fast) with the real embedded PostgreSQL.

Bar 1: a disabled rule is enabled by a frozen, run and promoted cycle that shows exactly the predicted
flips and no regression; promote rewrites the settings file; `migrator regress` passes on the new
baseline. Bar 2: a failed predicate blocks promote without --override, an edit after freezing blocks
run and decide, a tampered audit line is reported, a KB correction is retrievable only after promote.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from harness.fixcycles import gates
from knowledge_base import Experience, HashingEmbedder, KnowledgeBase, RetrievalQuery
from migrator.cli.main import main
from migrator.fixes.settings import SettingsError, load_settings

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "fixtures"
RULE = "ddl.view"
# Found by experiment (`migrator migrate fixtures/schemas/hr_payroll --disable-rule ddl.view --verify`
# against the full scenario file): with the rule off the four views are left unconverted and
# rejected; with it on they match Oracle.
PREDICTED = {
    "view:hr_payroll.v_employee_directory": "correct",
    "view:hr_payroll.v_department_summary": "correct",
    "view:hr_payroll.v_org_chart": "correct",
    "view:hr_payroll.v_salary_ranking": "correct",
}
KB_FIX = "Translate XMLTABLE over a CLOB with PostgreSQL's XMLTABLE(... PASSING xmlparse(document c))."


def _corpus(root: Path, with_evidence: bool) -> Path:
    """A copy of hr_payroll laid out like fixtures/. To keep the suite fast it carries only the
    scenarios of the views and functions (the cheap ones: queries, no DML chains); every unit is
    still converted, deployed and judged in both arms, the others end `unverified` in both."""
    src = root / "schemas" / "hr_payroll"
    shutil.copytree(FIXTURES / "schemas" / "hr_payroll", src)
    if with_evidence:
        data = yaml.safe_load((FIXTURES / "scenarios" / "hr_payroll.yaml").read_text())
        data["scenarios"] = [
            s for s in data["scenarios"] if all(u.startswith(("view:", "function:")) for u in s["units"])
        ]
        (root / "scenarios").mkdir()
        (root / "scenarios" / "hr_payroll.yaml").write_text(yaml.safe_dump(data, sort_keys=False))
        (root / "transcripts").mkdir()
        shutil.copy(FIXTURES / "transcripts" / "hr_payroll.yaml", root / "transcripts" / "hr_payroll.yaml")
    return src


def _env(tmp_path: Path, pg_engine, with_evidence: bool):
    settings = tmp_path / "settings.yaml"
    settings.write_text(yaml.safe_dump({"version": 1, "disabled_rules": [RULE]}))
    src = _corpus(tmp_path / "corpus", with_evidence)
    common = [
        "--cycles",
        str(tmp_path / "cycles"),
        "--settings",
        str(settings),
        "--corpus",
        str(src),
        "--pg-dsn",
        pg_engine.admin_dsn(),
        "--kb",
        str(tmp_path / "kb"),
    ]
    return src, settings, common


def fix(common: list[str], *argv: str) -> int:
    return main(["fix", *argv, *common])


def _draft(tmp_path: Path, common: list[str], title: str, **fields) -> str:
    assert fix(common, "new", title) == 0
    path = sorted((tmp_path / "cycles").glob("FIX-*.yaml"))[-1]
    cycle_id = path.stem
    data = yaml.safe_load(path.read_text()) | fields
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    return cycle_id


def test_enable_rule_cycle_promotes_and_regress_passes(tmp_path, pg_engine, capsys):
    src, settings, common = _env(tmp_path, pg_engine, with_evidence=True)
    flips = [{"unit": u, "to": c} for u, c in PREDICTED.items()]
    cid = _draft(
        tmp_path,
        common,
        f"Enable {RULE}",
        hypothesis="Views left unconverted are rejected; with the view rule they deploy and match Oracle.",
        change={"kind": "rule", "rule_id": RULE, "action": "enable"},
        predicates={"flips": flips, "max_regressions": 0, "do_nothing_below": True},
    )
    assert fix(common, "freeze", cid) == 0
    assert fix(common, "run", cid) == 0
    cycle = gates.load_cycle(tmp_path / "cycles", cid)
    moved = gates.flips(cycle.run.baseline.categories(), cycle.run.candidate.categories())
    assert {u: now for u, _, now in moved} == PREDICTED  # exactly the predicted flips, nothing else
    assert cycle.run.all_met and not gates.regressions(
        cycle.run.baseline.categories(), cycle.run.candidate.categories()
    )
    capsys.readouterr()
    assert fix(common, "show", cid) == 0
    shown = capsys.readouterr().out
    assert "(intact)" in shown and "rejected -> correct" in shown and "+CREATE" in shown

    baselines = tmp_path / "baselines"
    old_settings = tmp_path / "old-settings.yaml"
    shutil.copy(settings, old_settings)
    assert (
        fix(
            common,
            "decide",
            cid,
            "promote",
            "--reviewer",
            "ana",
            "--reason",
            "4 predicted flips, 0 regressions",
            "--baselines",
            str(baselines),
        )
        == 0
    )
    active = load_settings(settings)
    assert active.version == 2 and RULE not in active.disabled_rules
    assert len(active.history) == 1 and active.history[0].startswith(f"v2: {cid} promote (rule {RULE} enabled)")
    regress = [
        "regress",
        str(src),
        "--settings",
        str(settings),
        "--baseline",
        str(baselines / "hr_payroll.json"),
        "--pg-dsn",
        pg_engine.admin_dsn(),
    ]
    assert main(regress) == 0  # the promoted settings reproduce the candidate arm: no regression
    regress[regress.index(str(settings))] = str(old_settings)
    assert main(regress) == 1  # and the baseline is not vacuous: the old settings lose the four views
    assert fix(common, "audit") == 0
    assert fix(common, "decide", cid, "promote", "--reviewer", "ana", "--reason", "again") == 1  # decided


def _kb_hits(kb_dir: Path) -> list[str]:
    with KnowledgeBase(kb_dir) as kb:
        result = kb.retrieve(RetrievalQuery(text="XMLTABLE over a CLOB column", k_positive=3))
    return [h.text for h in result.positives if h.kind == "correction"]


def test_failed_predicate_tamper_and_kb_write_back(tmp_path, pg_engine, capsys):
    # No scenarios here: this bar is about the gate, and a run without evidence is fast. A KB change
    # acts through the repair agent, so the cycle needs a model (the shipped scripted one).
    _, settings, common = _env(tmp_path, pg_engine, with_evidence=False)
    common += ["--model", "scripted"]
    with KnowledgeBase(tmp_path / "kb", embedder=HashingEmbedder()) as kb:  # offline, deterministic
        kb.add_experience(Experience(polarity="+", context="NVL(a, b) in a view", output="coalesce(a, b)"))
    unit = next(iter(PREDICTED))
    cid = _draft(
        tmp_path,
        common,
        "XMLTABLE correction",
        hypothesis="The correction fixes XMLTABLE units.",
        change={"kind": "kb", "construct_id": "XMLTABLE", "context": "XMLTABLE over a CLOB column", "fix": KB_FIX},
        predicates={"flips": [{"unit": unit, "to": "correct"}], "max_regressions": 0},
    )
    decide = ["decide", cid, "promote", "--reviewer", "ana", "--reason", "write back the XMLTABLE fix"]
    assert fix(common, *decide) == 1  # not even frozen
    assert fix(common, "freeze", cid) == 0
    path = tmp_path / "cycles" / f"{cid}.yaml"
    frozen_text = path.read_text()
    path.write_text(frozen_text.replace("The correction fixes", "Maybe the correction fixes"))
    assert fix(common, "run", cid) == 1  # edit after freeze: run refused
    assert "edited after freezing" in capsys.readouterr().err
    path.write_text(frozen_text)
    assert fix(common, "run", cid) == 1  # runs, but the predicted flip does not happen
    assert not gates.load_cycle(tmp_path / "cycles", cid).run.all_met

    ran_text = path.read_text()
    path.write_text(ran_text.replace("max_regressions: 0", "max_regressions: 3"))
    assert fix(common, *decide, "--override", "forced") == 1  # edit after freeze: decide refused too
    path.write_text(ran_text)
    capsys.readouterr()
    assert fix(common, *decide) == 1  # predicate failed: promote refused
    assert "promote refused" in capsys.readouterr().err
    assert _kb_hits(tmp_path / "kb") == []  # nothing written back before promote
    assert fix(common, *decide, "--override", "no evidence in this corpus moves the unit; reviewed by hand") == 0
    assert any(KB_FIX in text for text in _kb_hits(tmp_path / "kb"))
    decision = gates.load_cycle(tmp_path / "cycles", cid).decisions[-1]
    assert decision.override.startswith("no evidence") and "ingested as entry" in decision.applied
    assert load_settings(settings).version == 1  # a KB change leaves the settings file alone


def test_tampered_audit_line_is_reported(tmp_path, pg_engine, capsys):
    _, settings, common = _env(tmp_path, pg_engine, with_evidence=False)
    cid = _draft(
        tmp_path, common, f"Enable {RULE}", hypothesis="h", change={"kind": "rule", "rule_id": RULE, "action": "enable"}
    )
    assert fix(common, "freeze", cid) == 0
    assert fix(common, "audit") == 0
    audit = tmp_path / "cycles" / "audit.jsonl"
    original = audit.read_text().splitlines()
    lines = list(original)
    lines[0] = lines[0].replace(f'"title": "Enable {RULE}"', '"title": "Something harmless"')
    audit.write_text("\n".join(lines) + "\n")
    capsys.readouterr()
    assert fix(common, "audit") == 1
    out = capsys.readouterr().out
    assert "TAMPERED" in out and "line 1:" in out
    assert fix(common, "run", cid) == 1  # nothing proceeds on a damaged log
    assert "damaged at line 1" in capsys.readouterr().err
    audit.write_text(original[0] + "\n")  # cut the tail instead: the chain alone cannot see that,
    assert fix(common, "audit") == 1  # but FIX-001.yaml says frozen and the log has no freeze
    assert f"INCONSISTENT: {cid} is frozen but the log lacks: freeze" in capsys.readouterr().out


def test_each_kind_of_change_maps_onto_the_settings():
    from harness.fixcycles.gates import FixCycle
    from migrator.fixes.cycle import with_change
    from migrator.fixes.settings import ActiveSettings

    active = ActiveSettings(version=2, disabled_rules=["expr.nvl", "plsql.*", "plsql.dbms_output"])

    def cycle(change: dict) -> FixCycle:
        return FixCycle(id="FIX-009", title="t", hypothesis="h", change=change)

    assert with_change(active, cycle({"kind": "rule", "rule_id": "expr.nvl", "action": "enable"})).disabled_rules == [
        "plsql.*",
        "plsql.dbms_output",
    ]
    assert (
        "sql.rownum"
        in with_change(active, cycle({"kind": "rule", "rule_id": "sql.rownum", "action": "disable"})).disabled_rules
    )
    prompt = with_change(active, cycle({"kind": "prompt", "paragraph_id": "strict", "text": "Use STRICT."}))
    assert [(p.id, p.added_by) for p in prompt.prompt_paragraphs] == [("strict", "FIX-009")]
    harness = with_change(active, cycle({"kind": "harness", "setting": "step_timeout_ms", "value": 9000}))
    assert harness.harness.step_timeout_ms == 9000
    refused = [
        ({"kind": "rule", "rule_id": "expr.decode", "action": "enable"}, "is not disabled"),
        ({"kind": "rule", "rule_id": "plsql.dbms_output", "action": "enable"}, "family"),
        ({"kind": "rule", "rule_id": "plsql.trigger", "action": "disable"}, "already disabled"),
        ({"kind": "harness", "setting": "no_such_setting", "value": 1}, "unknown harness setting"),
    ]
    for change, message in refused:
        with pytest.raises(gates.GateError, match=message):
            with_change(active, cycle(change))
    with pytest.raises(SettingsError, match="step_timeout_ms"):  # out of the settings' own bounds
        with_change(active, cycle({"kind": "harness", "setting": "step_timeout_ms", "value": 1}))
