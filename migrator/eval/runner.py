"""`migrator eval run`: the seed's evaluation protocol as one library call.

1. The adapter lists the units with evidence and their reference keys; the split groups units that
   share a reference (train / test); the audit counts held-out references among training targets
   and refuses to go on unless it reads 0.
2. Model-free rows (M0-M3 and the shared initial prediction) are judged once: they do not depend
   on the stream order. Each agent system runs once per stream order and repeat, on a causal
   stream of every unit (training units only feed memory; held-out units are scored). The memory
   systems start from an empty store per run, are snapshotted at checkpoints, and the held-out
   units' queries are replayed against every snapshot (the monitor).
3. The memory audit counts held-out references in training memory and retrievals of a unit's own
   reference; then the statistics (`stats`), the pictures (`figures`) and the pages (`report`).
"""

from __future__ import annotations

import json
import shutil
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from tqdm import tqdm

from migrator.agent.models import ModelError, load_model
from migrator.agent.retrieval.controller import RetrievalController
from migrator.errors import MigratorError
from migrator.eval.adapters import Adapter, RunSpec, UnitResult, open_adapter
from migrator.eval.baselines import baseline_outputs
from migrator.eval.config import EvalConfig, SystemSpec
from migrator.eval.memory import Checkpoints, SystemMemory, memory_entries, open_memory, own_reference_retrievals
from migrator.eval.split import EvalUnit, Split, make_split, memory_leaks, target_leaks

OUR_FILES = ("eval.json", "eval.md", "eval.html", "learning_curve.png", "monitor.png", "retrieval.png")
OUR_DIRS = ("runs", "model-cache")


class EvalRefused(MigratorError):
    """The leakage audit did not read 0: no result is reported (exit 1, eval.json says why)."""


@dataclass
class Runs:
    """Per system, per run key "o<order>-r<repeat>": every held-out unit's result."""

    results: dict[str, dict[str, dict[str, UnitResult]]] = field(default_factory=dict)
    positions: dict[str, dict[str, int]] = field(default_factory=dict)  # run -> unit -> test position
    monitor: list[dict] = field(default_factory=list)
    memory_leaks: set[str] = field(default_factory=set)
    own_reference: int = 0
    # the retrieval controller's decisions per system and run (bandit and fixed-arm systems)
    decisions: dict[str, dict[str, list[dict]]] = field(default_factory=dict)


def prepare_out(out: Path, force: bool) -> None:
    if out.exists() and any(out.iterdir()):
        if not force:
            raise MigratorError(f"{out} is not empty (use --force to replace an earlier evaluation there)")
        for name in OUR_FILES:
            (out / name).unlink(missing_ok=True)
        for name in OUR_DIRS:
            shutil.rmtree(out / name, ignore_errors=True)
    out.mkdir(parents=True, exist_ok=True)


def run_eval(cfg: EvalConfig, out: Path, *, force: bool = False, progress: bool = False) -> dict:
    """Run the whole protocol; returns what eval.json holds. Raises EvalRefused on leakage."""
    from migrator.eval.report import write_refusal, write_reports

    prepare_out(out, force)
    adapter = open_adapter(cfg, out)
    try:
        units = adapter.eval_units()
        split = make_split(units, cfg.split.test_share, cfg.split.seed, cfg.split.grouped, cfg.split.group_by)
        leaks = target_leaks(units, split)
        if leaks:
            write_refusal(out, cfg, split, {"in_training_targets": len(leaks), "units": leaks})
            raise EvalRefused(
                f"{len(leaks)} held-out unit(s) share a reference with training units: {', '.join(leaks[:5])}"
            )
        runs = _Evaluation(cfg, adapter, units, split, out).run(progress)
    finally:
        adapter.close()
    leakage = {
        "held_out_seen": len(runs.memory_leaks),
        "in_training_targets": 0,
        "in_training_memory": len(runs.memory_leaks),
        "retrieved_own_reference": runs.own_reference,
    }
    if leakage["held_out_seen"] or leakage["retrieved_own_reference"]:
        write_refusal(out, cfg, split, leakage)
        raise EvalRefused(f"leakage audit: {leakage}")
    return write_reports(out, cfg, adapter, units, split, runs, leakage)


def _systems(cfg: EvalConfig, adapter: Adapter) -> list[SystemSpec]:
    """The configured systems; the shared initial prediction always runs (every agent starts from
    it, and its first failed judgements are the monitor's probes)."""
    systems = [
        s.model_copy(update={"name": adapter.initial_label})
        if s.kind == "initial" and s.name in ("rules-only", "initial")
        else s
        for s in cfg.systems
    ]
    if not any(s.kind == "initial" for s in systems):
        systems.insert(0, SystemSpec(name=adapter.initial_label, kind="initial"))
    return sorted(systems, key=lambda s: {"initial": 0, "baseline": 1, "agent": 2}[s.kind])


class _Evaluation:
    """Every run of every system on one split (one instance per `run_eval`)."""

    def __init__(self, cfg: EvalConfig, adapter: Adapter, units: list[EvalUnit], split: Split, out: Path):
        self.cfg, self.adapter, self.units, self.split, self.out = cfg, adapter, units, split, out
        self.runs = Runs()
        self.systems = _systems(cfg, adapter)
        self.streams = {f"o{o}-r{r}": adapter.stream(o) for r in range(cfg.repeats) for o in cfg.orders}
        test = set(split.test)
        for run, stream in self.streams.items():
            self.runs.positions[run] = {uid: i + 1 for i, uid in enumerate(u for u in stream if u in test)}
        self.initial = adapter.initial()
        self.groups = {u.id: split.component[u.id] for u in units}
        self.references = {u.id: u.keys[0] for u in units}
        self.probes: dict = {}

    def total(self) -> int:
        agents = [s for s in self.systems if s.kind == "agent"]
        n = (len(self.systems) - len(agents) - 1) * len(self.split.test) + len(self.units)  # initial: every unit
        per_agent = [len(self.units) if s.memory else len(self.split.test) for s in agents]
        return n + sum(per_agent) * len(self.streams)

    def run(self, progress: bool) -> Runs:
        bar = tqdm(total=self.total(), desc="evaluating", unit="unit", disable=not progress)
        try:
            accepted: dict[str, str] = {}
            for system in self.systems:  # the initial row first: its verdicts on training units count below
                if system.kind == "initial":
                    accepted = self._initial_row(system, bar)
            base = baseline_outputs(self.units, self.split.train, self.split.test, self.cfg.split.seed, accepted)
            for system in self.systems:
                if system.kind == "baseline":
                    self._model_free(system, base.get(system.name, {}), bar)
            for run in self.streams:
                for system in self.systems:
                    if system.kind == "agent":
                        result = self._agent(system, run, bar)
                        _save(self.out, system.name, run, result)
                        self.runs.results.setdefault(system.name, {})[run] = result
        finally:
            bar.close()
        return self.runs

    def _spec(self, system: SystemSpec, stream: list[str], candidates: dict, skip: frozenset, model, bar) -> RunSpec:
        return RunSpec(
            system, stream, candidates, skip, model, None, self.cfg.attempts, self.groups, self.references, progress=bar
        )

    def _initial_row(self, system: SystemSpec, bar) -> dict[str, str]:
        """The shared initial prediction, judged on every unit: held-out for its row, training for
        the copy baselines. A training unit's accepted output is its trusted target when the data
        has one, else its initial output when the judge found that correct (resolved)."""
        spec = self._spec(system, next(iter(self.streams.values())), dict(self.initial), frozenset(), None, bar)
        result = self.adapter.run(spec)
        self.probes = spec.probes
        _save(self.out, system.name, "all-orders", result)
        self.runs.results[system.name] = {run: result for run in self.streams}
        accepted = {}
        for u in self.units:
            if u.id in set(self.split.train):
                if u.reference:
                    accepted[u.id] = u.reference
                elif u.id in result and result[u.id].correct:
                    accepted[u.id] = self.initial.get(u.id, "")
        return accepted

    def _model_free(self, system: SystemSpec, outputs: dict[str, str], bar) -> None:
        """Judged once, on the first stream: a model-free output does not depend on the order."""
        spec = self._spec(
            system,
            next(iter(self.streams.values())),
            {**self.initial, **outputs},
            frozenset(self.split.train),
            None,
            bar,
        )
        result = self.adapter.run(spec)
        _save(self.out, system.name, "all-orders", result)
        self.runs.results[system.name] = {run: result for run in self.streams}

    def _agent(self, system: SystemSpec, run: str, bar) -> dict[str, UnitResult]:
        repeat = int(run.split("-r")[1])
        try:  # one response cache per repeat: orders and systems share answers, repeats ask again
            model = load_model(self.cfg.model, cache_dir=self.out / "model-cache" / f"repeat-{repeat}")
        except ModelError as exc:
            raise MigratorError(f"model {self.cfg.model}: {exc}") from None
        stream = self.streams[run]
        # without memory, training units teach nothing: only the held-out ones are run
        skip = frozenset() if system.memory else frozenset(self.split.train)
        spec = self._spec(system, stream, dict(self.initial), skip, model, bar)
        if not system.memory:
            return self.adapter.run(spec)
        kb = open_memory(self.out / "runs" / system.name / run / "kb", system, self.cfg.embedder)
        try:
            memory = SystemMemory(kb, system)
            test = [uid for uid in stream if uid in set(self.split.test)]
            controller = None
            if system.retrieval != "fixed":
                controller = RetrievalController.for_kb(
                    system.retrieval, kb, model=model.name.rsplit("/", 1)[-1], held_out=frozenset(self.split.test)
                )
                spec.retrieval = controller
            ck = Checkpoints(memory, self.cfg.checkpoints, len(self.units), self.probes, test, self.groups)
            spec.memory, spec.after = memory, ck.after
            result = self.adapter.run(spec)
            order = run[1:].split("-r")[0]
            series = f"{system.name} o{order}" + (f" r{repeat}" if self.cfg.repeats > 1 else "")
            self.runs.monitor += [
                {"system": system.name, "series": series, "order": int(order), "repeat": repeat, **m}
                for m in ck.metrics()
            ]
            entries = list(memory_entries(kb).values())
            if controller is not None:
                self.runs.decisions.setdefault(system.name, {})[run] = [asdict(d) for d in controller.decisions]
                _save_decisions(self.out, system.name, run, controller)
                entries += [(task, None, text) for task, text in controller.skills.entries()]
            self.runs.memory_leaks |= set(memory_leaks(entries, self.units, self.split))
            self.runs.own_reference += own_reference_retrievals(kb, {u.id: u.keys for u in self.units})
        finally:
            kb.close()
        return result


def _save_decisions(out: Path, system: str, run: str, controller: RetrievalController) -> None:
    path = out / "runs" / system / f"{run}.decisions.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for d in controller.decisions:
            fh.write(json.dumps(asdict(d), sort_keys=True) + "\n")


def _save(out: Path, system: str, run: str, result: dict[str, UnitResult]) -> None:
    path = out / "runs" / system / f"{run}.jsonl"
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", encoding="utf-8") as fh:
        for r in result.values():
            fh.write(json.dumps({**asdict(r), "correct": r.correct}, sort_keys=True) + "\n")


def outcome_matrix(runs: Runs, system: str, test: list[str]) -> np.ndarray:
    """(runs x held-out units) booleans: resolved-only correct."""
    per_run = runs.results[system]
    return np.array(
        [[per_run[run][u].correct if u in per_run[run] else False for u in test] for run in sorted(per_run)]
    )


def position_matrix(runs: Runs, system: str, test: list[str]) -> np.ndarray:
    return np.array([[runs.positions[run][u] for u in test] for run in sorted(runs.results[system])])
