"""Score a predictions file in the benchmarks' own formats: execution accuracy, overall and per
difficulty.

Spider: a text file, one SQL per line in question order (a trailing "\\t<db_id>" is accepted).
BIRD:   a JSON object {"<index>": "<SQL>\\t----- bird -----\\t<db_id>"}.
A question without a prediction counts as wrong; entries the data directory could not load are
listed and not counted (the total is the questions that can be judged).
"""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict
from tqdm import tqdm

from migrator.agent.tasks.text_to_sql.data import BadEntry, DataError, Dataset
from migrator.agent.tasks.text_to_sql.judge import ExecutionJudge

BIRD_SEPARATOR = "\t----- bird -----\t"


class Bucket(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    correct: int
    total: int

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else 0.0


class EntryScore(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    index: int
    db_id: str
    difficulty: str
    status: str
    error: str = ""


class ScoreReport(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    correct: int
    total: int
    by_difficulty: dict[str, Bucket]
    rule: str
    bad_entries: list[BadEntry] = []
    prediction_problems: list[str] = []
    entries: list[EntryScore] = []

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else 0.0

    def summary(self) -> dict:
        """What `--json` writes: the benchmark figures plus what could not be scored."""
        return self.model_dump(mode="json", exclude={"entries"})


def read_predictions(path: Path, dataset: Dataset) -> tuple[dict[int, str], list[str]]:
    """index -> predicted SQL, and the problems found in the file (reported, never fatal)."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise DataError(f"cannot read predictions {path}: {err}") from err
    if text.lstrip().startswith("{"):
        return _bird_predictions(text, dataset)
    return _spider_predictions(text, dataset)


def _spider_predictions(text: str, dataset: Dataset) -> tuple[dict[int, str], list[str]]:
    lines, problems, out = text.splitlines(), [], {}
    if len(lines) != dataset.size:
        problems.append(f"{len(lines)} prediction line(s) for {dataset.size} question(s)")
    dbs = _db_ids(dataset)
    for index, line in enumerate(lines[: dataset.size]):
        sql, _, db_id = line.partition("\t")
        if db_id.strip() and dbs.get(index) and db_id.strip() != dbs[index]:
            problems.append(f"line {index + 1}: db_id {db_id.strip()!r}, the question is on {dbs[index]!r}")
            continue
        out[index] = sql
    return out, problems


def _bird_predictions(text: str, dataset: Dataset) -> tuple[dict[int, str], list[str]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise DataError(f"predictions are not valid JSON: {err}") from err
    problems, out, dbs = [], {}, _db_ids(dataset)
    for key, value in data.items():
        if not (key.isdigit() and isinstance(value, str)):
            problems.append(f"key {key!r}: expected a question index and a string")
            continue
        sql, _, db_id = value.partition(BIRD_SEPARATOR)
        index = int(key)
        if db_id.strip() and dbs.get(index) and db_id.strip() != dbs[index]:
            problems.append(f"key {key}: db_id {db_id.strip()!r}, the question is on {dbs[index]!r}")
            continue
        out[index] = sql
    return out, problems


def _db_ids(dataset: Dataset) -> dict[int, str]:
    return {e.index: e.db_id for e in dataset.entries} | {b.index: b.db_id for b in dataset.bad}


def score_predictions(dataset: Dataset, predictions: dict[int, str], progress: bool = False) -> ScoreReport:
    judge = ExecutionJudge(dataset)
    scores: list[EntryScore] = []
    buckets: dict[str, tuple[int, int]] = {}
    for entry in tqdm(dataset.entries, desc="scoring", unit="q", disable=not progress):
        outcome = judge.judge(entry, predictions.get(entry.index))
        scores.append(
            EntryScore(
                index=entry.index,
                db_id=entry.db_id,
                difficulty=entry.difficulty,
                status=outcome.status,
                error=outcome.error,
            )
        )
    bad = list(dataset.bad) + [
        BadEntry(index=s.index, db_id=s.db_id, reason=s.error) for s in scores if s.status == "gold error"
    ]
    judged = [s for s in scores if s.status != "gold error"]
    for s in judged:
        c, t = buckets.get(s.difficulty, (0, 0))
        buckets[s.difficulty] = (c + (s.status == "correct"), t + 1)
    return ScoreReport(
        correct=sum(s.status == "correct" for s in judged),
        total=len(judged),
        by_difficulty={k: Bucket(correct=c, total=t) for k, (c, t) in sorted(buckets.items())},
        rule=judge.rule,
        bad_entries=sorted(bad, key=lambda b: b.index),
        entries=scores,
    )


def score_file(dataset: Dataset, path: Path, progress: bool = False) -> ScoreReport:
    predictions, problems = read_predictions(path, dataset)
    report = score_predictions(dataset, predictions, progress)
    return report.model_copy(update={"prediction_problems": problems})


def score_markdown(report: ScoreReport, title: str) -> str:
    lines = [f"# Execution accuracy: {title}", "", f"Rule: {report.rule}.", "", "| difficulty | correct | total | EX |"]
    lines.append("|---|---:|---:|---:|")
    for name, b in report.by_difficulty.items():
        lines.append(f"| {name} | {b.correct} | {b.total} | {100 * b.accuracy:.2f} % |")
    lines.append(f"| **all** | {report.correct} | {report.total} | {100 * report.accuracy:.2f} % |")
    if report.bad_entries:
        lines += ["", f"Not counted ({len(report.bad_entries)} entries the data cannot judge):", ""]
        lines += [f"- #{b.index} {b.db_id}: {b.reason}" for b in report.bad_entries]
    if report.prediction_problems:
        lines += ["", "Problems in the predictions file:", ""] + [f"- {p}" for p in report.prediction_problems]
    return "\n".join(lines) + "\n"
