"""Run the repair agent over a converted schema and write its manifest.

Called by the pipeline after the rules have converted every unit. The model is used only for
units the judge finds `wrong` or `rejected`; the manifest records what was run (prompt version
and hash, model, budget, knowledge-base thresholds, settings version) and, per unit, attempts,
calls, tokens and latency.

With a knowledge base the run snapshots the store at checkpoints (every `checkpoint_every` units,
and at the end) and replays the repair queries of the units seen so far against each snapshot:
the monitor's figures (verified experiences, distinct positives shown, the top example's share,
churn, retrieval margin) go into the manifest, the report and OUT/memory_monitor.png.
"""

from __future__ import annotations

import datetime as dt
import json
import math
import sqlite3
import uuid
from dataclasses import asdict, dataclass
from pathlib import Path

from harness.ground_truth.scenarios import load_scenarios, load_transcript
from harness.judge.incremental import IncrementalJudge
from migrator.agent.loop import AgentConfig, Episode, run_agent
from migrator.agent.models import ModelError, load_model
from migrator.agent.tasks.plsql import PlsqlTask
from migrator.agent.tasks.prompts import PROMPT_VERSION, template_hash
from migrator.batch.output import write_output
from migrator.batch.sandboxing import open_engine
from migrator.batch.verification import AGENT_MANIFEST
from migrator.errors import MigratorError
from migrator.fixes.settings import ActiveSettings
from migrator.source.units import Unit


@dataclass
class AgentRequest:
    model: str
    kb: Path | None
    attempts: int
    settings: ActiveSettings
    scenarios: Path | None
    transcript: Path | None
    engine: str
    cache_dir: Path
    held_out_targets: frozenset[str] = frozenset()
    retrieval: str = "fixed"  # fixed | bandit | arm:<name> (migrator.agent.retrieval)
    checkpoint_every: int | None = None  # None: about eight checkpoints per run, at least 50 units apart


class KnowledgeBaseUnusable(MigratorError):
    """The --kb store cannot be opened: busy, unreadable, or made with an embedder not at hand."""


def _open_kb(path: Path | None):
    if path is None:
        return None
    from knowledge_base.embedders import EmbedderUnavailable
    from knowledge_base.loading import EmbedderMismatch
    from knowledge_base.lock import StoreBusy
    from knowledge_base.store import KnowledgeBase

    # A new store takes the offline MiniLM embedder when installed, else the labelled hashing one;
    # an existing store keeps the embedder its vectors were made with.
    try:
        return KnowledgeBase(path)
    except (StoreBusy, EmbedderUnavailable, EmbedderMismatch, OSError, sqlite3.DatabaseError) as exc:
        raise KnowledgeBaseUnusable(f"--kb {path}: {exc}") from None


def run_plsql_agent(
    units: list[Unit],
    outputs: dict[str, str],
    deps: dict[str, list[str]],
    preamble: str,
    write,
    req: AgentRequest,
    out: Path,
    progress=None,
) -> tuple[list[Episode], str | None]:
    """Every unit's episode, and why the model was given up during the run (None if it never was)."""
    run_id = uuid.uuid4().hex[:10]
    try:
        model, failure = load_model(req.model, cache_dir=req.cache_dir), None
    except ModelError as err:  # e.g. an unreadable script file: reported per unit, like a call failure
        model, failure = None, f"cannot load the model: {err}"
    kb = _open_kb(req.kb)
    paragraphs = [p.text for p in req.settings.prompt_paragraphs]
    controller = None
    if req.retrieval != "fixed" and kb is not None:
        from migrator.agent.retrieval.controller import RetrievalController

        controller = RetrievalController.for_kb(
            req.retrieval, kb, model=req.model, held_out=frozenset(req.held_out_targets)
        )
    cfg = AgentConfig(attempts=req.attempts, held_out_targets=req.held_out_targets, retrieval=controller)
    scen = load_scenarios(req.scenarios) if req.scenarios else None
    trans = load_transcript(req.transcript) if req.transcript else None
    try:
        with (
            open_engine(req.engine) as engine,
            IncrementalJudge(
                engine, preamble, scen, trans, step_timeout_ms=req.settings.harness.step_timeout_ms
            ) as judge,
        ):
            task = PlsqlTask(units, outputs, deps, judge, write, paragraphs, run_id)
            watch = _Watch(kb, task, run_id, len(units), req.checkpoint_every) if kb is not None else None
            episodes, model_error = run_agent(
                task, model, kb, cfg, progress, failure, after=watch.after if watch else None
            )
            monitor = watch.finish() if watch else []
    finally:
        if kb is not None:
            kb.close()
    _write_manifest(out, run_id, req, cfg, paragraphs, kb, episodes, model_error, monitor)
    return episodes, model_error


PANEL_CAP = 200  # queries replayed per checkpoint: the first units that needed a repair


class _Watch:
    """The run's checkpoints: snapshot and replay the repair queries of the units seen so far."""

    def __init__(self, kb, task: PlsqlTask, run_id: str, total: int, every: int | None):
        from knowledge_base.monitor import PanelMonitor

        self.monitor, self.task, self.run_id, self.total = PanelMonitor(kb), task, run_id, total
        self.every = every or max(50, math.ceil(total / 8))
        self.done = 0

    def after(self, position: int, item, episode) -> None:
        self.done += 1
        if self.done % self.every == 0 or self.done == self.total:
            self._checkpoint()

    def _checkpoint(self) -> None:
        from knowledge_base.records import RetrievalQuery

        panel = [
            RetrievalQuery(text=text, failure_type=ftype, task_id=uid, relevant=frozenset(tags))
            for uid, (text, ftype, tags) in list(self.task.probes.items())[:PANEL_CAP]
        ]
        if panel:  # nothing asked memory yet: nothing to replay
            self.monitor.checkpoint(f"{self.run_id}-ck{len(self.monitor.taken) + 1:02d}", panel, self.done)

    def finish(self) -> list[dict]:
        return [{"system": "repair agent", "series": f"run {self.run_id}", **m} for m in self.monitor.metrics()]


def _write_manifest(
    out: Path,
    run_id: str,
    req: AgentRequest,
    cfg: AgentConfig,
    paragraphs: list[str],
    kb,
    episodes: list[Episode],
    model_error: str | None,
    monitor: list[dict] | None = None,
) -> None:
    kb_config = kb.config.model_dump(mode="json") if kb is not None else None
    manifest = {
        "run_id": run_id,
        "written_at": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "prompt_version": PROMPT_VERSION,
        "prompt_hash": template_hash(paragraphs),
        "model": req.model,
        "model_error": model_error,
        "budget": {
            "attempts": cfg.attempts,
            "temperature": cfg.temperature,
            "max_tokens": cfg.max_tokens,
            "policy": list(cfg.policy),
        },
        "knowledge_base": str(req.kb) if req.kb else None,
        "embedder": kb.embedder_name if kb is not None else None,
        "kb_thresholds": kb_config,
        "settings_version": req.settings.version,
        "held_out_targets": sorted(cfg.held_out_targets),
        "retrieval": cfg.retrieval.summary() if cfg.retrieval is not None else {"mode": "fixed"},
        "monitor": monitor or [],
        "units": [
            {**{k: v for k, v in asdict(e).items() if k != "final_text"}, "tokens": e.tokens, "calls": len(e.attempts)}
            for e in episodes
        ],
    }
    write_output(out, AGENT_MANIFEST, json.dumps(manifest, indent=2, default=str))
    if monitor:
        _monitor_figure(out, monitor)


MONITOR_PNG = "memory_monitor.png"


def _monitor_figure(out: Path, rows: list[dict]) -> None:
    from migrator.batch.output import record_written
    from migrator.eval.figures import monitor_figure

    record_written(out, [MONITOR_PNG])  # recorded before it exists: --force may remove it later
    monitor_figure(rows, out / MONITOR_PNG, "memory at each checkpoint of this run")
