"""Rule proposals: repeated verified experiences for one construct become a candidate rule.

An experience speaks for its most specific constructs: those that occur in the fewest experiences
of the store (a construct every unit has, like %TYPE, says nothing about what was fixed when the
unit also has a rarer one). A construct qualifies when at least `admit_support` retrievable
positive experiences with one failure type speak for it. The proposal's evidence is those
experiences (supporting) and the negative ones speaking for the same construct and failure type
(opposing); its paragraph quotes the best-tier repair. `propose` stores each as a *candidate*
through the gate (never admitted here: a human admits it through a fix cycle) and returns the
entry ids, the same id again for a rule already proposed (deduplicated, knowledge_base.gate).
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass

from knowledge_base.admission import Decision
from knowledge_base.config import TIERS
from knowledge_base.records import Rule

EXCERPT = 1200


@dataclass(frozen=True)
class Proposal:
    rule_id: int
    rule: Rule
    decision: Decision
    new: bool  # False: this rule was already in the knowledge base (deduplicated)


def _experiences(kb) -> list[tuple[int, dict, bool]]:
    rows = kb.sql.conn.execute(
        "SELECT id, record, retrievable FROM entries WHERE kind = 'experience' AND status = 'active' ORDER BY id"
    ).fetchall()
    return [(i, json.loads(raw), bool(r)) for i, raw, r in rows]


def _specific(constructs: list[str], seen: dict[str, int]) -> list[str]:
    if not constructs:
        return []
    rarest = min(seen[c] for c in constructs)
    return sorted(c for c in set(constructs) if seen[c] == rarest)


def candidates(kb) -> list[Rule]:
    entries = _experiences(kb)
    seen: dict[str, int] = defaultdict(int)
    for _, rec, _ in entries:
        for c in set(rec.get("constructs", ())):
            seen[c] += 1
    support: dict[tuple[str, str], list[tuple[int, dict]]] = defaultdict(list)
    oppose: dict[tuple[str, str], list[int]] = defaultdict(list)
    for eid, rec, retrievable in entries:
        for c in _specific(list(rec.get("constructs", ())), seen):
            key = (c, rec.get("failure_type", ""))
            if rec["polarity"] == "+" and retrievable:
                support[key].append((eid, rec))
            elif rec["polarity"] == "-":
                oppose[key].append(eid)
    return [
        _rule(c, f, found, oppose.get((c, f), []))
        for (c, f), found in sorted(support.items())
        if len(found) >= kb.config.admit_support
    ]


def _rule(construct: str, failure: str, found: list[tuple[int, dict]], opposing: list[int]) -> Rule:
    best = max(found, key=lambda x: (TIERS.index(x[1].get("tier", "G0")), -x[0]))[1]
    paragraph = (
        f"Units with {construct} that failed with '{failure or 'any failure'}' were repaired and verified "
        f"{len(found)} times. A verified repair:\n{best.get('output', '')[:EXCERPT]}"
    )
    return Rule(
        construct_id=construct,
        idiom=f"verified repair of {construct}" + (f" ({failure})" if failure else ""),
        paragraph=paragraph,
        failure_type=failure,
        applicability={"constructs": construct, **({"failure_type": failure} if failure else {})},
        supporting=tuple(eid for eid, _ in found),
        opposing=tuple(opposing),
    )


def propose(kb) -> list[Proposal]:
    out = []
    for rule in candidates(kb):
        before = len(kb)
        rid, decision = kb.propose_rule(rule)
        out.append(Proposal(rid, rule, decision, new=len(kb) > before))
    return out
