"""The repair systems MERIT compares, as memory policies on the one loop and knowledge base.

- iterative: execution feedback and the question's own history; no memory.
- dynamic-rag: one untyped pool of verified repairs (negatives are never written, so the one pool
  is the positive pool), same causal eligibility and hybrid ranking, top 4 (MERIT App. E).
- merit: positive and negative pools, failure-type conditioning with the >= 3 fallback (the
  knowledge base's type_min), hybrid 0.75/0.25, 3 positives + 1 negative (MERIT §3.2).
- reflexion: one reflection call before each repair; the question's reflections go into its
  prompts, and its last reflection becomes a verbal memory (no SQL) that later questions retrieve
  untyped, 2 from successful and 2 from failed episodes. The paper does not pin down its
  cross-query part; this is our reading, recorded in the manifest.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

from knowledge_base.records import Experience, RetrievalQuery, RetrievalResult


@dataclass(frozen=True)
class System:
    name: str
    memory: bool
    typed: bool = True
    k_positive: int = 3
    k_negative: int = 1
    store_negatives: bool = True
    reflect: bool = False

    def describe(self) -> dict:
        return asdict(self)


SYSTEMS = {
    "iterative": System("iterative", memory=False, typed=False, k_positive=0, k_negative=0, store_negatives=False),
    "dynamic-rag": System("dynamic-rag", memory=True, typed=False, k_positive=4, k_negative=0, store_negatives=False),
    "merit": System("merit", memory=True),
    "reflexion": System("reflexion", memory=True, typed=False, k_positive=2, k_negative=2, reflect=True),
}


def get_system(name: str) -> System:
    if name not in SYSTEMS:
        raise ValueError(f"unknown system {name!r} (known: {', '.join(SYSTEMS)})")
    return SYSTEMS[name]


class SystemMemory:
    """The knowledge base as one system sees it: what the loop's retrieve/add_experience mean."""

    def __init__(self, kb, system: System):
        self.kb, self.system = kb, system

    def retrieve(self, query: RetrievalQuery) -> RetrievalResult:
        update: dict[str, int | None] = {"k_positive": self.system.k_positive, "k_negative": self.system.k_negative}
        if not self.system.typed:
            update["failure_type"] = None
        return self.kb.retrieve(query.model_copy(update=update))

    def add_experience(self, experience: Experience | None) -> int | None:
        if experience is None or (experience.polarity == "-" and not self.system.store_negatives):
            return None
        return self.kb.add_experience(experience)
