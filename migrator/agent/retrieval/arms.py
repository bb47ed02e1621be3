"""The retrieval arms: five ways to fill the memory section of the next repair prompt.

- `none`: no retrieved context at all;
- `failure`: experiences matched on the failure class of the last verdict (the store's typed,
  hybrid dense + lexical retrieval: the product's fixed retrieval);
- `structure`: experiences whose text has the most similar node kinds to the unit being repaired,
  whatever failure they came from (a wide untyped pool, re-ranked by structure);
- `skill`: transformations taken from accepted repairs, matched on the node kinds they change;
- `mix`: the best of each of the three.
Every hit carries the arm that chose it (`Hit.via`), so the prompt says which kind of context it is.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from knowledge_base.records import Hit, PoolReport, RetrievalQuery, RetrievalResult
from migrator.agent.retrieval.skills import SkillStore
from migrator.agent.retrieval.structure import node_kinds, similarity

# In this order ties are broken: a fresh bandit starts from the product's fixed retrieval (failure-
# matched) and tries "no context" and the mix last.
ARMS = ("failure", "structure", "skill", "none", "mix")
WIDE = 4  # the structure arm looks at WIDE × k untyped candidates before re-ranking
SKILL_ID_BASE = 1_000_000


@dataclass(frozen=True)
class ArmRequest:
    query: RetrievalQuery  # the loop's typed query (failure class, causal eligibility, k)
    structure: Counter[str]  # node kinds of the unit being repaired (source and candidate)
    constructs: tuple[str, ...]


def request(query: RetrievalQuery, source: str, candidate: str, constructs: tuple[str, ...]) -> ArmRequest:
    return ArmRequest(query, node_kinds(candidate) + node_kinds(source), constructs)


def retrieve(arm: str, kb, skills: SkillStore, req: ArmRequest) -> RetrievalResult | None:
    if arm == "none" or kb is None:
        return None
    k = req.query.k_positive if req.query.k_positive is not None else 3
    if arm == "failure":
        return _tagged(kb.retrieve(req.query), "failure")
    if arm == "structure":
        return _structure(kb, req, k)
    if arm == "skill":
        return _skills(skills, req, k)
    if arm == "mix":
        parts = [_tagged(kb.retrieve(req.query), "failure"), _structure(kb, req, k), _skills(skills, req, k)]
        chosen: list[Hit] = []
        for part in parts:
            top = next((h for h in part.positives if h.id not in {c.id for c in chosen}), None)
            if top is not None:
                chosen.append(top)
        return _result(req.query, chosen, "mix")
    raise ValueError(f"unknown retrieval arm {arm!r} (known: {', '.join(ARMS)})")


def _tagged(result: RetrievalResult, via: str) -> RetrievalResult:
    return result.model_copy(
        update={
            "positives": tuple(h.model_copy(update={"via": via}) for h in result.positives),
            "negatives": tuple(h.model_copy(update={"via": via}) for h in result.negatives),
        }
    )


def _structure(kb, req: ArmRequest, k: int) -> RetrievalResult:
    wide = req.query.model_copy(update={"failure_type": None, "k_positive": max(k, 1) * WIDE, "k_negative": 0})
    pool = kb.retrieve(wide)
    ranked = sorted(pool.positives, key=lambda h: (-similarity(req.structure, node_kinds(h.text)), h.id))
    return _tagged(pool.model_copy(update={"positives": tuple(ranked[:k]), "negatives": ()}), "structure")


def _skills(skills: SkillStore, req: ArmRequest, k: int) -> RetrievalResult:
    hits = [
        Hit(
            id=SKILL_ID_BASE + number,  # never read as a knowledge-base entry id
            kind="skill",
            polarity="+",
            failure_type=skill.failure_type,
            score=score,
            dense=0.0,
            lexical=0.0,
            dense_norm=0.0,
            lexical_norm=score,
            advisory=False,
            text=skill.text(),
            via="skill",
        )
        for number, skill, score in skills.match(req.structure, req.constructs, req.query.task_group, k)
    ]
    return _result(req.query, hits, "skill")


def _result(query: RetrievalQuery, positives: list[Hit], via: str) -> RetrievalResult:
    pool = PoolReport(eligible=len(positives), searched=len(positives), type_conditioned=False)
    return RetrievalResult(
        query=query, embedder=f"arm:{via}", positives=tuple(positives), negatives=(), pools={"+": pool, "-": pool}
    )
