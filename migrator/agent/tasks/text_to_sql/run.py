"""One system over one stream order of one data split, resumable; the library call behind
`migrator text2sql run` (and an `eval` command: `run_system(RunRequest(...))`).

OUT/initial/<model>.jsonl        shared initial predictions (every system starts from them)
OUT/runs/<system>-order<N>/      manifest.json, episodes.jsonl (one line per finished question), kb/
OUT/model-cache/                 the response cache (a resumed run pays nothing twice)
OUT/report.json, OUT/report.md   every run in OUT, with the do-nothing row

Resume: questions already in episodes.jsonl are not redone; memory entries written by an episode
the crash cut short are retired first, so the redone episode leaves exactly one.
"""

from __future__ import annotations

import random
import uuid
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field

from harness.tasks.readonly_sql import DEFAULT_ROW_CAP, DEFAULT_TIMEOUT_S, Limits
from migrator.agent.loop import AgentConfig, ModelState, run_episode
from migrator.agent.models import ModelError, load_model
from migrator.agent.tasks.text_to_sql import prompts as p
from migrator.agent.tasks.text_to_sql.data import Dataset, Entry, load_dataset
from migrator.agent.tasks.text_to_sql.initial import cache_path, initial_predictions
from migrator.agent.tasks.text_to_sql.judge import ExecutionJudge
from migrator.agent.tasks.text_to_sql.records import EpisodeRecord, Manifest, RunFiles
from migrator.agent.tasks.text_to_sql.report import write_report
from migrator.agent.tasks.text_to_sql.schema_text import SchemaText
from migrator.agent.tasks.text_to_sql.systems import SystemMemory, get_system
from migrator.agent.tasks.text_to_sql.task import TextToSqlTask

DEFAULT_ATTEMPTS = 7  # MERIT's K


class RunError(ValueError):
    """The run cannot start or continue as asked (a usage error, exit 2)."""


class RunRequest(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")
    data: Path
    out: Path
    model: str
    system: str = "merit"
    order: int = Field(0, ge=0)
    split: str = "dev"
    pg_dsn: str | None = None
    kb: Path | None = None
    attempts: int = Field(DEFAULT_ATTEMPTS, ge=1)
    max_tokens: int = Field(1024, ge=1)
    embedder: str | None = None  # None: the knowledge base's default (MiniLM when installed)
    limit: int | None = Field(None, ge=1)  # the first N questions of the split (smoke runs)
    timeout_s: float = Field(DEFAULT_TIMEOUT_S, gt=0)
    row_cap: int = Field(DEFAULT_ROW_CAP, ge=1)
    response_cache: bool = True


def stream_order(entries: list[Entry], order: int) -> list[Entry]:
    """Order 0, 1, 2 ... are seeded shuffles of the split; every system sees the same stream per order."""
    stream = list(entries)
    random.Random(order).shuffle(stream)
    return stream


def open_dataset(req: RunRequest) -> Dataset:
    dataset = load_dataset(req.data, req.split, req.pg_dsn, Limits(req.timeout_s, req.row_cap))
    if req.limit is not None:
        dataset.entries = [e for e in dataset.entries if e.index < req.limit]
        dataset.bad = [b for b in dataset.bad if b.index < req.limit]
    return dataset


def run_system(req: RunRequest, progress: bool = False, dataset: Dataset | None = None) -> Manifest:
    """Run (or finish) one system on one stream order; return its manifest with the totals."""
    system = get_system(req.system)
    dataset = dataset or open_dataset(req)
    files = RunFiles(req.out, system.name, req.order, req.kb)
    try:
        model, model_failure = load_model(req.model, cache_dir=files.model_cache if req.response_cache else None), None
    except (ModelError, ValueError) as err:
        model, model_failure = None, f"cannot load the model: {err}"
    judge, schema = ExecutionJudge(dataset), SchemaText(dataset.databases)
    try:
        stream = stream_order(dataset.entries, req.order)
        probe = TextToSqlTask(stream, {}, judge, schema, system, "")
        path = cache_path(req.out, req.model, req.max_tokens)
        initial, failure = initial_predictions(
            stream, probe.context, model, path, req.max_tokens, progress, model_failure
        )
        manifest = _start_manifest(req, files, dataset, system, initial, failure or model_failure)
        sql = {uid: pred.sql or "" for uid, pred in initial.items()}
        task = TextToSqlTask(stream, sql, judge, schema, system, manifest.run_id)
        _run_stream(task, stream, model, failure or model_failure, files, manifest, req, progress)
    finally:
        dataset.databases.close()
    write_report(req.out)
    final = files.load_manifest()
    if final is None:  # load_manifest returns None only with missing_ok
        raise RuntimeError(f"{req.out}: the run wrote no manifest")
    return final


def _start_manifest(req, files: RunFiles, dataset: Dataset, system, initial, failure) -> Manifest:
    fresh = Manifest.start(
        run_id=uuid.uuid4().hex[:10],
        request=req,
        budget={"attempts": req.attempts, "temperature": 0.0, "max_tokens": req.max_tokens},
        system=system.describe(),
        prompt_version=p.PROMPT_VERSION,
        prompt_hash=p.template_hash(),
        data_fingerprint=dataset.fingerprint(),
        dialect=dataset.databases.dialect,
        rule=dataset.flavor,
        questions=len(dataset.entries),
        bad_entries=dataset.bad,
        initial_tokens=sum(x.input_tokens + x.output_tokens for x in initial.values()),
        initial_errors=sum(x.error is not None for x in initial.values()),
        model_error=failure,
    )
    old = files.load_manifest(missing_ok=True)
    if old is not None:
        problem = old.incompatible(fresh)
        if problem:
            raise RunError(f"{files.run_dir} holds another run ({problem}); use another --out or remove it")
        fresh = fresh.model_copy(update={"run_id": old.run_id})
    files.save_manifest(fresh)
    return fresh


def _run_stream(task, stream, model, failure, files: RunFiles, manifest: Manifest, req: RunRequest, progress: bool):
    from tqdm import tqdm

    done = files.finished()
    kb = files.open_kb(task.system, req.embedder, unfinished=[e.uid for e in stream if e.uid not in done])
    memory = SystemMemory(kb, task.system) if kb is not None else None
    # Greedy decoding (temperature 0, the AgentConfig default), one strategy: MERIT's protocol.
    cfg = AgentConfig(attempts=req.attempts, max_tokens=req.max_tokens, policy=("direct",), follow="latest")
    state = ModelState(model, failure)
    try:
        bar = tqdm(
            total=len(stream),
            initial=len(done),
            desc=f"{task.system.name} order {req.order}",
            unit="q",
            disable=not progress,
        )
        for position, entry in enumerate(stream):
            if entry.uid in done:
                continue
            episode = run_episode(task, state, memory, task.item(entry), position, cfg)
            files.append_episode(EpisodeRecord.of(episode, entry, position))
            bar.update(1)
        bar.close()
    finally:
        embedder = kb.embedder_name if kb is not None else None
        if kb is not None:
            kb.close()
    files.save_manifest(manifest.finish(files.episodes(), state.failure, embedder))
