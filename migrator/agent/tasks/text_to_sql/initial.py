"""The shared initial prediction: generated once per model (greedy), cached, reused by every system.

MERIT isolates the repair strategy by starting every system from the same first SQL. The cache is
a JSONL file per (model, prompt templates) under OUT/initial/; each line is one question, written
as soon as it is answered, so an interrupted generation continues where it stopped. A question the
model failed on is not cached (the next run asks again) and starts from no SQL.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError
from tqdm import tqdm

from migrator.agent.models import Model, ModelError, ModelValidationError
from migrator.agent.tasks.prompts import extract_sql
from migrator.agent.tasks.text_to_sql import prompts as p
from migrator.agent.tasks.text_to_sql.data import Entry


class InitialPrediction(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    uid: str
    question_hash: str
    sql: str | None
    input_tokens: int = 0
    output_tokens: int = 0
    cached: bool = False
    error: str | None = None


def question_hash(entry: Entry) -> str:
    text = json.dumps([entry.db_id, entry.question, entry.evidence])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cache_path(out: Path, model_spec: str, max_tokens: int) -> Path:
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", model_spec)[-60:].strip("_") or "model"
    key = hashlib.sha256(f"{model_spec}\n{p.template_hash()}\n{max_tokens}".encode()).hexdigest()[:10]
    return Path(out) / "initial" / f"{slug}-{key}.jsonl"


def load_cached(path: Path) -> dict[str, InitialPrediction]:
    found: dict[str, InitialPrediction] = {}
    if not path.is_file():
        return found
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            pred = InitialPrediction.model_validate_json(line)
        except ValidationError:
            continue  # a line cut short by a crash: that question is asked again
        if pred.error is None:
            found[pred.uid] = pred
    return found


def initial_predictions(
    entries: list[Entry],
    context,
    model: Model | None,
    path: Path,
    max_tokens: int,
    progress: bool = False,
    failure: str | None = None,
) -> tuple[dict[str, InitialPrediction], str | None]:
    """Every entry's initial prediction (cached ones reused) and why the model was given up, if it was.

    `context(entry)` gives the prompt context (question, schema, evidence)."""
    cached = load_cached(path)
    out = {e.uid: cached[e.uid] for e in entries if e.uid in cached and cached[e.uid].question_hash == question_hash(e)}
    todo = [e for e in entries if e.uid not in out]
    failure = failure or (None if model is not None else "no model")
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("a", encoding="utf-8") as fh:
        for entry in tqdm(todo, desc="initial predictions", unit="q", disable=not progress or not todo):
            pred, failure = _predict(entry, context, model, max_tokens, failure)
            out[entry.uid] = pred
            if pred.error is None:
                fh.write(pred.model_dump_json() + "\n")
                fh.flush()
    return out, failure


def _predict(entry: Entry, context, model: Model | None, max_tokens: int, failure: str | None):
    qh = question_hash(entry)
    if failure is not None or model is None:
        failure = failure or "no model"
        return InitialPrediction(uid=entry.uid, question_hash=qh, sql=None, error=f"not asked: {failure}"), failure
    try:
        done = model.complete(p.initial_messages(context(entry)), temperature=0.0, max_tokens=max_tokens)
    except ModelError as err:
        # A refused request is about this prompt; anything else would fail every question the same way.
        failure = None if isinstance(err, ModelValidationError) else str(err)
        return InitialPrediction(uid=entry.uid, question_hash=qh, sql=None, error=f"model failed: {err}"), failure
    pred = InitialPrediction(
        uid=entry.uid,
        question_hash=qh,
        sql=extract_sql(done.text),
        input_tokens=done.input_tokens,
        output_tokens=done.output_tokens,
        cached=done.cached,
    )
    return pred, None
