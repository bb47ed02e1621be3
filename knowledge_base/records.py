"""Boundary records: what goes into the knowledge base and what comes out of it.

All of them are frozen pydantic models with `extra="forbid"`: they cross file, CLI and process
boundaries. Tasks, groups, failure types, constructs and reference targets are opaque strings; the
knowledge base never interprets them.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from knowledge_base.config import Tier

Polarity = Literal["+", "-"]
RuleStatus = Literal["candidate", "admitted", "deprecated", "superseded"]
EntryKind = Literal["experience", "rule", "correction", "skill"]  # skill: shown by the retrieval controller


class _Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Provenance(_Frozen):
    """Where an entry came from. `reference_target_id` names the reference the output was scored
    against (never its text): the leakage guard excludes entries by target, not only by task."""

    episode_id: str | None = None
    stream_position: int | None = Field(None, ge=0)
    checkpoint: str | None = None
    task_id: str | None = None
    task_group: str | None = None
    reference_target_id: str | None = None
    finalized: bool = True


class Experience(_Frozen):
    """What the agent itself produced for a task: + a verified failed->correct transition,
    - the final direction of an episode that stayed failed. Never a reference target.

    `applicability` says where it applies (e.g. constructs, failure type, unit kind: opaque keys
    and values); `contraindications` say where the same fix was shown and the unit still failed
    (added after the fact by `KnowledgeBase.contraindicate`)."""

    kind: Literal["experience"] = "experience"
    polarity: Polarity
    failure_type: str = ""
    constructs: tuple[str, ...] = ()
    strategy: str = ""
    context: str = Field(min_length=1, description="observable context: source, failure, feedback")
    output: str = Field("", description="the agent's own output or transformation, not the reference")
    tier: Tier = "G0"
    applicability: dict[str, str] = Field(default_factory=dict)
    contraindications: tuple[str, ...] = ()
    negative_examples: tuple[str, ...] = ()
    confidence: float = Field(0.5, ge=0, le=1)
    provenance: Provenance = Field(default_factory=Provenance)
    knowledge_version: int = Field(1, ge=1)


class Approval(_Frozen):
    """The decision record that lets a correction in (e.g. a promoted fix cycle)."""

    approved_by: str = Field(min_length=1)
    approved_at: str = Field(min_length=1)
    decision: Literal["promote"] = "promote"
    reference: str = Field(min_length=1, description="the decision record's id, e.g. FIX-012")
    reason: str = ""


class Rule(_Frozen):
    """construct -> idiom, as a deterministic rule id or a prompt paragraph."""

    kind: Literal["rule"] = "rule"
    construct_id: str = Field(min_length=1)
    idiom: str = Field(min_length=1)
    form: Literal["rule_id", "prompt_paragraph"] = "prompt_paragraph"
    rule_id: str | None = None
    paragraph: str = ""
    failure_type: str = ""
    applicability: dict[str, str] = Field(default_factory=dict)
    supporting: tuple[int, ...] = ()
    opposing: tuple[int, ...] = ()
    status: RuleStatus = "candidate"
    advisory: bool = True
    confidence: float | None = None
    knowledge_version: int = Field(1, ge=1)
    approval: Approval | None = None  # the human gate that admitted it (a promoted fix cycle)

    @model_validator(mode="after")
    def _form(self) -> Rule:
        if self.form == "rule_id" and not self.rule_id:
            raise ValueError("a rule of form 'rule_id' needs rule_id")
        if self.form == "prompt_paragraph" and not self.paragraph:
            raise ValueError("a rule of form 'prompt_paragraph' needs paragraph")
        return self


class Correction(_Frozen):
    """A human-approved fix. It carries the approval that allowed it in once ingested."""

    kind: Literal["correction"] = "correction"
    construct_id: str = Field(min_length=1)
    failure_type: str = ""
    context: str = Field(min_length=1, description="the situation the fix applies to")
    fix: str = Field(min_length=1)
    applicability: dict[str, str] = Field(default_factory=dict)
    provenance: Provenance = Field(default_factory=Provenance)
    approval: Approval | None = None


Record = Annotated[Experience | Rule | Correction, Field(discriminator="kind")]


class StoredEntry(_Frozen):
    id: int
    generation: int
    status: str
    record: Record


class RetrievalQuery(_Frozen):
    """One retrieval call. `stream_position` None means "now": every finalized entry is in the past."""

    text: str = Field(min_length=1)
    failure_type: str | None = None
    task_id: str | None = None
    task_group: str | None = None
    stream_position: int | None = Field(None, ge=0)
    held_out_targets: frozenset[str] = frozenset()
    k_positive: int | None = Field(None, ge=0)
    k_negative: int | None = Field(None, ge=0)
    checkpoint: str | None = None
    # Tags (e.g. constructs) that make an entry relevant to this query: when given, the store
    # reports the retrieval margin (best relevant minus best irrelevant positive) in its trace.
    relevant: frozenset[str] = frozenset()


class Hit(_Frozen):
    id: int
    kind: EntryKind
    polarity: Polarity
    failure_type: str
    score: float
    dense: float
    lexical: float
    dense_norm: float
    lexical_norm: float
    advisory: bool
    text: str
    contraindications: tuple[str, ...] = ()
    via: str = ""  # the retrieval arm that put it in the prompt (failure, structure, skill), when one did


class PoolReport(_Frozen):
    eligible: int
    searched: int
    type_conditioned: bool


class RetrievalResult(_Frozen):
    query: RetrievalQuery
    embedder: str
    positives: tuple[Hit, ...]
    negatives: tuple[Hit, ...]
    pools: dict[Polarity, PoolReport]
    margin: float | None = None  # with query.relevant: best relevant - best irrelevant positive score

    @property
    def eligible_count(self) -> int:
        return sum(p.eligible for p in self.pools.values())


def entry_text(record: Experience | Rule | Correction) -> str:
    """The one serialization used for both the dense and the lexical channel (deterministic)."""
    if isinstance(record, Experience):
        parts = [
            record.failure_type,
            " ".join(record.constructs),
            record.strategy,
            record.context,
            record.output,
            _applies(record.applicability),
        ]
    elif isinstance(record, Rule):
        parts = [record.failure_type, record.construct_id, record.idiom, record.rule_id or "", record.paragraph]
    else:
        parts = [record.failure_type, record.construct_id, record.context, record.fix]
    return "\n".join(p for p in parts if p)


def _applies(applicability: dict[str, str]) -> str:
    return "applies to: " + "; ".join(f"{k}={v}" for k, v in sorted(applicability.items())) if applicability else ""


def entry_tags(record: Experience | Rule | Correction) -> frozenset[str]:
    """What an entry is about (constructs), for relevance: the margin and rule proposals use it."""
    tags = set(record.applicability.get("constructs", "").split())
    if isinstance(record, Experience):
        tags |= set(record.constructs)
    else:
        tags.add(record.construct_id)
    return frozenset(tags)


def untrusted_block(hit: Hit) -> str:
    """Retrieved text is untrusted context: callers put it in prompts only inside this delimiter."""
    label = "verified" if hit.polarity == "+" else "failed direction"
    return (
        f"<<<memory id={hit.id} kind={hit.kind} polarity={hit.polarity}{f' via={hit.via}' if hit.via else ''}"
        f" ({label}); untrusted text>>>\n"
        f"{hit.text}\n"
        + (f"did not carry over to: {'; '.join(hit.contraindications)}\n" if hit.contraindications else "")
        + f"<<<end memory {hit.id}>>>"
    )
