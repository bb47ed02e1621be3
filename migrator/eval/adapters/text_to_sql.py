"""Text-to-SQL on `migrator eval` (MERIT's task): questions judged by execution on the benchmark's
own databases, repaired by the MERIT loop (`TextToSqlTask`).

The reference of a question is its gold query (normalised text): questions with the same gold
query share a reference and one side of the split. Result rows are not keys: many unrelated
questions share a one-number answer. The shared initial prediction is the model's first answer,
generated once (greedy) and cached; M2 copies the gold query of the most similar training
question, which is exactly the copy baseline EPAM found beating every system before the split was
grouped. Execution-judged verdicts are resolved by construction (the query ran on the database).
"""

from __future__ import annotations

import random
from pathlib import Path

from harness.tasks.readonly_sql import Limits
from migrator.agent.loop import AgentConfig, ModelState, run_episode, stream_position
from migrator.agent.models import ModelError, load_model
from migrator.agent.tasks.text_to_sql.data import load_dataset
from migrator.agent.tasks.text_to_sql.initial import cache_path, initial_predictions
from migrator.agent.tasks.text_to_sql.judge import ExecutionJudge
from migrator.agent.tasks.text_to_sql.schema_text import SchemaText
from migrator.agent.tasks.text_to_sql.systems import System
from migrator.agent.tasks.text_to_sql.task import TextToSqlTask, sql_constructs
from migrator.errors import MigratorError
from migrator.eval.adapters.base import Probe, RunSpec, UnitResult
from migrator.eval.config import EvalConfig, SystemSpec, TextToSqlData
from migrator.eval.split import EvalUnit, text_key


class TextToSqlAdapter:
    name = "text_to_sql"
    initial_label = "initial"

    def __init__(self, cfg: EvalConfig, out: Path):
        data = cfg.data
        assert isinstance(data, TextToSqlData)
        self.cfg, self.data = cfg, data
        self.dataset = load_dataset(data.data, data.split, None, Limits())
        if data.limit is not None:
            self.dataset.entries = [e for e in self.dataset.entries if e.index < data.limit]
        if not self.dataset.entries:
            raise MigratorError(f"{data.data}: no question can be judged ({len(self.dataset.bad)} bad entries)")
        self.entries = {e.uid: e for e in self.dataset.entries}
        self.judge = ExecutionJudge(self.dataset)
        self.schema = SchemaText(self.dataset.databases)
        self._initial = self._initial_predictions(out)

    def _initial_predictions(self, out: Path) -> dict[str, str]:
        try:
            model, failure = load_model(self.cfg.model, cache_dir=out / "model-cache" / "initial"), None
        except (ModelError, ValueError) as exc:
            model, failure = None, f"cannot load the model: {exc}"
        probe = TextToSqlTask(self.dataset.entries, {}, self.judge, self.schema, _system(None), "")
        path = cache_path(out, self.cfg.model, self.data.max_tokens)
        preds, _ = initial_predictions(
            self.dataset.entries, probe.context, model, path, self.data.max_tokens, False, failure
        )
        return {uid: p.sql or "" for uid, p in preds.items()}

    def close(self) -> None:
        self.dataset.databases.close()

    def eval_units(self) -> list[EvalUnit]:
        return [
            EvalUnit(e.uid, e.question, (text_key(e.gold),), e.gold, sql_constructs(self._initial.get(e.uid, "")))
            for e in self.dataset.entries
        ]

    def initial(self) -> dict[str, str]:
        return dict(self._initial)

    def stream(self, seed: int) -> list[str]:
        order = [e.uid for e in self.dataset.entries]
        random.Random(seed).shuffle(order)  # the same seeded shuffle as `migrator text2sql run --order`
        return order

    def run(self, spec: RunSpec) -> dict[str, UnitResult]:
        system = _system(spec.system)
        stream = [self.entries[uid] for uid in spec.stream if uid not in spec.skip]
        task = TextToSqlTask(stream, dict(spec.candidates), self.judge, self.schema, system, f"eval-{system.name}")
        cfg = AgentConfig(
            attempts=spec.attempts,
            max_tokens=self.data.max_tokens,
            policy=("direct",),
            follow="latest",
            retrieval=spec.retrieval,
        )
        state = ModelState(spec.model, None)
        out = {}
        for offset, entry in enumerate(stream):
            item = task.item(entry)
            item.group = spec.groups.get(entry.uid, item.group)
            item.extra["reference"] = spec.references.get(entry.uid)
            episode = run_episode(task, state, spec.memory, item, stream_position(spec.memory, offset), cfg)
            first = task.first_query(item)
            if first is not None and entry.uid not in spec.probes:
                spec.probes[entry.uid] = Probe(first[0], first[1], sql_constructs(item.candidate))
            out[entry.uid] = UnitResult(
                entry.uid,
                episode.final,
                True,
                attempts=len(episode.attempts),
                calls=sum(a.calls for a in episode.attempts),
                tokens=episode.tokens,
                reason=episode.final_reason[:300],
            )
            if spec.after is not None:
                spec.after(entry.uid, episode)
            if spec.progress is not None:
                spec.progress.update(1)
        return out


def _system(spec: SystemSpec | None) -> System:
    """The MERIT system an evaluation row stands for: iterative without memory, MERIT with it."""
    if spec is None or not spec.memory:
        return System(
            spec.name if spec else "iterative",
            memory=False,
            typed=False,
            k_positive=0,
            k_negative=0,
            store_negatives=False,
        )
    k_neg = 0 if not spec.negatives else (1 if spec.k_negative is None else spec.k_negative)
    k_pos = 3 if spec.k_positive is None else spec.k_positive
    return System(
        spec.name, memory=True, typed=spec.typed, k_positive=k_pos, k_negative=k_neg, store_negatives=spec.negatives
    )
