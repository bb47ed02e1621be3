"""PL/SQL on `migrator eval`: units of a schema export, judged on a real PostgreSQL against the
transcript, repaired by the product's own repair loop (`PlsqlTask`).

The panel is every unit a scenario judges with a recorded outcome. A unit's reference keys are its
trusted target (`reference`: a YAML map unit id -> PostgreSQL text, when the data has one) and its
expected output (the outcomes of its scenarios' steps): two units with the same either way share a
reference. The stream is a seeded topological order of *all* units (tables and their rows first);
units outside the panel keep the rules' output in every system.

When the panel units are independent of one another (routines only, none depending on another,
each scenario judging one of them), a candidate's verdict cannot depend on which other panel units
are deployed, so verdicts are memoised per (unit, candidate text) across systems, orders and
repeats: the judge is deterministic, and the same text is never deployed and run twice.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import yaml

from harness.engines.postgres import PostgresEngine
from harness.ground_truth.scenarios import load_scenarios, load_transcript
from harness.judge.incremental import IncrementalJudge
from migrator.agent.loop import AgentConfig, Item, run_agent
from migrator.agent.tasks.plsql import PlsqlTask, detect_constructs
from migrator.batch.output import preamble_sql
from migrator.batch.sandboxing import open_engine
from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.errors import MigratorError
from migrator.eval.adapters.base import Probe, RunSpec, UnitResult, seeded_order
from migrator.eval.config import PlsqlData
from migrator.eval.split import EvalUnit, text_key
from migrator.source.dependencies import analyze_dependencies
from migrator.source.reader import read_schema_dir
from migrator.source.units import UnitKind


class PlsqlAdapter:
    name = "plsql"
    initial_label = "rules-only"

    def __init__(self, data: PlsqlData, out: Path):
        self.data = data
        source = read_schema_dir(data.schema_dir)
        graph = analyze_dependencies(source)
        self.units = source.by_id()
        self.order = list(graph.order)
        self.deps = {uid: graph.dependencies(uid) for uid in self.order}
        ctx = prepare_context(source, frozenset(data.disabled_rules))
        self.outputs = {uid: convert_unit(self.units[uid], ctx).output for uid in self.order}
        packages = sorted({u.name for u in source.units if u.kind is UnitKind.PACKAGE_SPEC})
        self.preamble = preamble_sql(source.schema, packages)
        self.scenarios = load_scenarios(data.scenarios)
        self.transcript = load_transcript(data.transcript)
        self.references = _references(data.reference)
        self._panel = self._make_panel()
        self.memo: dict[tuple[str, str], object] | None = {} if self._independent() else None
        self._engine: PostgresEngine | None = None  # started on the first run: a refused split needs no server

    @property
    def engine(self) -> PostgresEngine:
        if self._engine is None:
            engine = open_engine(self.data.engine)
            engine.__enter__()
            self._engine = engine
        return self._engine

    def close(self) -> None:
        if self._engine is not None:
            self._engine.__exit__(None, None, None)
            self._engine = None

    # -- what is evaluated -----------------------------------------------------------------------
    def _make_panel(self) -> list[EvalUnit]:
        expected: dict[str, list] = {}
        for scenario in self.scenarios.scenarios:
            outcomes = self.transcript.outcomes.get(scenario.id, {})
            steps = [outcomes[s.name].model_dump(mode="json") for s in scenario.steps if s.name in outcomes]
            for uid in scenario.units:
                if steps and uid in self.units:
                    expected.setdefault(uid, []).append(steps)
        panel = []
        for uid in self.order:
            if uid not in expected:
                continue
            digest = hashlib.sha256(json.dumps(expected[uid], sort_keys=True).encode()).hexdigest()[:16]
            keys = [f"expected_output:{digest}"]
            ref = self.references.get(uid)
            if ref is not None:
                keys.insert(0, text_key(ref))
            unit = self.units[uid]
            panel.append(EvalUnit(uid, unit.text, tuple(keys), ref, tuple(detect_constructs(unit.text))))
        if not panel:
            raise MigratorError(f"{self.data.scenarios}: no unit has a scenario with a recorded outcome")
        return panel

    def _independent(self) -> bool:
        panel = {u.id for u in self._panel}
        routines = {UnitKind.FUNCTION, UnitKind.PROCEDURE}
        if any(self.units[uid].kind not in routines for uid in panel):
            return False
        if any(len(set(s.units) & panel) > 1 for s in self.scenarios.scenarios):
            return False
        return not any(_reaches(uid, panel - {uid}, self.deps) for uid in panel)

    def eval_units(self) -> list[EvalUnit]:
        return list(self._panel)

    def initial(self) -> dict[str, str]:
        return {u.id: self.outputs[u.id] for u in self._panel}

    def stream(self, seed: int) -> list[str]:
        panel = {u.id for u in self._panel}
        return seeded_order(self.order, self.deps, seed, frozenset(u for u in self.order if u not in panel))

    # -- one system over one stream --------------------------------------------------------------
    def run(self, spec: RunSpec) -> dict[str, UnitResult]:
        units = [self.units[uid] for uid in spec.stream]
        outputs = {**self.outputs, **spec.candidates}
        panel = {u.id for u in self._panel}
        with IncrementalJudge(self.engine, self.preamble, self.scenarios, self.transcript) as judge:
            task = _EvalTask(units, outputs, self.deps, judge, spec, panel, self.memo)
            cfg = AgentConfig(
                attempts=spec.attempts,
                retrieval_k=_k(spec),
                retrieval=spec.retrieval,
            )

            def after(position: int, item: Item, episode) -> None:
                if item.id in panel and spec.after is not None:
                    spec.after(item.id, episode)
                if spec.progress is not None and item.id in panel:
                    spec.progress.update(1)

            episodes, _ = run_agent(task, spec.model, spec.memory, cfg, after=after, failure=_failure(spec))
        results = {}
        for ep in episodes:
            if ep.item_id in panel:
                results[ep.item_id] = UnitResult(
                    ep.item_id,
                    ep.final,
                    task.resolved.get(ep.item_id, False),
                    attempts=len(ep.attempts),
                    calls=sum(a.calls for a in ep.attempts),
                    tokens=ep.tokens,
                    reason=ep.final_reason[:300],
                )
        return results


def _k(spec: RunSpec) -> tuple[int, int] | None:
    s = spec.system
    if s.k_positive is None and s.k_negative is None and s.negatives:
        return None
    return (
        3 if s.k_positive is None else s.k_positive,
        0 if not s.negatives else (1 if s.k_negative is None else s.k_negative),
    )


def _failure(spec: RunSpec) -> str | None:
    # model-free systems: nothing is asked (failure=None with model=None means "never ask")
    return None


class _EvalTask(PlsqlTask):
    """The product's PL/SQL task over one evaluation stream: skipped panel units are committed as
    they are (no judging, no repair), every unit's final verdict says whether its references were
    resolved, and a panel unit's first failed judgement becomes its monitor probe."""

    def __init__(self, units, outputs, deps, judge, spec: RunSpec, panel: set[str], memo: dict | None):
        super().__init__(
            units,
            outputs,
            deps,
            judge,
            lambda uid, text: None,
            [],
            f"eval-{spec.system.name}",
            spec.groups,
            spec.references,
        )
        self._spec, self._panel_ids, self._memo = spec, panel, memo
        self.resolved: dict[str, bool] = {}
        self._seen: set[str] = set()

    def items(self):
        for item in super().items():
            if item.id in self._spec.skip:
                if self._memo is None:
                    self._judge.commit(item.id, item.candidate)
                self._pending[self._names[item.id]] -= 1
                continue
            yield item

    def judge(self, item, candidate):
        key = (item.id, hashlib.sha256(candidate.encode("utf-8")).hexdigest())
        if self._memo is not None and item.id in self._panel_ids and key in self._memo:
            judgement = self._memo[key]
        else:
            judgement = super().judge(item, candidate)
            if self._memo is not None and item.id in self._panel_ids:
                self._memo[key] = judgement
        if item.id not in self._seen:
            self._seen.add(item.id)
            if item.id in self._panel_ids and self.needs_repair(judgement):
                failure = self.classify(item, candidate, judgement)
                self._spec.probes[item.id] = Probe(
                    self.query_text(item, judgement), failure, tuple(detect_constructs(item.source))
                )
        return judgement

    def commit(self, item, final, judgement) -> None:
        self.resolved[item.id] = judgement.judged.verdict.references.startswith("resolved")
        if self._memo is not None and item.id in self._panel_ids:
            # independent panel units: no other unit's verdict reads this one, nothing to deploy
            self._pending[self._names[item.id]] -= 1
            return
        super().commit(item, final, judgement)


def _reaches(start: str, targets: set[str], deps: dict[str, list[str]]) -> bool:
    """Does `start` depend, directly or through others, on one of `targets`?"""
    seen, todo = set(), list(deps.get(start, []))
    while todo:
        uid = todo.pop()
        if uid in targets:
            return True
        if uid not in seen:
            seen.add(uid)
            todo += deps.get(uid, [])
    return False


def _references(path: Path | None) -> dict[str, str]:
    if path is None:
        return {}
    try:
        data = yaml.safe_load(Path(path).read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise MigratorError(f"reference {path}: cannot read: {exc}") from None
    if not isinstance(data, dict):
        raise MigratorError(f"reference {path}: expected a map of unit id -> PostgreSQL text")
    return {str(k): str(v) for k, v in data.items()}
