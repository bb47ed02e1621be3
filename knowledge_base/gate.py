"""Rules through the human gate: proposal, deduplication, admission with an approval.

Evidence decides what a rule *could* be (EPAM eq. 10, `admission.decide`); a human decides whether
it *is*. `propose` stores a rule whose evidence would admit it as a candidate with the reason
"awaiting human approval" unless the approval record of a promoted fix cycle comes with it;
`admit` turns a stored candidate into an admitted rule with that record, judging its evidence
again at that moment. A rule already stored (same construct, idiom and form, not deprecated or
superseded) is never stored twice.

Admission consolidates: the rule's supporting experiences leave retrieval (status `consolidated`,
with the rule's id in the event) because the rule now stands for them, which frees the slots they
took (several copies of one repair otherwise crowd out everything else). Deprecating the rule
brings them back.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from knowledge_base.admission import AdmittedRule, Decision, Evidence, decide
from knowledge_base.config import TIERS
from knowledge_base.records import Approval, Experience, Rule

if TYPE_CHECKING:
    from knowledge_base.store import KnowledgeBase

AWAITING = "awaiting human approval (a fix cycle): the evidence alone would admit it"


class ApprovalRequired(PermissionError):
    """A write that needs a human's approval record was attempted without one."""


def propose(kb: KnowledgeBase, rule: Rule, approval: Approval | None) -> tuple[int, Decision]:
    existing = same_rule(kb, rule)
    if existing is not None:
        entry = kb.get(existing)
        if approval is not None and entry.status == "candidate":
            return existing, admit(kb, existing, approval)
        assert isinstance(entry.record, Rule)  # same_rule reads rules only
        return existing, gated(judge(kb, entry.record), approval)
    decision = gated(judge(kb, rule), approval)
    admitted = decision.status == "admitted"
    stored = rule.model_copy(
        update={
            "status": decision.status,
            "advisory": decision.advisory,
            "confidence": decision.confidence,
            "approval": Approval.model_validate(approval) if admitted and approval is not None else None,
        }
    )
    rid = kb._insert([stored], "rule_" + decision.status, [{"decision": decision.model_dump()}])[0]
    return rid, decision


def admit(kb: KnowledgeBase, rule_id: int, approval: Approval) -> Decision:
    if approval is None:
        raise ApprovalRequired("admit_rule() needs the approval record of a promoted fix cycle")
    entry = kb.get(rule_id)
    if not isinstance(entry.record, Rule):
        raise ValueError(f"entry {rule_id} is a {entry.record.kind}, not a rule")
    if entry.status != "candidate":
        raise ValueError(f"rule {rule_id} is {entry.status}; only a candidate can be admitted")
    decision = gated(judge(kb, entry.record), approval)
    if decision.status != "admitted":
        raise ValueError(f"rule {rule_id} cannot be admitted: {'; '.join(decision.reasons)}")
    approved = Approval.model_validate(approval)
    update = {"status": "admitted", "advisory": decision.advisory, "confidence": decision.confidence}
    record = entry.record.model_copy(update={**update, "approval": approved})
    payload = {"decision": decision.model_dump(), "approval": approved.model_dump()}
    kb._set_status(rule_id, "admitted", "rule_admitted", payload, record=record)
    for eid in entry.record.supporting:
        if kb.get(eid).status == "active":
            kb._set_status(eid, "consolidated", "consolidated", {"into_rule": rule_id})
    return decision


def release(kb: KnowledgeBase, rule_id: int) -> None:
    """A rule leaves active knowledge: the experiences it consolidated are retrievable again."""
    record = kb.get(rule_id).record
    for eid in getattr(record, "supporting", ()):
        if kb.get(eid).status == "consolidated":
            kb._set_status(eid, "active", "released", {"from_rule": rule_id})


def judge(kb: KnowledgeBase, rule: Rule) -> Decision:
    """What the evidence earns now (an admitted rule is not its own contradiction)."""
    others = [a for a in admitted_rules(kb) if (a.construct_id, a.idiom) != (rule.construct_id, rule.idiom)]
    return decide(rule.construct_id, rule.idiom, rule.applicability, evidence(kb, rule), others, kb.config)


def gated(decision: Decision, approval: Approval | None) -> Decision:
    if decision.status != "admitted" or approval is not None:
        return decision
    return decision.model_copy(update={"status": "candidate", "reasons": (*decision.reasons, AWAITING)})


def same_rule(kb: KnowledgeBase, rule: Rule) -> int | None:
    rows = kb.sql.conn.execute(
        "SELECT id, record FROM entries WHERE kind = 'rule' AND status IN ('candidate', 'admitted') ORDER BY id"
    ).fetchall()
    for rid, raw in rows:
        other = Rule.model_validate_json(raw)
        if (other.construct_id, other.idiom, other.form) == (rule.construct_id, rule.idiom, rule.form):
            return rid
    return None


def evidence(kb: KnowledgeBase, rule: Rule) -> list[Evidence]:
    out = []
    for ids, success in ((rule.supporting, True), (rule.opposing, False)):
        for eid in ids:
            out.append(Evidence(eid, experience(kb, eid).tier, success))
    return out


def experience(kb: KnowledgeBase, eid: int) -> Experience:
    record = kb.get(eid).record
    if not isinstance(record, Experience):
        raise ValueError(f"evidence {eid} is a {record.kind}, not an experience")
    return record


def admitted_rules(kb: KnowledgeBase) -> list[AdmittedRule]:
    rows = kb.sql.conn.execute("SELECT id, record FROM entries WHERE kind = 'rule' AND status = 'admitted'")
    out = []
    for rid, raw in rows.fetchall():
        rule = Rule.model_validate_json(raw)
        # the highest tier among its supporting experiences (TIERS runs from G0 up)
        tier = TIERS[max((TIERS.index(experience(kb, e).tier) for e in rule.supporting), default=0)]
        scope = dict(rule.applicability)
        out.append(AdmittedRule(rid, rule.construct_id, rule.idiom, tier, scope, rule.supporting + rule.opposing))
    return out
