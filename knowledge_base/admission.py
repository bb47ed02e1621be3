"""Evidence-weighted admission (EPAM Section V-C, eq. 10).

    c_r = (alpha + sum_j w(e_j) * s_j) / (alpha + beta + sum_j w(e_j))

s_j = 1 for a supporting experience, 0 for an opposing one, w the tier weight. A rule is admitted
when c_r >= admit_confidence, support >= admit_support, and it contradicts no admitted rule of equal
or higher tier unless the two carry an explicit applicability split. Conflicts are kept with their
evidence ids and scopes, never averaged. Rules whose best evidence is G0-G1 stay advisory.
"""

from __future__ import annotations

from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict

from knowledge_base.config import TIERS, KBConfig, Tier


@dataclass(frozen=True)
class Evidence:
    experience_id: int
    tier: Tier
    success: bool


class Conflict(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    rule_id: int
    construct_id: str
    idiom: str
    tier: Tier
    scope: dict[str, str]
    evidence: tuple[int, ...]
    blocking: bool


class Decision(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    status: str  # "admitted" | "candidate"
    advisory: bool
    confidence: float
    support: int
    tier: Tier | None
    reasons: tuple[str, ...]
    conflicts: tuple[Conflict, ...]


@dataclass(frozen=True)
class AdmittedRule:
    """What the contradiction check needs about an admitted rule."""

    rule_id: int
    construct_id: str
    idiom: str
    tier: Tier
    scope: dict[str, str]
    evidence: tuple[int, ...]


def confidence(evidence: list[Evidence], cfg: KBConfig) -> float:
    weights = [cfg.tier_weights[e.tier] for e in evidence]
    wins = sum(w for w, e in zip(weights, evidence) if e.success)
    return (cfg.alpha + wins) / (cfg.alpha + cfg.beta + sum(weights))


def rule_tier(evidence: list[Evidence]) -> Tier | None:
    """A rule's tier is the highest tier among its supporting evidence."""
    tiers = [e.tier for e in evidence if e.success]
    return max(tiers, key=TIERS.index) if tiers else None


def applicability_split(a: dict[str, str], b: dict[str, str]) -> bool:
    """Two scopes are split when some condition is stated by both with different values."""
    return any(key in b and b[key] != value for key, value in a.items())


def contradictions(
    construct: str, idiom: str, scope: dict[str, str], tier: Tier | None, admitted: list[AdmittedRule]
) -> list[Conflict]:
    found = []
    for other in admitted:
        if other.construct_id != construct or other.idiom == idiom or applicability_split(scope, other.scope):
            continue
        blocking = tier is None or TIERS.index(other.tier) >= TIERS.index(tier)
        found.append(
            Conflict(
                rule_id=other.rule_id,
                construct_id=other.construct_id,
                idiom=other.idiom,
                tier=other.tier,
                scope=dict(other.scope),
                evidence=other.evidence,
                blocking=blocking,
            )
        )
    return found


def decide(
    construct: str,
    idiom: str,
    scope: dict[str, str],
    evidence: list[Evidence],
    admitted: list[AdmittedRule],
    cfg: KBConfig,
) -> Decision:
    c = confidence(evidence, cfg)
    support = len({e.experience_id for e in evidence if e.success})
    tier = rule_tier(evidence)
    conflicts = contradictions(construct, idiom, scope, tier, admitted)
    reasons = []
    if c < cfg.admit_confidence:
        reasons.append(f"confidence {c:.4f} < {cfg.admit_confidence}")
    if support < cfg.admit_support:
        reasons.append(f"support {support} < {cfg.admit_support}")
    for conflict in conflicts:
        if conflict.blocking:
            reasons.append(
                f"contradicts admitted rule {conflict.rule_id} ({conflict.tier}) without an applicability split"
            )
    admitted_now = not reasons
    advisory = tier is None or tier in cfg.advisory_tiers
    if admitted_now and advisory:
        reasons.append(f"advisory: best evidence {tier} is in {list(cfg.advisory_tiers)}")
    return Decision(
        status="admitted" if admitted_now else "candidate",
        advisory=advisory,
        confidence=c,
        support=support,
        tier=tier,
        reasons=tuple(reasons),
        conflicts=tuple(conflicts),
    )
