"""`migrator swe run`: the PMCoder agent over SWE-bench-format instances, as a library function.

`run_swe(SweRunConfig(...))` is what the CLI calls and what an evaluation command calls per
configuration (`ablation_configs` gives the 2x2 planner x memory arms). Per instance it runs one
episode on the loop, then judges the final patch with the held-out tests, and writes at once:

    OUT/results/<id>.json        the instance's record (prediction, agent verdict, judge, tokens)
    OUT/trajectories/<id>.json   steps, phases, stuck signals, backtracks, reproduction verdicts
    OUT/predictions.jsonl        SWE-bench predictions (instance_id, model_name_or_path, model_patch)
    OUT/run_manifest.json, OUT/report.json, OUT/report.md

`resume` skips instances whose result file exists; stream positions are the instances' places in
the file, so memory stays causal across a resume.
"""

from __future__ import annotations

import json
import sys
import time
import uuid
from importlib import metadata
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field
from tqdm import tqdm

from harness.tasks.process_sandbox import resolve_isolation
from harness.tasks.pytest_runs import RunLimits
from migrator.agent.loop import AgentConfig, Episode, ModelState, run_episode
from migrator.agent.models import ModelError, load_model
from migrator.agent.tasks.swe.environments import EnvOptions
from migrator.agent.tasks.swe.episode import AgentSettings
from migrator.agent.tasks.swe.instances import Prediction, SweInstance, load_instances
from migrator.agent.tasks.swe.judge import JudgeContext, judge_patch
from migrator.agent.tasks.swe.manifest import write_manifest
from migrator.agent.tasks.swe.report import InstanceRecord, SweRunReport, summarize, to_markdown
from migrator.agent.tasks.swe.task import SweContext, SweTask
from migrator.agent.tasks.swe.tools import ToolLimits


def _version() -> str:
    try:
        return metadata.version("oracle-pg-migrator")
    except metadata.PackageNotFoundError:
        return "unknown"


class SweUsageError(ValueError):
    """A configuration that cannot run (bad input file, an output folder in use, no sandbox)."""


class SweRunConfig(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    instances: Path
    repos: Path
    out: Path
    model: str
    kb: Path | None = None  # default with memory on: a knowledge base of this run (OUT/kb)
    embedder: str | None = None  # for a new knowledge base: hashing | minilm | bge-m3:<dir> (default auto)
    planner: bool = True
    memory: bool = True
    max_steps: int = Field(40, ge=1)
    history_steps: int = Field(12, ge=1)
    ids: tuple[str, ...] = ()
    repro_dir: Path | None = None
    judge: bool = True
    resume: bool = False
    per_test_timeout_s: float = Field(60.0, gt=0)
    repro_timeout_s: float = Field(180.0, gt=0)
    isolation: str = "namespaces"
    env_cache: Path | None = None  # default: OUT/.migrator/envs
    system_site_packages: bool = False
    offline: bool = False
    seed: tuple[str, ...] = ()
    temperature: float = 0.0
    max_tokens: int = 4096
    retrieval_k: tuple[int, int] = (8, 2)
    held_out_targets: frozenset[str] = frozenset()
    progress: bool | None = None

    @property
    def settings(self) -> AgentSettings:
        return AgentSettings(self.planner, self.memory, self.max_steps, self.history_steps)


def ablation_configs(base: SweRunConfig) -> dict[str, SweRunConfig]:
    """The 2x2 component ablation, each arm in its own output folder."""
    out = {}
    for planner in (False, True):
        for memory in (False, True):
            arm = AgentSettings(planner, memory).arm
            out[arm] = base.model_copy(update={"planner": planner, "memory": memory, "out": base.out / arm})
    return out


def interaction(resolved: dict[str, float]) -> float:
    """PMCoder's coupling contrast Y11 - Y10 - Y01 + Y00 over resolved counts per arm."""
    return resolved["plan+memory"] - resolved["plan"] - resolved["memory"] + resolved["baseline"]


def _load(cfg: SweRunConfig) -> tuple[list[SweInstance], list[str]]:
    instances, errors = load_instances(cfg.instances)
    if not instances and errors:
        raise SweUsageError(f"{cfg.instances}: no readable instance ({errors[0]})")
    if cfg.ids:
        unknown = sorted(set(cfg.ids) - {i.instance_id for i in instances})
        if unknown:
            raise SweUsageError(f"unknown instance id(s): {', '.join(unknown)}")
        instances = [i for i in instances if i.instance_id in cfg.ids]
    return instances, [str(e) for e in errors]


def _prepare_out(cfg: SweRunConfig) -> None:
    results = cfg.out / "results"
    if results.is_dir() and any(results.iterdir()) and not cfg.resume:
        raise SweUsageError(f"{cfg.out} holds results of an earlier run: use --resume to continue it, or another --out")
    for sub in ("results", "trajectories"):
        (cfg.out / sub).mkdir(parents=True, exist_ok=True)


def _contexts(cfg: SweRunConfig, isolation: str) -> tuple[SweContext, JudgeContext]:
    env = EnvOptions(
        cache_dir=cfg.env_cache or cfg.out / ".migrator" / "envs",
        system_site_packages=cfg.system_site_packages,
        offline=cfg.offline,
        seed=cfg.seed,
        isolation=isolation,
    )
    work = cfg.out / ".migrator" / "work"
    limits = ToolLimits(cfg.per_test_timeout_s, repro_timeout_s=cfg.repro_timeout_s, isolation=isolation)
    judge = JudgeContext(cfg.repos, work, env, RunLimits(cfg.per_test_timeout_s, isolation=isolation))
    return SweContext(cfg.repos, work, env, limits, cfg.repro_dir), judge


def _open_kb(cfg: SweRunConfig):
    if not cfg.memory:
        return None  # the memory-off arms neither read nor write experience
    from knowledge_base.embedders import make_embedder
    from knowledge_base.store import KnowledgeBase

    path = cfg.kb or cfg.out / "kb"
    fresh = not (path / "kb.sqlite").exists()
    return KnowledgeBase(path, embedder=make_embedder(cfg.embedder) if cfg.embedder and fresh else None)


def run_swe(cfg: SweRunConfig) -> SweRunReport:
    started = time.perf_counter()
    instances, input_errors = _load(cfg)
    try:
        isolation, note = resolve_isolation(cfg.isolation)
    except Exception as exc:  # SandboxUnavailable, or an unknown mode
        raise SweUsageError(str(exc)) from exc
    _prepare_out(cfg)
    run_id = uuid.uuid4().hex[:10]
    ctx, judge_ctx = _contexts(cfg, isolation)
    positions = {inst.instance_id: n for n, inst in enumerate(instances)}
    todo = [i for i in instances if cfg.resume is False or not (cfg.out / "results" / f"{i.instance_id}.json").exists()]
    try:
        model, failure = load_model(cfg.model, cache_dir=cfg.out / ".migrator" / "model-cache"), None
    except (ModelError, ValueError) as exc:
        model, failure = None, f"cannot load the model: {exc}"
    kb = _open_kb(cfg)
    agent_cfg = AgentConfig(
        attempts=cfg.max_steps,
        temperature=cfg.temperature,
        max_tokens=cfg.max_tokens,
        policy=(cfg.settings.arm,),
        held_out_targets=cfg.held_out_targets,
        retrieval_k=cfg.retrieval_k,
    )
    task = SweTask(todo, ctx, cfg.settings, run_id)
    state = ModelState(model, failure)
    try:
        _episodes(cfg, task, state, kb, agent_cfg, positions, judge_ctx)
    finally:
        if kb is not None:
            kb.close()
    records = _all_records(cfg, instances)
    _write_predictions(cfg, records)
    seconds = time.perf_counter() - started
    report = _report(cfg, records, len(instances), (isolation, note), state.failure, input_errors, seconds)
    write_manifest(cfg, run_id, agent_cfg, report, kb, isolation, note)
    (cfg.out / "report.json").write_text(report.model_dump_json(indent=2), encoding="utf-8")
    (cfg.out / "report.md").write_text(to_markdown(report), encoding="utf-8")
    return report


def _episodes(cfg, task: SweTask, state: ModelState, kb, agent_cfg, positions, judge_ctx) -> None:
    show = cfg.progress if cfg.progress is not None else sys.stderr.isatty()
    by_id = {i.instance_id: i for i in task.instances}
    with tqdm(total=len(task.instances), desc=f"swe {cfg.settings.arm}", unit="instance", disable=not show) as bar:
        for item in task.items():
            inst, position = by_id[item.id], positions[item.id]
            try:
                episode = run_episode(task, state, kb, item, position, agent_cfg)
            except Exception as exc:  # one instance's failure is its own result, never the run's end
                task.episodes.pop(item.id, None)
                error = f"episode failed: {type(exc).__name__}: {exc}"
                _write_record(cfg, _error_record(cfg, inst, position, error, judge_ctx))
            else:
                _finish(cfg, inst, episode, task, position, judge_ctx)
            bar.update(1)
        for inst in task.instances:
            if inst.instance_id in task.setup_errors:
                error = task.setup_errors[inst.instance_id]
                _write_record(cfg, _error_record(cfg, inst, positions[inst.instance_id], error, judge_ctx))
                bar.update(1)


def _finish(cfg, inst: SweInstance, episode: Episode, task: SweTask, position: int, judge_ctx) -> None:
    ep = task.episodes.pop(inst.instance_id)
    final = task.outcomes.get(inst.instance_id, ("", None))[0]
    trajectory = ep.trajectory()
    record = InstanceRecord(
        instance_id=inst.instance_id,
        arm=cfg.settings.arm,
        position=position,
        model_patch=final,
        agent=episode.final,
        agent_reason=episode.final_reason,
        grounded=(ep.verifications[-1]["grounded"] if ep.verifications else None),
        reproduction=ep.repro.source,
        steps=len(ep.records),
        calls=len(episode.attempts),
        input_tokens=sum(a.input_tokens for a in episode.attempts),
        output_tokens=sum(a.output_tokens for a in episode.attempts),
        seconds=round(episode.seconds, 3),
        backtracks=trajectory["backtracks"],
        stuck_signals=sum(bool(s["stuck"]) for s in trajectory["steps"]),
        repeated_failed_actions=trajectory["repeated_failed_actions"],
        experience_id=episode.experience_id,
        error=episode.model_error,
        judge=judge_patch(inst, final, judge_ctx) if cfg.judge else None,
    )
    trajectory["attempts"] = [a.__dict__ for a in episode.attempts]
    (cfg.out / "trajectories" / f"{inst.instance_id}.json").write_text(json.dumps(trajectory, indent=2, default=str))
    _write_record(cfg, record)


def _error_record(cfg, inst: SweInstance, position: int, error: str, judge_ctx) -> InstanceRecord:
    judge = judge_patch(inst, "", judge_ctx) if cfg.judge else None  # the empty patch: unresolved, nothing runs
    return InstanceRecord(
        instance_id=inst.instance_id,
        arm=cfg.settings.arm,
        position=position,
        model_patch="",
        agent="not run",
        agent_reason=error,
        error=error,
        judge=judge,
    )


def _write_record(cfg, record: InstanceRecord) -> None:
    path = cfg.out / "results" / f"{record.instance_id}.json"
    tmp = path.with_suffix(".tmp")
    tmp.write_text(record.model_dump_json(indent=2), encoding="utf-8")
    tmp.replace(path)  # a result file exists only whole: resume trusts it


def _all_records(cfg, instances: list[SweInstance]) -> list[InstanceRecord]:
    out = []
    for inst in instances:
        path = cfg.out / "results" / f"{inst.instance_id}.json"
        if path.is_file():
            out.append(InstanceRecord.model_validate_json(path.read_text(encoding="utf-8")))
    return out


def _write_predictions(cfg, records: list[InstanceRecord]) -> None:
    name = f"migrator-swe/{cfg.model}/{cfg.settings.arm}"
    lines = [Prediction(instance_id=r.instance_id, model_name_or_path=name, model_patch=r.model_patch) for r in records]
    (cfg.out / "predictions.jsonl").write_text("".join(p.model_dump_json() + "\n" for p in lines), encoding="utf-8")


def _report(cfg, records, total, sandbox, model_error, input_errors, seconds) -> SweRunReport:
    isolation, note = sandbox
    return SweRunReport(
        tool="migrator",
        version=_version(),
        instances_file=str(cfg.instances),
        model=cfg.model,
        arm=cfg.settings.arm,
        planner=cfg.planner,
        memory=cfg.memory,
        knowledge_base=str(cfg.kb or cfg.out / "kb") if cfg.memory else None,
        isolation=f"{isolation} ({note})",
        seconds=round(seconds, 3),
        model_error=model_error,
        input_errors=input_errors,
        instances=records,
        **summarize(records, total, cfg.judge),
    )
