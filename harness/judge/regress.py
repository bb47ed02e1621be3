"""CI regression: compare per-unit categories with a committed baseline.

A regression is a unit that was `correct` in the baseline and is anything else now (or is gone).
Improvements (a unit newly `correct`) are listed, never counted against the run; other moves
(e.g. `wrong` → `rejected`) are listed as changes.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import BaseModel, ConfigDict

from harness.exceptions import read_input
from harness.judge.categories import Category


class Baseline(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    schema_name: str
    provenance: str | None  # transcript provenance the categories were judged against
    categories: dict[str, str]  # unit id -> category


@dataclass
class RegressionResult:
    regressions: list[tuple[str, str, str]] = field(default_factory=list)  # (unit, was, now)
    improvements: list[tuple[str, str, str]] = field(default_factory=list)
    changes: list[tuple[str, str, str]] = field(default_factory=list)
    new_units: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.regressions


def compare(baseline: Baseline, current: dict[str, str]) -> RegressionResult:
    result = RegressionResult()
    for unit, was in sorted(baseline.categories.items()):
        now = current.get(unit, "missing")
        if was == now:
            continue
        if was == Category.CORRECT:
            result.regressions.append((unit, was, now))
        elif now == Category.CORRECT:
            result.improvements.append((unit, was, now))
        else:
            result.changes.append((unit, was, now))
    result.new_units = sorted(set(current) - set(baseline.categories))
    return result


def load_baseline(path: Path) -> Baseline:
    return read_input(path, "baseline", Baseline.model_validate_json)


def write_baseline(path: Path, schema: str, provenance: str | None, current: dict[str, str]) -> None:
    data = Baseline(schema_name=schema, provenance=provenance, categories=dict(sorted(current.items())))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data.model_dump(), indent=2) + "\n", encoding="utf-8")
