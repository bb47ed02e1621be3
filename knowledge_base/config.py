"""Every threshold of the knowledge base in one frozen object, recorded in every snapshot.

The admission values are EPAM's (eq. 10, fixed on validation data before any test run); the retrieval
values are MERIT's (Section 3.2 and Appendix D). Changing one is a configuration change that shows up
in the snapshot manifest, never a silent code edit.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Tier = Literal["G0", "G1", "G2", "G3"]
TIERS: tuple[Tier, ...] = ("G0", "G1", "G2", "G3")


_TIER_WEIGHTS: dict[Tier, float] = {"G0": 0.10, "G1": 0.50, "G2": 0.80, "G3": 1.00}


class KBConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    # Admission: c_r = (alpha + sum w(e_j) s_j) / (alpha + beta + sum w(e_j)).
    alpha: float = Field(1.0, gt=0)
    beta: float = Field(1.0, gt=0)
    tier_weights: dict[Tier, float] = Field(default_factory=lambda: dict(_TIER_WEIGHTS))
    admit_confidence: float = Field(0.65, ge=0, le=1)
    admit_support: int = Field(2, ge=1)
    advisory_tiers: tuple[Tier, ...] = ("G0", "G1")

    # Retrieval.
    dense_weight: float = Field(0.75, ge=0, le=1)
    lexical_weight: float = Field(0.25, ge=0, le=1)
    type_min: int = Field(3, ge=1)
    k_positive: int = Field(3, ge=0)
    k_negative: int = Field(1, ge=0)
    # MMR on by default (the design asks for diversity: one entry must not fill every slot); None
    # turns it off. lambda weighs relevance against redundancy among the mmr_pool best.
    mmr_lambda: float | None = Field(0.7, ge=0, le=1)
    mmr_pool: int = Field(20, ge=1)
    # Added to the hybrid score of admitted rules: they passed a human gate (a fix cycle).
    rule_bonus: float = Field(0.10, ge=0, le=1)
    bm25_k1: float = Field(1.5, gt=0)
    bm25_b: float = Field(0.75, ge=0, le=1)

    # Derived indexes: persist after this many writes (the generation counter covers the gap), and
    # fold BM25 documents added since the last build into the base when the delta grows past
    # max(delta_min, delta_share * base).
    flush_every: int = Field(64, ge=1)
    bm25_delta_min: int = Field(512, ge=1)
    bm25_delta_share: float = Field(0.10, gt=0)

    @model_validator(mode="after")
    def _check(self) -> KBConfig:
        if set(self.tier_weights) != set(TIERS):
            raise ValueError("tier_weights needs exactly G0, G1, G2 and G3")
        weights = [self.tier_weights[t] for t in TIERS]
        if weights != sorted(weights):
            raise ValueError("tier weights must be non-decreasing G0 <= G1 <= G2 <= G3")
        if abs(self.dense_weight + self.lexical_weight - 1.0) > 1e-9:
            raise ValueError("dense_weight + lexical_weight must be 1")
        return self


DEFAULT_CONFIG = KBConfig()
