"""A deterministic model shipped in the package, for tests and demos (`scripted`, `scripted:<yaml>`).

It answers by rules: the first rule whose `when` matches the last user message gives the answer.
A rule may hold several answers, consumed in order across calls (the last one then repeats), so a
test can script "wrong first, right on the second attempt". Token counts are whitespace tokens,
so the bookkeeping the agent reports is exercised with stable numbers.

In Python:  ScriptedModel(rules=[ScriptRule(when="ORA-01403", answers=["...", "..."])], default="...")
In YAML:    default: "..."
            rules:
              - when: "ORA-01403"          # substring
                answers: ["...", "..."]
              - regex: "CONNECT\\s+BY"      # or a regular expression (re.search)
                answer: "..."
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, model_validator

from migrator.agent.models.base import Completion, Message, ModelError

DEFAULT_ANSWER = "(scripted model: no rule matched this prompt)"
_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True)
class ScriptRule:
    when: str
    answers: tuple[str, ...] | list[str] | str
    regex: bool = False  # False: `when` is a plain substring
    _pattern: re.Pattern | None = field(default=None, init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        answers = (self.answers,) if isinstance(self.answers, str) else tuple(self.answers)
        if not answers:
            raise ValueError(f"rule {self.when!r} has no answers")
        object.__setattr__(self, "answers", answers)
        if self.regex:
            object.__setattr__(self, "_pattern", re.compile(self.when))

    def matches(self, text: str) -> bool:
        return bool(self._pattern.search(text)) if self._pattern else self.when in text


def count_tokens(text: str) -> int:
    return len(_TOKEN.findall(text))


class ScriptedModel:
    def __init__(self, rules: list[ScriptRule] | None = None, default: str = DEFAULT_ANSWER, *, name: str = "scripted"):
        self.rules = list(rules or [])
        self.default = default
        self.name = name
        self.calls: list[list[Message]] = []  # every prompt seen, for tests that inspect prompts
        self._used = [0] * len(self.rules)  # answers consumed per rule
        self._lock = threading.Lock()

    def complete(
        self,
        messages: list[Message],
        *,
        temperature: float = 0.0,
        max_tokens: int = 2048,
        stop: list[str] | None = None,
    ) -> Completion:
        with self._lock:
            self.calls.append(list(messages))
            answer = self._answer(_last_user_text(messages))
            call_no = len(self.calls)
        text, reason = _apply_limits(answer, max_tokens, stop)
        return Completion(
            text=text,
            input_tokens=sum(count_tokens(m.content) for m in messages),
            output_tokens=count_tokens(text),
            latency_s=0.0,
            stop_reason=reason,
            raw_id=f"{self.name}-{call_no}",
            model=self.name,
        )

    def _answer(self, prompt: str) -> str:
        for i, rule in enumerate(self.rules):
            if rule.matches(prompt):
                index = min(self._used[i], len(rule.answers) - 1)
                self._used[i] += 1
                return rule.answers[index]
        return self.default


def _last_user_text(messages: list[Message]) -> str:
    return next((m.content for m in reversed(messages) if m.role == "user"), "")


def _apply_limits(answer: str, max_tokens: int, stop: list[str] | None) -> tuple[str, str]:
    """Behave like a real server: cut at the first stop sequence, then at max_tokens tokens."""
    reason = "end_turn"
    cuts = [answer.find(s) for s in stop or [] if s and s in answer]
    if cuts:
        answer, reason = answer[: min(cuts)], "stop_sequence"
    tokens = list(_TOKEN.finditer(answer))
    if len(tokens) > max_tokens:
        end = tokens[max_tokens - 1].end() if max_tokens > 0 else 0
        answer, reason = answer[:end], "max_tokens"
    return answer, reason


class _RuleSpec(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    when: str | None = None
    regex: str | None = None
    answers: list[str] | None = None
    answer: str | None = None

    @model_validator(mode="after")
    def _exactly_one_each(self) -> _RuleSpec:
        if (self.when is None) == (self.regex is None):
            raise ValueError("a rule needs exactly one of `when` (substring) or `regex`")
        if (self.answers is None) == (self.answer is None):
            raise ValueError("a rule needs exactly one of `answers` (list) or `answer`")
        return self

    def to_rule(self) -> ScriptRule:
        answers = self.answers if self.answers is not None else [self.answer]
        if self.regex is not None:
            return ScriptRule(when=self.regex, answers=answers, regex=True)
        return ScriptRule(when=self.when, answers=answers)


class _ScriptFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    default: str = DEFAULT_ANSWER
    rules: list[_RuleSpec] = []


def load_script(path: Path, *, name: str | None = None) -> ScriptedModel:
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        spec = _ScriptFile.model_validate(data)
        rules = [r.to_rule() for r in spec.rules]
    except (OSError, yaml.YAMLError, ValidationError, re.error) as err:
        raise ModelError(f"cannot load scripted model from {path}: {err}") from err
    return ScriptedModel(rules, spec.default, name=name or f"scripted:{path}")
