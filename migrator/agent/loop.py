"""The episode loop: candidate → verify → (classify → retrieve → prompt → extract → verify)* → finalize.

Task-agnostic: a task adapter (`migrator.agent.tasks.*`) says what the items are, how to judge a
candidate, how to prompt and how to read an answer. A task whose answers are steps in a workspace
rather than whole candidates (the SWE agent) defines `act(item, answer) -> (candidate or None,
note)`: the loop calls it instead of `extract`, judges only the candidates it returns, and records
the note as the attempt's outcome otherwise (so one attempt = one model call = one step). The judge — never the model — decides
whether a candidate is better; the model is called only for items that are not yet right, at
most `attempts` times. Each episode that used the model ends in one experience written to the
knowledge base: positive for a verified failed→correct transition, negative for the final failed
direction, with the tier the final verdict supports.

Two optional, task-agnostic hooks: `AgentConfig.follow = "latest"` repairs from the newest
candidate instead of the best judged so far (MERIT revises y(k-1) whatever it was); a task with
`reflection_messages(item, candidate, judgement, failure_type)` and `reflected(item, text)` gets
one extra model call before each repair (Reflexion-style), counted in that attempt's tokens.

Stream positions come from the knowledge base's store-wide clock when it has one
(`take_position`), so a later run continues after an earlier one instead of restarting at 0
(which would hide everything the earlier run learned from its early units). A task with
`relevance(item)` (e.g. the unit's constructs) gets the retrieval margin traced; an episode that
ends failed although memory showed it a verified fix records that as a contraindication of the fix.

`Task` is what every task adapter provides; each optional hook is a protocol of its own, asked
with isinstance: `Acting`, `Reflecting` and `Relevant` for tasks, `Clocked` and
`Contraindicating` for the knowledge base.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from harness.judge.categories import Category
from migrator.agent.models import Completion, Message, Model, ModelError, ModelValidationError

RANK: dict[str, int] = {Category.REJECTED: 0, Category.WRONG: 1, Category.UNVERIFIED: 2, Category.CORRECT: 3}
DEFAULT_POLICY = ("example-assisted", "spec-first", "dependency-decomposed")


class Judgement(Protocol):
    category: str
    tier: str
    reason: str
    steps_agreeing: int


@dataclass
class Item:
    id: str
    group: str
    candidate: str  # the deterministic rules' output
    source: str
    extra: dict = field(default_factory=dict)


J = TypeVar("J", bound=Judgement)


class Task(Protocol[J]):
    """A task adapter; `J` is its own judgement type (each task judges differently, and its
    methods take back what its `judge` returned)."""

    name: str

    def items(self) -> Iterator[Item]: ...
    def judge(self, item: Item, candidate: str) -> J: ...
    def needs_repair(self, judgement: J) -> bool: ...
    def classify(self, item: Item, candidate: str, judgement: J) -> str: ...
    def query_text(self, item: Item, judgement: J) -> str: ...
    def prompt(
        self, item: Item, candidate: str, judgement: J, failure_type: str, hits: Any, strategy: str
    ) -> list[Message]: ...
    def extract(self, answer: str) -> str | None: ...
    def commit(self, item: Item, final: str, judgement: J) -> None: ...
    def experience(self, item: Item, episode: Episode, position: int) -> Any: ...


# Optional hooks: a task or a knowledge base has them or not, and the loop asks with isinstance.
@runtime_checkable
class Acting(Protocol):
    """A task whose answers are steps in a workspace: `act` replaces `extract` (module docstring)."""

    def act(self, item: Item, answer: str) -> tuple[str | None, str]: ...


@runtime_checkable
class Reflecting(Protocol):
    """A task that asks for one reflection call before each repair, and takes its answer back."""

    def reflection_messages(self, item: Item, candidate: str, judgement: Any, failure_type: str) -> list[Message]: ...
    def reflected(self, item: Item, text: str) -> None: ...


@runtime_checkable
class Relevant(Protocol):
    """A task that names what an item is about (e.g. its constructs), for the retrieval margin."""

    def relevance(self, item: Item) -> Iterable[str]: ...


@runtime_checkable
class Clocked(Protocol):
    """A knowledge base with a store-wide stream clock."""

    def take_position(self) -> int: ...


@runtime_checkable
class Contraindicating(Protocol):
    """A knowledge base that records a shown fix which did not carry over."""

    def contraindicate(self, entry_id: int, note: str) -> None: ...


@dataclass
class AgentConfig:
    attempts: int = 3
    temperature: float = 0.0
    max_tokens: int = 4096
    policy: tuple[str, ...] = DEFAULT_POLICY
    held_out_targets: frozenset[str] = frozenset()
    follow: str = "best"  # "best": repair the best candidate judged so far; "latest": the newest one
    retrieval_k: tuple[int, int] | None = None  # (positives, negatives) per query; None: the store's config
    # what fills the prompt's memory section: None, the store's fixed typed retrieval; or a
    # migrator.agent.retrieval.controller.RetrievalController (the bandit, or one fixed arm)
    retrieval: Any = None


@dataclass
class Attempt:
    number: int
    strategy: str
    failure_type: str
    retrieved: list[int]
    input_tokens: int
    output_tokens: int
    latency_s: float
    cached: bool
    outcome: str  # the judged category, or "no code in answer"
    calls: int = 1  # model calls in this attempt (a reflection call adds one)
    shown_positive: list[int] = field(default_factory=list)  # verified entries in this attempt's prompt
    arm: str = ""  # the retrieval arm, when a controller chose the context
    context_key: str = ""  # the controller's context fingerprint
    reward: float | None = None  # verification-shaped reward (progress added), with a controller
    credit: float | None = None  # delayed credit at the end of the episode (eligibility traces)


@dataclass
class Episode:
    item_id: str
    initial: str
    final: str
    final_tier: str
    final_reason: str
    attempts: list[Attempt] = field(default_factory=list)
    final_text: str = ""
    experience_id: int | None = None
    seconds: float = 0.0
    model_error: str | None = None  # why the model could not be asked (this unit was not repaired)

    @property
    def tokens(self) -> int:
        return sum(a.input_tokens + a.output_tokens for a in self.attempts)


def _better(new: Judgement, old: Judgement) -> bool:
    if RANK[new.category] != RANK[old.category]:
        return RANK[new.category] > RANK[old.category]
    return new.steps_agreeing > old.steps_agreeing


def _attempt(
    task: Task[Any],
    model: Model,
    kb,
    item: Item,
    state: tuple,
    position: int,
    cfg: AgentConfig,
    number: int,
    last_seconds: float = 0.0,
) -> tuple[Attempt, str | None, Judgement | None]:
    candidate, judgement = state
    failure_type = task.classify(item, candidate, judgement)
    strategy = cfg.policy[min(number - 1, len(cfg.policy) - 1)]
    hits, decision = None, None
    if kb is not None:
        from knowledge_base.records import RetrievalQuery

        constructs = tuple(task.relevance(item)) if isinstance(task, Relevant) else ()
        query = RetrievalQuery(
            text=task.query_text(item, judgement),
            failure_type=failure_type,
            task_id=item.id,
            task_group=item.group,
            stream_position=position,
            held_out_targets=cfg.held_out_targets,
            k_positive=cfg.retrieval_k[0] if cfg.retrieval_k else None,
            k_negative=cfg.retrieval_k[1] if cfg.retrieval_k else None,
            relevant=frozenset(constructs),
        )
        if cfg.retrieval is None:
            hits = kb.retrieve(query)
        else:
            hits, decision = cfg.retrieval.choose(
                kb,
                query,
                family=f"{task.name}:{' '.join(sorted(constructs)[:3])}",
                failure=failure_type,
                attempt=number,
                seconds=last_seconds,
                source=item.source,
                candidate=candidate,
                constructs=constructs,
            )
    if strategy == "example-assisted" and not (hits and hits.positives):
        strategy = "direct"  # nothing eligible to show: say so in the record, do not pretend
    reflection = _reflect(task, model, item, state, failure_type, cfg)
    messages = task.prompt(item, candidate, judgement, failure_type, hits, strategy)
    completion: Completion = model.complete(messages, temperature=cfg.temperature, max_tokens=cfg.max_tokens)
    # skills are not knowledge-base entries: their ids are never recorded as retrieved entries
    retrieved = [h.id for h in (hits.positives + hits.negatives) if h.kind != "skill"] if hits else []
    new, note = _extract(task, item, completion.text)
    new_judgement = task.judge(item, new) if new is not None else None
    extra = [reflection] if reflection is not None else []
    record = Attempt(
        number,
        strategy,
        failure_type,
        retrieved,
        completion.input_tokens + sum(c.input_tokens for c in extra),
        completion.output_tokens + sum(c.output_tokens for c in extra),
        completion.latency_s + sum(c.latency_s for c in extra),
        completion.cached and all(c.cached for c in extra),
        new_judgement.category if new_judgement else note,
        calls=1 + len(extra),
        shown_positive=[h.id for h in hits.positives if h.kind != "skill"] if hits else [],
    )
    if decision is not None:
        record.arm, record.context_key = decision.arm, decision.fingerprint
        record.reward = cfg.retrieval.observe(decision, new_judgement)
    return record, new, new_judgement


def _reflect(task: Task[Any], model: Model, item: Item, state: tuple, failure_type: str, cfg: AgentConfig):
    """The optional reflection call: its answer goes back to the task, its cost into the attempt."""
    if not isinstance(task, Reflecting):
        return None
    messages = task.reflection_messages(item, state[0], state[1], failure_type)
    if not messages:
        return None
    completion = model.complete(messages, temperature=cfg.temperature, max_tokens=cfg.max_tokens)
    task.reflected(item, completion.text)
    return completion


def _extract(task: Task[Any], item: Item, answer: str) -> tuple[str | None, str]:
    if isinstance(task, Acting):
        return task.act(item, answer)
    return task.extract(answer), "no code in answer"


@dataclass
class ModelState:
    """The model of a run, and why it was given up, once it failed in a way no later unit avoids."""

    model: Model | None
    failure: str | None = None


def run_episode(task: Task[Any], state: ModelState, kb, item: Item, position: int, cfg: AgentConfig) -> Episode:
    t0 = time.perf_counter()
    candidate, judgement = item.candidate, task.judge(item, item.candidate)
    last_seconds = time.perf_counter() - t0  # how long a judgement of this unit takes (context key)
    episode = Episode(item.id, judgement.category, judgement.category, judgement.tier, judgement.reason)
    asking = state.model is not None or state.failure is not None
    controlled = cfg.retrieval is not None and kb is not None and asking and task.needs_repair(judgement)
    if controlled:
        cfg.retrieval.begin(item.id, judgement)
    while asking and task.needs_repair(judgement) and len(episode.attempts) < cfg.attempts:
        if state.failure is not None:
            episode.model_error = f"not attempted: {state.failure}"
            break
        if state.model is None:  # never: `asking` means a model or a failure (this narrows the type)
            break
        try:
            started = time.perf_counter()
            record, new, new_judgement = _attempt(
                task,
                state.model,
                kb,
                item,
                (candidate, judgement),
                position,
                cfg,
                len(episode.attempts) + 1,
                last_seconds,
            )
            last_seconds = time.perf_counter() - started
        except ModelError as err:
            episode.model_error = f"model failed: {err}"
            # A refused request is about this unit's prompt; anything else (missing extra, no
            # region, denied, unreachable after retries) would fail every later unit the same way.
            if not isinstance(err, ModelValidationError):
                state.failure = f"the model failed on {item.id}: {err}"
            break
        episode.attempts.append(record)
        if (
            new is not None
            and new_judgement is not None
            and (cfg.follow == "latest" or _better(new_judgement, judgement))
        ):
            candidate, judgement = new, new_judgement
    episode.final, episode.final_tier, episode.final_reason = judgement.category, judgement.tier, judgement.reason
    episode.final_text = candidate
    task.commit(item, candidate, judgement)
    if controlled:
        _credit(cfg.retrieval, task, item, episode)
    if episode.attempts and kb is not None:
        episode.experience_id = kb.add_experience(task.experience(item, episode, position))
        _contraindicate(kb, item, episode)
    episode.seconds = time.perf_counter() - t0
    return episode


def _credit(controller, task: Task[Any], item: Item, episode: Episode) -> None:
    """Delayed credit for the episode's decisions, copied onto its attempts (the run's report)."""
    constructs = tuple(task.relevance(item)) if isinstance(task, Relevant) else ()
    decisions = controller.current_decisions()
    controller.finish(item, episode, item.candidate, constructs)
    by_attempt = {d.attempt: d for d in decisions}
    for a in episode.attempts:
        if a.number in by_attempt:
            a.credit = by_attempt[a.number].credit


def _contraindicate(kb, item: Item, episode: Episode) -> None:
    """The unit stayed failed although memory showed it verified fixes: those fixes did not carry over."""
    if not isinstance(kb, Contraindicating) or episode.final == Category.CORRECT:
        return
    shown = sorted({i for a in episode.attempts for i in a.shown_positive})
    for entry_id in shown:
        kb.contraindicate(entry_id, f"{item.id} ({episode.attempts[0].failure_type} -> {episode.final})")


def stream_position(kb, fallback: int) -> int:
    """The next position on the store-wide clock, or `fallback` for a memory without one."""
    return kb.take_position() if isinstance(kb, Clocked) else fallback


def run_agent(
    task: Task[Any],
    model: Model | None,
    kb,
    cfg: AgentConfig,
    progress=None,
    failure: str | None = None,
    after: Callable[[int, Item, Episode], None] | None = None,
) -> tuple[list[Episode], str | None]:
    """Every item's episode, and why the model was given up (None when it never was); `failure`
    says why there is no model at all (every item that needs repair is reported with it).
    `after(position, item, episode)` runs after each episode (e.g. checkpoints)."""
    state = ModelState(model, failure)
    episodes = []
    for offset, item in enumerate(task.items()):
        position = stream_position(kb, offset)
        episodes.append(run_episode(task, state, kb, item, position, cfg))
        if after is not None:
            after(position, item, episodes[-1])
        if progress is not None:
            progress.update(1)
    return episodes, state.failure
