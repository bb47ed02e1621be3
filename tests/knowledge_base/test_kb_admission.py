"""Admission: EPAM eq. 10 with hand-computed values, thresholds, contradiction and applicability split."""

from __future__ import annotations

import pytest
from kb_testing import exp

from knowledge_base import KBConfig, Rule
from knowledge_base.admission import AdmittedRule, Evidence, applicability_split, confidence, decide

CFG = KBConfig()


def ev(*spec):
    """ev(("G3", 1), ("G0", 0)) -> evidence with ids 1, 2, ..."""
    return [Evidence(i + 1, tier, bool(s)) for i, (tier, s) in enumerate(spec)]


@pytest.mark.parametrize(
    "evidence, expected_c, status, advisory, reason",
    [
        (ev(("G3", 1), ("G3", 1)), 3 / 4, "admitted", False, None),  # (1+2)/(2+2)
        (ev(("G1", 1), ("G1", 1)), 2 / 3, "admitted", True, "advisory"),  # (1+1)/(2+1)
        (ev(("G0", 1), ("G0", 1)), 1.2 / 2.2, "candidate", True, "confidence"),  # 0.5455 < 0.65
        (ev(("G3", 1)), 2 / 3, "candidate", False, "support 1 < 2"),  # c ok, support 1
        (ev(("G2", 1), ("G2", 1), ("G3", 0)), 2.6 / 4.6, "candidate", False, "confidence"),  # 0.5652
        (ev(("G2", 1), ("G2", 1), ("G2", 1), ("G0", 0)), 3.4 / 4.5, "admitted", False, None),  # 0.7556
        (ev(("G1", 1), ("G2", 1)), 2.3 / 3.3, "admitted", False, None),  # tier = best = G2
        (ev(("G0", 0), ("G0", 0)), 1 / 2.2, "candidate", True, "support 0 < 2"),
    ],
)
def test_confidence_and_thresholds(evidence, expected_c, status, advisory, reason):
    assert confidence(evidence, CFG) == pytest.approx(expected_c, abs=1e-12)
    d = decide("X", "A", {}, evidence, [], CFG)
    assert (d.status, d.advisory) == (status, advisory)
    assert d.confidence == pytest.approx(expected_c, abs=1e-12)
    if reason:
        assert any(reason in r for r in d.reasons), d.reasons


def test_support_counts_distinct_experiences():
    d = decide("X", "A", {}, [Evidence(7, "G3", True), Evidence(7, "G3", True)], [], CFG)
    assert d.support == 1 and d.status == "candidate"


def test_thresholds_come_from_config():
    lenient = KBConfig(admit_confidence=0.5, admit_support=1)
    assert decide("X", "A", {}, ev(("G0", 1)), [], lenient).status == "admitted"  # 1.1/2.1 = 0.524
    with pytest.raises(ValueError):
        KBConfig(tier_weights={"G0": 0.9, "G1": 0.5, "G2": 0.8, "G3": 1.0})


ADMITTED_G3 = AdmittedRule(rule_id=10, construct_id="X", idiom="A", tier="G3", scope={}, evidence=(1, 2))
ADMITTED_G2 = AdmittedRule(rule_id=11, construct_id="X", idiom="A", tier="G2", scope={}, evidence=(3, 4))


@pytest.mark.parametrize(
    "new_tier, admitted, status, blocking",
    [
        ("G3", ADMITTED_G3, "candidate", True),  # equal tier: blocked
        ("G2", ADMITTED_G3, "candidate", True),  # lower tier: blocked
        ("G3", ADMITTED_G2, "admitted", False),  # higher tier: admitted, conflict kept
    ],
)
def test_contradiction_with_admitted_rule(new_tier, admitted, status, blocking):
    d = decide("X", "B", {}, [Evidence(5, new_tier, True), Evidence(6, new_tier, True)], [admitted], CFG)
    assert d.status == status
    assert len(d.conflicts) == 1
    conflict = d.conflicts[0]
    # kept with its evidence ids and scope, never averaged into the confidence
    assert (conflict.rule_id, conflict.evidence, conflict.blocking) == (admitted.rule_id, admitted.evidence, blocking)
    assert d.confidence == pytest.approx(3 / 4 if new_tier == "G3" else 2.6 / 3.6)


def test_applicability_split_allows_both():
    nulls = AdmittedRule(10, "X", "A", "G3", {"empty_string": "is_null"}, (1, 2))
    d = decide("X", "B", {"empty_string": "is_empty"}, ev(("G3", 1), ("G3", 1)), [nulls], CFG)
    assert d.status == "admitted" and d.conflicts == ()
    # a condition the other rule does not mention is not a split
    d = decide("X", "B", {"other": "x"}, ev(("G3", 1), ("G3", 1)), [nulls], CFG)
    assert d.status == "candidate" and d.conflicts[0].blocking
    assert applicability_split({"a": "1"}, {"a": "2"}) and not applicability_split({"a": "1"}, {"a": "1"})
    assert not applicability_split({}, {"a": "1"})


def test_same_idiom_or_other_construct_is_no_conflict():
    assert decide("X", "A", {}, ev(("G3", 1), ("G3", 1)), [ADMITTED_G3], CFG).conflicts == ()
    assert decide("Y", "B", {}, ev(("G3", 1), ("G3", 1)), [ADMITTED_G3], CFG).conflicts == ()


APPROVAL = {"approved_by": "ana", "approved_at": "2026-12-01T10:00:00Z", "reference": "FIX-007"}


def test_store_admits_only_through_the_gate_and_keeps_conflicts(kb):
    ids = [kb.add_experience(exp(f"case {i}").model_copy(update={"tier": "G3"})) for i in range(4)]
    weak = [kb.add_experience(exp(f"weak {i}").model_copy(update={"tier": "G1"})) for i in range(2)]
    r1, d1 = kb.propose_rule(Rule(construct_id="X", idiom="A", paragraph="use A", supporting=tuple(ids[:2])), APPROVAL)
    assert d1.status == "admitted" and not d1.advisory
    assert kb.get(r1).record.approval.reference == "FIX-007"
    r2, d2 = kb.propose_rule(Rule(construct_id="X", idiom="B", paragraph="use B", supporting=tuple(ids[2:])), APPROVAL)
    assert d2.status == "candidate" and d2.conflicts[0].rule_id == r1
    assert kb.get(r2).record.status == "candidate" and kb.get(r1).record.status == "admitted"
    assert kb.events(r2)[0]["payload"]["decision"]["conflicts"][0]["evidence"] == list(ids[:2])
    r3, d3 = kb.propose_rule(Rule(construct_id="Y", idiom="C", paragraph="use C", supporting=tuple(weak)), APPROVAL)
    assert d3.status == "admitted" and d3.advisory
    kb.deprecate(r1, "superseded by a split")
    assert kb.get(r1).status == "deprecated"
    with pytest.raises(ValueError):
        kb.propose_rule(Rule(construct_id="Z", idiom="D", paragraph="p", supporting=(r3,)))


def test_a_rule_without_approval_stays_a_candidate_until_the_gate_admits_it(kb):
    from knowledge_base import ApprovalRequired
    from knowledge_base.gate import AWAITING

    ids = [kb.add_experience(exp(f"case {i}").model_copy(update={"tier": "G3"})) for i in range(2)]
    rule = Rule(construct_id="X", idiom="A", paragraph="use A", supporting=tuple(ids))
    rid, decision = kb.propose_rule(rule)
    assert decision.status == "candidate" and AWAITING in decision.reasons
    assert kb.get(rid).status == "candidate" and not kb.catalog.retrievable.view[kb.catalog.row(rid)]
    again, _ = kb.propose_rule(rule.model_copy(update={"paragraph": "use A, reworded"}))
    assert again == rid and len(kb) == 3  # the same construct and idiom: deduplicated
    with pytest.raises(ApprovalRequired):
        kb.admit_rule(rid, None)
    admitted = kb.admit_rule(rid, APPROVAL)
    assert admitted.status == "admitted" and kb.get(rid).status == "admitted"
    assert kb.catalog.retrievable.view[kb.catalog.row(rid)]
    assert [e["kind"] for e in kb.events(rid)] == ["rule_candidate", "rule_admitted"]
    # the rule stands for its evidence now: the experiences leave retrieval, and come back with it gone
    assert [kb.get(i).status for i in ids] == ["consolidated", "consolidated"]
    assert not any(kb.catalog.retrievable.view[kb.catalog.row(i)] for i in ids)
    with pytest.raises(ValueError, match="only a candidate"):
        kb.admit_rule(rid, APPROVAL)
    kb.deprecate(rid, "a better rule came")
    assert [kb.get(i).status for i in ids] == ["active", "active"]
    assert all(kb.catalog.retrievable.view[kb.catalog.row(i)] for i in ids)
    weak = kb.add_experience(exp("one").model_copy(update={"tier": "G3"}))
    lone, d = kb.propose_rule(Rule(construct_id="W", idiom="w", paragraph="p", supporting=(weak,)))
    with pytest.raises(ValueError, match="support 1 < 2"):
        kb.admit_rule(lone, APPROVAL)  # the gate cannot admit what the evidence does not support
