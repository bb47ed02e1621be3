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

A script with `skills` is a *skill model* (`SkillModel`), the two test models of `migrator eval`:
it knows the right answer for every unit (`answers`, a YAML map unit id -> text) and, per skill
(a family of units, e.g. those that print with DBMS_OUTPUT), whether it can use it. With
`memory: required` (memory-sensitive) it answers a unit of a skill only when the prompt holds a
retrieved *verified* memory block for that skill (or the unit is one it knows `direct`ly); with
`memory: ignored` (memory-blind) it makes the same repairs whatever memory shows. `flaky` makes a
share of its calls fail by a hash of the prompt: a model whose answers vary with the prompt but
whose success does not depend on memory.

The retrieval controller's test models add `via` per skill and `context: exclusive`: an
*arm-sensitive* model repairs a family only when the verified block was chosen by one particular
retrieval arm (failure-matched, structurally matched, or a skill) and no block of another arm is in
the prompt (extra context of the wrong kind confuses it); an *arm-blind* one (`memory: ignored`)
repairs the same units whatever the prompt holds.
"""

from __future__ import annotations

import hashlib
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

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
        answers = self.answers if self.answers is not None else [self.answer or ""]  # one is set (validated)
        if self.regex is not None:
            return ScriptRule(when=self.regex, answers=answers, regex=True)
        return ScriptRule(when=self.when or "", answers=answers)


class _ScriptFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    default: str = DEFAULT_ANSWER
    rules: list[_RuleSpec] = []


# A retrieved verified block as `knowledge_base.records.untrusted_block` writes it.
_VERIFIED = re.compile(r"<<<memory id=(\d+) kind=\w+ polarity=\+[^>]*>>>\n(.*?)\n<<<end memory \1>>>", re.DOTALL)
# Any retrieved block's header, with the arm that chose it when a retrieval controller did.
_HEADER = re.compile(r"<<<memory id=\d+ kind=\w+ polarity=[+-](?: via=(\w+))?")
_VIA = re.compile(r" via=(\w+)")


class Skill(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    name: str
    units: str  # re.search over the unit id: which units need this skill
    evidence: str  # re.search inside a retrieved verified memory block: memory of this skill
    direct: str | None = None  # re.search over the unit id: units it repairs without memory
    # the kind of context this family needs (arm-sensitive models): the verified block must have been
    # put there by this retrieval arm (failure, structure, skill); None: any verified block will do
    via: str | None = None


class _SkillFile(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    memory: Literal["required", "ignored"]
    unit: str = r"^# Unit (?P<unit>\S+)$"  # finds the unit id in the prompt (re.MULTILINE)
    answers: str  # YAML file (relative to this one): unit id -> the right answer's text
    answer_format: str = "```sql\n{answer}\n```"
    skills: list[Skill]
    # "exclusive" (arm-sensitive): a prompt that also holds blocks another arm chose confuses the
    # model for a family that needs a particular kind of context; "any": extra context is harmless
    context: Literal["any", "exclusive"] = "any"
    default: str = "I cannot repair this unit."
    flaky: float = Field(0.0, ge=0, lt=1)


class SkillModel(ScriptedModel):
    """Answers by skill and memory (see the module docstring); every prompt is kept in `calls`."""

    def __init__(self, spec: _SkillFile, answers: dict[str, str], *, name: str):
        super().__init__([], spec.default, name=name)
        self.spec, self.answers = spec, answers
        self._unit = re.compile(spec.unit, re.MULTILINE)
        self._skills = [
            (s, re.compile(s.units), re.compile(s.evidence), s.direct and re.compile(s.direct)) for s in spec.skills
        ]
        self.decisions: list[tuple[str | None, str]] = []  # (unit, why) per call, for tests and reports

    def _answer(self, prompt: str) -> str:
        unit, why = self._decide(prompt)
        self.decisions.append((unit, why))
        if why != "answered" or unit is None:
            return self.default
        return self.spec.answer_format.format(answer=self.answers[unit])

    def _decide(self, prompt: str) -> tuple[str | None, str]:
        found = self._unit.search(prompt)
        unit = found.group("unit") if found else None
        skill = next((sk for sk in self._skills if unit is not None and sk[1].search(unit)), None)
        if unit is None or skill is None or unit not in self.answers:
            return unit, "no skill for this unit"
        spec, _, evidence, direct = skill
        if self.spec.memory == "required" and not (direct and direct.search(unit)):
            blocks = [
                m.group(2) for m in _VERIFIED.finditer(prompt) if spec.via is None or _via(m.group(0)) == spec.via
            ]
            if not any(evidence.search(b) for b in blocks):
                kind = f" chosen by the {spec.via} arm" if spec.via else ""
                return unit, f"no verified memory of {spec.name}{kind}"
            if self.spec.context == "exclusive" and spec.via is not None:
                others = {m.group(1) or "fixed" for m in _HEADER.finditer(prompt)} - {spec.via}
                if others:
                    return unit, f"confused by context from {', '.join(sorted(others))}"
        if self.spec.flaky and _fraction(prompt) < self.spec.flaky:
            return unit, "flaky"
        return unit, "answered"


def _via(block: str) -> str | None:
    header = block.split("\n", 1)[0]
    found = _VIA.search(header)
    return found.group(1) if found else None


def _fraction(text: str) -> float:
    return int(hashlib.sha256(text.encode("utf-8")).hexdigest()[:8], 16) / 0x1_0000_0000


def load_script(path: Path, *, name: str | None = None) -> ScriptedModel:
    path = Path(path)
    name = name or f"scripted:{path}"
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
        if isinstance(data, dict) and "skills" in data:
            spec = _SkillFile.model_validate(data)
            answers = yaml.safe_load((path.parent / spec.answers).read_text(encoding="utf-8")) or {}
            if not isinstance(answers, dict):
                raise ValueError(f"{spec.answers}: expected a map of unit id -> answer")
            re.compile(spec.unit)
            return SkillModel(spec, {str(k): str(v) for k, v in answers.items()}, name=name)
        script = _ScriptFile.model_validate(data)
        rules = [r.to_rule() for r in script.rules]
    except (OSError, yaml.YAMLError, ValidationError, ValueError, re.error) as err:
        raise ModelError(f"cannot load scripted model from {path}: {err}") from err
    return ScriptedModel(rules, script.default, name=name)
