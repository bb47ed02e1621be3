"""Fix-cycle files: model, freezing and tamper detection, predicates, decisions, the audit chain (pure)."""

from __future__ import annotations

import json

import pytest
import yaml
from pydantic import ValidationError

from harness.fixcycles import gates
from harness.fixcycles.gates import (
    ArmResult,
    Decision,
    ExpectedFlip,
    FixCycle,
    GateError,
    Predicates,
    RuleChange,
    RunRecord,
    SchemaArm,
    TamperedCycle,
)

UNIT_A, UNIT_B, UNIT_C = "procedure:s.a", "procedure:s.b", "view:s.c"


def _cycle(**update) -> FixCycle:
    base = FixCycle(
        id="FIX-007",
        title="Enable expr.nvl",
        hypothesis="NVL left as is breaks two units",
        change=RuleChange(rule_id="expr.nvl", action="enable"),
        predicates=Predicates(flips=[ExpectedFlip(unit=UNIT_A, to="correct")]),
    )
    return base.model_copy(update=update)


def _arm(label: str, categories: dict[str, str], do_nothing_correct: int = 0) -> ArmResult:
    row = {c: sum(v == c for v in categories.values()) for c in set(categories.values())}
    schema = SchemaArm(
        schema_name="s",
        out_dir="/tmp/x",
        categories=categories,
        agent_row=row,
        do_nothing_row={"correct": do_nothing_correct},
    )
    return ArmResult(label=label, settings_version=1, applied="test", schemas=[schema])


def _decision(cycle: FixCycle, action: str = "promote", override: str | None = None) -> Decision:
    return Decision(
        action=action, reviewer="ana", at=gates.now(), reason="r", override=override, frozen_hash=cycle.frozen_hash
    )


def _with_run(cycle: FixCycle, base: dict, cand: dict) -> FixCycle:
    b, c = _arm("baseline", base), _arm("candidate", cand)
    run = RunRecord(
        at=gates.now(),
        frozen_hash=cycle.frozen_hash,
        baseline=b,
        candidate=c,
        predicates=gates.evaluate(cycle.predicates, b, c),
    )
    return cycle.model_copy(update={"state": "run", "run": run})


def test_file_model_round_trip_and_strictness(tmp_path):
    cycle = _cycle()
    gates.save_cycle(tmp_path, cycle)
    assert gates.load_cycle(tmp_path, "FIX-007") == cycle
    data = yaml.safe_load((tmp_path / "FIX-007.yaml").read_text())
    with pytest.raises(ValidationError):
        FixCycle.model_validate({**data, "surprise": 1})  # extra="forbid"
    with pytest.raises(ValidationError):
        FixCycle.model_validate({**data, "id": "fix-7"})
    with pytest.raises(ValidationError):
        FixCycle.model_validate({**data, "change": {"kind": "rule", "rule_id": "expr.nvl", "action": "toggle"}})
    with pytest.raises(ValidationError):
        ExpectedFlip(unit=UNIT_A, to="fine")
    with pytest.raises(ValidationError):
        cycle.title = "x"  # frozen


def test_template_loads_and_ids_count_up(tmp_path):
    assert gates.next_cycle_id(tmp_path) == "FIX-001"
    (tmp_path / "FIX-001.yaml").write_text(gates.draft_text("FIX-001", 'Title with "quotes": yes'))
    draft = gates.load_cycle(tmp_path, "FIX-001")
    assert draft.state == "draft" and draft.change is None and draft.title == 'Title with "quotes": yes'
    assert gates.next_cycle_id(tmp_path) == "FIX-002"


def test_freeze_needs_hypothesis_and_change_and_only_once():
    with pytest.raises(GateError, match="change"):
        gates.freeze(_cycle(change=None))
    with pytest.raises(GateError, match="hypothesis"):
        gates.freeze(_cycle(hypothesis="  "))
    frozen = gates.freeze(_cycle())
    assert frozen.state == "frozen" and len(frozen.frozen_hash) == 64
    with pytest.raises(GateError, match="only a draft"):
        gates.freeze(frozen)


def test_hash_covers_exactly_hypothesis_change_predicates():
    frozen = gates.freeze(_cycle())
    gates.check_frozen(frozen, frozen.frozen_hash)
    gates.check_frozen(frozen.model_copy(update={"title": "retitled"}), frozen.frozen_hash)  # not pre-registered
    edits = [
        {"hypothesis": "something else"},
        {"change": RuleChange(rule_id="expr.nvl2", action="enable")},
        {"predicates": Predicates(flips=frozen.predicates.flips, max_regressions=1)},
        {"predicates": Predicates(flips=[ExpectedFlip(unit=UNIT_A, to="wrong")])},
    ]
    for edit in edits:
        with pytest.raises(TamperedCycle, match="edited after freezing"):
            gates.check_frozen(frozen.model_copy(update=edit), frozen.frozen_hash)


def test_refreezing_outside_the_gate_is_caught_by_the_logged_hash():
    frozen = gates.freeze(_cycle())
    edited = frozen.model_copy(update={"hypothesis": "rewritten after seeing results"})
    rehashed = edited.model_copy(update={"frozen_hash": gates.content_hash(edited)})
    with pytest.raises(TamperedCycle, match="audit log"):
        gates.check_frozen(rehashed, frozen.frozen_hash)
    with pytest.raises(TamperedCycle, match="no freeze entry"):
        gates.check_frozen(frozen, None)
    with pytest.raises(GateError, match="not frozen"):
        gates.check_frozen(_cycle(), None)


def test_predicates_flips_regressions_and_do_nothing_row():
    cycle = gates.freeze(
        _cycle(
            predicates=Predicates(
                flips=[ExpectedFlip(unit=UNIT_A, to="correct"), ExpectedFlip(unit=UNIT_C, to="correct")]
            )
        )
    )
    base = {UNIT_A: "rejected", UNIT_B: "correct", UNIT_C: "correct"}
    cand = {UNIT_A: "correct", UNIT_B: "wrong", UNIT_C: "correct"}
    results = {p.name: p for p in gates.evaluate(cycle.predicates, _arm("baseline", base), _arm("candidate", cand))}
    assert results[f"flip {UNIT_A} -> correct"].met
    assert not results[f"flip {UNIT_C} -> correct"].met  # already correct: not a flip
    assert not results["regressions <= 0"].met and UNIT_B in results["regressions <= 0"].detail
    assert results["do-nothing row below candidate"].met
    silent = gates.evaluate(cycle.predicates, _arm("baseline", base), _arm("candidate", cand, do_nothing_correct=5))
    assert not next(p for p in silent if p.name.startswith("do-nothing")).met
    assert gates.flips(base, cand) == [(UNIT_A, "rejected", "correct"), (UNIT_B, "correct", "wrong")]


def test_promote_refused_on_failed_predicate_unless_override():
    cycle = _with_run(gates.freeze(_cycle()), {UNIT_A: "rejected"}, {UNIT_A: "wrong"})
    assert not cycle.run.all_met
    with pytest.raises(GateError, match="promote refused"):
        gates.decide(cycle, _decision(cycle))
    with pytest.raises(GateError, match="promote refused"):
        gates.decide(cycle, _decision(cycle, override="   "))
    held = gates.decide(cycle, _decision(cycle, action="hold"))
    promoted = gates.decide(held, _decision(held, override="the wrong verdict is a transcript gap (FIX-008)"))
    assert [d.action for d in promoted.decisions] == ["hold", "promote"]
    assert promoted.decisions[-1].override.startswith("the wrong verdict")
    with pytest.raises(GateError, match="decide needs"):
        gates.decide(promoted, _decision(promoted, action="revert"))


def test_decision_must_name_the_frozen_hash():
    cycle = _with_run(gates.freeze(_cycle()), {UNIT_A: "rejected"}, {UNIT_A: "correct"})
    assert cycle.run.all_met
    forged = _decision(cycle).model_copy(update={"frozen_hash": "0" * 64})
    with pytest.raises(TamperedCycle):
        gates.decide(cycle, forged)
    with pytest.raises(GateError, match="finished run"):
        gates.decide(gates.freeze(_cycle()), _decision(gates.freeze(_cycle())))


def _log(tmp_path, n: int = 4):
    path = tmp_path / "audit.jsonl"
    for i in range(n):
        gates.append_audit(path, f"FIX-00{i + 1}", "new", {"title": f"t{i}"})
    return path


def test_audit_chain_links_each_entry_to_the_previous_hash(tmp_path):
    path = _log(tmp_path)
    entries = gates.audit_entries(path)
    assert entries[0]["prev"] == gates.GENESIS
    assert all(b["prev"] == a["hash"] for a, b in zip(entries, entries[1:]))
    report = gates.verify_chain(path)
    assert report.ok and report.entries == 4 and report.last_hash == entries[-1]["hash"]


@pytest.mark.parametrize(
    "tamper, line, problem",
    [
        (lambda ls: ls.__setitem__(1, ls[1].replace("t1", "tX")), 2, "content"),  # edited detail
        (lambda ls: ls.pop(1), 2, "link"),  # deleted line
        (lambda ls: ls.insert(2, ls[1]), 3, "link"),  # duplicated line
        (lambda ls: ls.__setitem__(2, "{oops"), 3, "not JSON"),  # garbage
        (lambda ls: ls.reverse(), 1, "link"),  # reordered
    ],
)
def test_audit_chain_reports_the_first_tampered_line(tmp_path, tamper, line, problem):
    path = _log(tmp_path)
    lines = path.read_text().splitlines()
    tamper(lines)
    path.write_text("\n".join(lines) + "\n")
    report = gates.verify_chain(path)
    assert not report.ok and report.first_bad_line == line and problem in report.problem
    with pytest.raises(GateError, match="damaged"):
        gates.append_audit(path, "FIX-009", "new", {})


def test_rehashed_edit_is_still_caught_by_the_next_link(tmp_path):
    path = _log(tmp_path)
    lines = path.read_text().splitlines()
    entry = json.loads(lines[1])
    entry["detail"]["title"] = "rewritten"
    entry["hash"] = gates._entry_hash(entry)  # the forger recomputes this line's own hash
    lines[1] = json.dumps(entry, sort_keys=True)
    path.write_text("\n".join(lines) + "\n")
    report = gates.verify_chain(path)
    assert not report.ok and report.first_bad_line == 3 and "link" in report.problem


def test_logged_freeze_hash_takes_the_gate_record(tmp_path):
    path = tmp_path / "audit.jsonl"
    gates.append_audit(path, "FIX-001", "freeze", {"hash": "a" * 64})
    gates.append_audit(path, "FIX-002", "freeze", {"hash": "b" * 64})
    assert gates.logged_freeze_hash(path, "FIX-001") == "a" * 64
    assert gates.logged_freeze_hash(path, "FIX-003") is None
