"""Scenarios on a Ray cluster: one actor per node, each with its own PostgreSQL.

Each alive node with CPUs gets one `NodeRunner` actor (pinned to it). The actor starts a server once
— the embedded one, or the next DSN of the pool the user gives (servers the team provides; each gets
its own execution role and scratch databases, as locally) — and keeps it for the whole run; the
sandbox rules hold there as here, because it is the same sandbox code on that server. A template is
carried as a `TemplateImage` through Ray's object store (once per node: it is restored on first use
and kept) and the node runs its shard with the local runner — one fresh clone per scenario, the same
statement timeout — so a scenario's outcome does not depend on where it ran.

Shards (`shards.py`) go to nodes as they free up. A node that dies (its actor or its raylet is
gone) has its shard put back at the front of the queue for another node: results are keyed by the
scenario's position and each shard's results are taken once, so nothing is lost or counted twice.
Runs are yielded in the order of the scenarios, as `iter_runs` does. A lazily generated stream of
scenarios (the synthesizer makes later scenarios from what earlier runs found) is read in windows of
(nodes × parallel + 1), the local runner's look-ahead scaled to the cluster.
"""

from __future__ import annotations

import itertools
import logging
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import ray
from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

from harness.cluster.executor import ExecutorUnavailable
from harness.cluster.shards import make_shards
from harness.cluster.template_image import TemplateImage, export_template, import_template

# What a lost node looks like to the driver (the actor, its worker or its raylet died).
_LOST: tuple[type[BaseException], ...] = (
    ray.exceptions.RayActorError,
    ray.exceptions.WorkerCrashedError,
    ray.exceptions.ObjectLostError,
    *((ray.exceptions.NodeDiedError,) if hasattr(ray.exceptions, "NodeDiedError") else ()),
)


@ray.remote(max_restarts=0, max_task_retries=0)
class NodeRunner:
    """One node's server and the templates restored on it."""

    def __init__(self, engine_spec: str, extensions: tuple[str, ...]):
        from harness.engines.postgres import engine_from_spec

        self.engine = engine_from_spec(engine_spec, extensions).__enter__()
        self.templates: dict[str, str] = {}

    def ready(self) -> tuple[str, str]:
        return ray.get_runtime_context().get_node_id(), self.engine.name

    def run(
        self,
        image: TemplateImage,
        scenarios: list[Any],
        step_timeout_ms: int,
        parallel: int,
        probe: Callable[[str], str | None] | None,
        shared: Callable[[Any], bool] | None,
        prelude: str | None = None,
    ) -> tuple[list[Any], float]:
        from harness.judge.runner import iter_runs_local

        t0 = time.perf_counter()
        template = self.templates.get(image.digest)
        if template is None:
            template = self.templates[image.digest] = import_template(self.engine, image)
        runs = list(
            iter_runs_local(
                self.engine, template, scenarios, step_timeout_ms=step_timeout_ms, parallel=parallel,
                probe=probe, shared=shared, prelude=prelude,
            )
        )  # fmt: skip
        return runs, time.perf_counter() - t0

    def close(self) -> None:
        for name in self.templates.values():
            try:
                self.engine.sandbox.drop_database(name)
            except Exception:  # the server is going away anyway
                pass
        self.engine.__exit__(None, None, None)


class RayExecutor:
    name = "ray"

    def __init__(
        self,
        address: str | None,
        *,
        dsn_pool: Sequence[str] = (),
        extensions: tuple[str, ...] | None = None,
        shards_per_node: int = 4,
        ready_timeout_s: float = 300.0,
        on_shard: Callable[[RayExecutor, set[str]], None] | None = None,
    ):
        self.address, self.dsn_pool = address, tuple(dsn_pool)
        self.extensions = extensions
        self.shards_per_node, self.ready_timeout_s = shards_per_node, ready_timeout_s
        self.actors: list[Any] = []
        self.nodes: list[str] = []
        self.dead: set[int] = set()
        self._images: dict[str, Any] = {}
        self._started_ray = False
        # called after every finished shard with the node ids still busy (tests kill one of them)
        self.on_shard = on_shard
        # node_seconds: inside the actors; overhead_seconds: a shard's round trip beyond that (scheduling,
        # transfer of scenarios and runs, waiting for a free node)
        self.stats = {"shards": 0, "shards_rerun": 0, "scenarios": 0, "node_seconds": 0.0, "overhead_seconds": 0.0,
                      "template_exports": 0, "export_seconds": 0.0}  # fmt: skip

    # -- lifecycle ---------------------------------------------------------------------------------
    def open(self, extensions: tuple[str, ...] | None = None) -> None:
        if extensions is not None:
            self.extensions = extensions
        if not ray.is_initialized():
            try:
                ray.init(
                    address=self.address, include_dashboard=False, logging_level=logging.ERROR, log_to_driver=False,
                    ignore_reinit_error=True,
                )  # fmt: skip
            except Exception as exc:  # ConnectionError, RuntimeError, ValueError: Ray's own words say why
                raise ExecutorUnavailable(f"cannot join the Ray cluster at {self.address or 'local'}: {exc}") from None
            self._started_ray = True
        nodes = [n for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get("CPU", 0) > 0]
        if not nodes:
            raise ExecutorUnavailable("the Ray cluster has no alive node with CPUs")
        if self.dsn_pool and len(self.dsn_pool) < len(nodes):
            nodes = nodes[: len(self.dsn_pool)]  # one server per node: no more nodes than servers
        for i, node in enumerate(nodes):
            spec = self.dsn_pool[i] if self.dsn_pool else "embedded"
            actor = NodeRunner.options(  # type: ignore[attr-defined]  # added by @ray.remote
                scheduling_strategy=NodeAffinitySchedulingStrategy(node["NodeID"], soft=False), num_cpus=0
            ).remote(spec, tuple(self.extensions or ()))
            self.actors.append(actor)
            self.nodes.append(node["NodeID"])
        try:
            ray.get([a.ready.remote() for a in self.actors], timeout=self.ready_timeout_s)
        except Exception as exc:
            self.close()
            raise ExecutorUnavailable(f"the cluster's nodes could not start PostgreSQL: {exc}") from None

    def close(self) -> None:
        live = [a for i, a in enumerate(self.actors) if i not in self.dead]
        if live:
            try:
                ray.get([a.close.remote() for a in live], timeout=120)
            except Exception:  # a node lost while closing: its server went with it
                pass
            for a in live:
                ray.kill(a)
        self.actors, self.nodes, self._images = [], [], {}
        if self._started_ray and ray.is_initialized():
            ray.shutdown()
            self._started_ray = False

    @property
    def alive(self) -> list[int]:
        return [i for i in range(len(self.actors)) if i not in self.dead]

    # -- runs --------------------------------------------------------------------------------------
    def _image(self, engine: Any, template: str):
        if template not in self._images:
            t0 = time.perf_counter()
            inner = getattr(engine, "inner", engine)
            self._images[template] = ray.put(export_template(inner, template))
            self.stats["template_exports"] += 1
            self.stats["export_seconds"] += time.perf_counter() - t0
        return self._images[template]

    def iter_runs(
        self,
        engine: Any,
        template: str,
        scenarios: Iterable[Any],
        *,
        step_timeout_ms: int,
        parallel: int,
        probe: Callable[[str], str | None] | None,
        shared: Callable[[Any], bool] | None,
        prelude: str | None = None,
    ) -> Iterator[Any]:
        if not self.actors:
            self.open(tuple(getattr(engine.sandbox, "extensions", ()) or ()))
        image = self._image(engine, template)
        if isinstance(scenarios, Sequence):
            windows: Iterable[list[Any]] = [list(scenarios)]
        else:
            size = max(1, len(self.alive) * max(1, parallel)) + 1
            it = iter(scenarios)
            windows = iter(lambda: list(itertools.islice(it, size)), [])
        for window in windows:
            yield from self._run_window(image, window, step_timeout_ms, parallel, probe, shared, prelude)

    def _run_window(
        self, image, scenarios: list[Any], step_timeout_ms, parallel, probe, shared, prelude=None
    ) -> Iterator[Any]:
        if not scenarios:
            return
        shards = deque(make_shards(scenarios, max(1, len(self.alive)) * self.shards_per_node))
        results: dict[int, Any] = {}
        in_flight: dict[Any, tuple[int, Any]] = {}
        sent: dict[Any, float] = {}
        idle = deque(self.alive)
        next_out = 0
        while shards or in_flight:
            while shards and idle:
                node = idle.popleft()
                if node in self.dead:
                    continue
                shard = shards.popleft()
                batch = [scenarios[i] for i in shard.members]
                ref = self.actors[node].run.remote(image, batch, step_timeout_ms, parallel, probe, shared, prelude)
                in_flight[ref] = (node, shard)
                sent[ref] = time.perf_counter()
            if not in_flight:
                raise ExecutorUnavailable(f"every node of the Ray cluster was lost; {len(shards)} shard(s) not run")
            done, _ = ray.wait(list(in_flight), num_returns=1)
            node, shard = in_flight.pop(done[0])
            round_trip = time.perf_counter() - sent.pop(done[0])
            try:
                runs, seconds = ray.get(done[0])
            except _LOST:
                self.dead.add(node)  # its shard goes back first, to a node that is still there
                shards.appendleft(shard)
                self.stats["shards_rerun"] += 1
                continue
            except ray.exceptions.RayTaskError as exc:
                raise exc.as_instanceof_cause() from None  # our own code failed there: same error as locally
            idle.append(node)
            self.stats["shards"] += 1
            self.stats["scenarios"] += len(runs)
            self.stats["node_seconds"] += seconds
            self.stats["overhead_seconds"] += max(0.0, round_trip - seconds)
            for position, run in zip(shard.members, runs, strict=True):
                results[position] = run
            if self.on_shard is not None:
                self.on_shard(self, {self.nodes[n] for n, _ in in_flight.values()})
            while next_out in results:
                yield results.pop(next_out)
                next_out += 1
