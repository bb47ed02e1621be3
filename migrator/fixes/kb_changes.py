"""Knowledge-base changes in fix cycles: corrections, proposed rules, and the arms' scratch stores.

- `propose_cycles`: repeated verified experiences for one construct become a candidate rule in the
  knowledge base (knowledge_base.proposals; deduplicated) and a *draft* fix cycle that would admit
  it. The reviewer writes the predicted flips, freezes, runs and decides like any cycle: a rule
  reaches active knowledge only through promote.
- `arm_kb`: each arm works on its own copy of the knowledge base; the candidate's copy carries the
  change as a trial, recorded as such. The real store is written only by `ingest` / `admit` on promote.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from harness.fixcycles import gates
from harness.fixcycles.gates import Decision, FixCycle, GateError, KbChange, KbRuleChange

if TYPE_CHECKING:
    from migrator.fixes.cycle import FixContext


def check_rule_entry(kb_path: Path | None, change: KbRuleChange) -> None:
    from knowledge_base import KnowledgeBase, Rule

    if kb_path is None:
        raise GateError("a knowledge-base rule change needs --kb PATH")
    with KnowledgeBase(kb_path, read_only=True) as kb:
        try:
            entry = kb.get(change.entry)
        except KeyError:
            raise GateError(f"knowledge base {kb_path} has no entry {change.entry}") from None
    rule = entry.record
    if not isinstance(rule, Rule) or (rule.construct_id, rule.idiom) != (change.construct_id, change.idiom):
        raise GateError(f"entry {change.entry} of {kb_path} is not the rule {change.construct_id!r} / {change.idiom!r}")
    if entry.status != "candidate":
        raise GateError(f"rule entry {change.entry} is {entry.status}; only a candidate can be admitted")


def arm_kb(ctx: FixContext, cycle: FixCycle, out_root: Path, label: str) -> Path | None:
    """The arm's scratch copy of the knowledge base; the candidate's carries the change as a trial."""
    if ctx.kb is None or not ctx.model:
        return None
    from knowledge_base import Approval, KnowledgeBase
    from knowledge_base.checkpoints import copy_store

    dest = out_root / label / "kb"
    if (ctx.kb / "kb.sqlite").is_file():
        copy_store(ctx.kb, dest)
    if label == "candidate" and isinstance(cycle.change, KbChange | KbRuleChange):
        trial = Approval(
            approved_by=f"{cycle.id} candidate arm (trial)",
            approved_at=gates.now(),
            reference=cycle.id,
            reason="trial in the candidate arm's scratch copy; the real knowledge base is written only on promote",
        )
        with KnowledgeBase(dest) as kb:
            if isinstance(cycle.change, KbChange):
                kb.ingest(correction(cycle), trial)
            else:
                try:
                    kb.admit_rule(cycle.change.entry, trial)
                except ValueError as exc:
                    raise GateError(f"{cycle.id}: {exc}") from None
    return dest


def correction(cycle: FixCycle):
    from knowledge_base import Correction, Provenance

    change = cycle.change
    assert isinstance(change, KbChange)
    return Correction(
        construct_id=change.construct_id,
        failure_type=change.failure_type,
        context=change.context,
        fix=change.fix,
        applicability=dict(change.applicability),
        provenance=Provenance(task_id=cycle.id),
    )


def approval(cycle: FixCycle, decision: Decision):
    from knowledge_base import Approval

    reason = decision.reason + (f" (override: {decision.override})" if decision.override else "")
    return Approval(approved_by=decision.reviewer, approved_at=decision.at, reference=cycle.id, reason=reason)


def ingest(kb_path: Path | None, cycle: FixCycle, decision: Decision) -> str:
    from knowledge_base import KnowledgeBase

    if kb_path is None:
        raise GateError(f"{cycle.id} changes the knowledge base: give --kb PATH")
    fix = correction(cycle)
    with KnowledgeBase(kb_path) as kb:
        entry = kb.ingest(fix, approval(cycle, decision))
    return f"knowledge base {kb_path}: correction {fix.construct_id} ingested as entry {entry}"


def admit(kb_path: Path | None, cycle: FixCycle, decision: Decision) -> str:
    from knowledge_base import KnowledgeBase

    change = cycle.change
    assert isinstance(change, KbRuleChange)
    if kb_path is None:
        raise GateError(f"{cycle.id} changes the knowledge base: give --kb PATH")
    with KnowledgeBase(kb_path) as kb:
        try:
            kb.admit_rule(change.entry, approval(cycle, decision))
        except ValueError as exc:
            raise GateError(f"{cycle.id}: {exc}") from None
    return f"knowledge base {kb_path}: rule {change.construct_id!r} (entry {change.entry}) admitted"


def propose_cycles(ctx: FixContext) -> list[tuple[str, int, bool]]:
    """Draft cycles for rules the knowledge base's verified experiences support: (cycle id, rule
    entry, new). A rule already proposed keeps its entry and its cycle (nothing is written twice)."""
    from knowledge_base import KnowledgeBase
    from knowledge_base.proposals import propose

    if ctx.kb is None:
        raise GateError("proposing rules needs --kb PATH")
    with KnowledgeBase(ctx.kb) as kb:
        proposals = propose(kb)
    existing = _cycles_by_entry(ctx.cycles)
    out = []
    for p in proposals:
        if p.rule_id in existing:
            out.append((existing[p.rule_id], p.rule_id, False))
            continue
        ctx.cycles.mkdir(parents=True, exist_ok=True)
        cycle_id = gates.next_cycle_id(ctx.cycles)
        title = f"Admit the knowledge-base rule for {p.rule.construct_id}"
        support = len(p.rule.supporting)
        hypothesis = (
            f"{support} verified repairs of {p.rule.construct_id} ({p.rule.failure_type or 'any failure'}) say how to "
            f"convert it; shown to the agent as an admitted rule (ranked above single experiences), it should repair "
            f"the units with {p.rule.construct_id} that still fail that way. Evidence: {p.decision.support} supporting, "
            f"{len(p.rule.opposing)} opposing, confidence {p.decision.confidence:.3f}. "
            "Write the units you expect to flip in predicates before freezing."
        )
        change = KbRuleChange(
            entry=p.rule_id, construct_id=p.rule.construct_id, idiom=p.rule.idiom, paragraph=p.rule.paragraph
        )
        gates.save_cycle(ctx.cycles, FixCycle(id=cycle_id, title=title, hypothesis=hypothesis, change=change))
        gates.append_audit(ctx.audit, cycle_id, "new", {"title": title, "proposed_rule_entry": p.rule_id})
        out.append((cycle_id, p.rule_id, True))
    return out


def _cycles_by_entry(cycles: Path) -> dict[int, str]:
    found = {}
    for path in sorted(cycles.glob("FIX-*.yaml")) if cycles.is_dir() else []:
        try:
            cycle = gates.load_cycle(cycles, path.stem)
        except GateError:
            continue
        if isinstance(cycle.change, KbRuleChange):
            found[cycle.change.entry] = cycle.id
    return found
