"""SWE-bench instances and prediction files: the boundary models and their readers.

Reading never raises on bad content: every line that is not an instance (or a prediction) becomes
a per-line error with its line number, and the rest is read. FAIL_TO_PASS / PASS_TO_PASS are lists
of pytest node ids; Hugging Face exports store them as JSON-encoded strings, which are accepted too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator


class SweInstance(BaseModel):
    """One task in SWE-bench's format (the fields SWE-bench and SWE-bench Verified publish)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    instance_id: str = Field(min_length=1)
    repo: str = Field(min_length=1, description="owner/name")
    base_commit: str = Field(min_length=4)
    problem_statement: str = Field(min_length=1)
    test_patch: str = ""
    FAIL_TO_PASS: tuple[str, ...] = Field(min_length=1)
    PASS_TO_PASS: tuple[str, ...] = ()
    environment_setup_commit: str | None = None
    version: str | None = None
    patch: str = ""  # the gold patch: never shown to an agent
    hints_text: str = ""
    created_at: str | None = None
    difficulty: str | None = None

    @field_validator("FAIL_TO_PASS", "PASS_TO_PASS", mode="before")
    @classmethod
    def _json_list(cls, value):
        if isinstance(value, str):
            try:
                value = json.loads(value)
            except json.JSONDecodeError as exc:
                raise ValueError(f"expected a list of test ids or its JSON text: {exc}") from exc
        return value

    @property
    def repo_name(self) -> str:
        return self.repo.rsplit("/", 1)[-1]

    @property
    def clone_names(self) -> tuple[str, str]:
        """Where a clone may sit in `--repos DIR`: SWE-bench's `owner__name`, or plain `name`."""
        return self.repo.replace("/", "__"), self.repo_name


class Prediction(BaseModel):
    """One line of a SWE-bench predictions file."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    instance_id: str = Field(min_length=1)
    model_name_or_path: str = ""
    model_patch: str | None = ""


@dataclass(frozen=True)
class LineError:
    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


def _records(path: Path) -> tuple[list[tuple[int, object]], list[LineError]]:
    """(line, parsed JSON) for a JSONL file, or the items of a JSON list (SWE-bench accepts both)."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        return [], [LineError(str(path), 0, f"cannot read: {exc}")]
    if text.lstrip().startswith("["):
        try:
            return [(i + 1, item) for i, item in enumerate(json.loads(text))], []
        except json.JSONDecodeError as exc:
            return [], [LineError(str(path), exc.lineno, f"not JSON: {exc.msg}")]
    out, errors = [], []
    for lineno, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            out.append((lineno, json.loads(line)))
        except json.JSONDecodeError as exc:
            errors.append(LineError(str(path), lineno, f"not JSON: {exc.msg}"))
    return out, errors


def _first_error(err: ValidationError) -> str:
    first = err.errors()[0]
    where = ".".join(str(p) for p in first["loc"]) or "record"
    more = f" (and {err.error_count() - 1} more)" if err.error_count() > 1 else ""
    return f"{where}: {first['msg']}{more}"


def load_instances(path: Path) -> tuple[list[SweInstance], list[LineError]]:
    records, errors = _records(Path(path))
    out, seen = [], set()
    for lineno, rec in records:
        try:
            inst = SweInstance.model_validate(rec)
        except ValidationError as exc:
            errors.append(LineError(str(path), lineno, f"not an instance: {_first_error(exc)}"))
            continue
        if inst.instance_id in seen:
            errors.append(LineError(str(path), lineno, f"duplicate instance_id {inst.instance_id!r}"))
            continue
        seen.add(inst.instance_id)
        out.append(inst)
    return out, errors


def load_predictions(path: Path) -> tuple[dict[str, Prediction], list[LineError]]:
    records, errors = _records(Path(path))
    out: dict[str, Prediction] = {}
    for lineno, rec in records:
        try:
            pred = Prediction.model_validate(rec)
        except ValidationError as exc:
            errors.append(LineError(str(path), lineno, f"not a prediction: {_first_error(exc)}"))
            continue
        if pred.instance_id in out:
            errors.append(LineError(str(path), lineno, f"second prediction for {pred.instance_id!r} ignored"))
            continue
        out[pred.instance_id] = pred
    return out, errors


def write_jsonl(path: Path, models: list[BaseModel]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(m.model_dump_json(exclude_none=False) + "\n" for m in models), encoding="utf-8")
