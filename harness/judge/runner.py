"""Run scenarios on PostgreSQL: one fresh database per scenario, cloned from a deployed template.

Isolation: the template holds the deployed schema and data; each scenario gets its own clone
(`CREATE DATABASE ... TEMPLATE ... STRATEGY FILE_COPY`, fast for small schemas, made by the
sandbox's admin and owned by the execution role that runs the steps), so one unit's
side effects never reach another's verdict, and package state starts fresh in each scenario's
session. Every step runs under `statement_timeout`; a step that hits it is reported as a timeout
and the scenario's remaining steps are skipped.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import psycopg

from harness.engines.pg_sandbox import Clone, replay_settings
from harness.engines.postgres import PostgresEngine
from harness.ground_truth.scenarios import Scenario
from harness.judge import out_types
from harness.judge.compare import Observed

TIMEOUT_SQLSTATE = "57014"


@dataclass
class ScenarioRun:
    scenario_id: str
    observed: dict[str, Observed] = field(default_factory=dict)  # step name -> what happened
    setup_error: str | None = None
    seconds: float = 0.0
    hits: set[str] = field(default_factory=set)  # coverage probes that fired (harness.probing.coverage)
    step_hits: dict[str, set[str]] = field(default_factory=dict)  # step name -> probes it fired


def _clone(engine: PostgresEngine, template: str) -> Clone:
    return engine.sandbox.clone(template)


def _drop(engine: PostgresEngine, clone: Clone) -> None:
    engine.sandbox.drop_database(clone.name)


class _Watchdog:
    """Cancels the running statement from the client after `seconds` of real time: on a server
    whose clock is frozen (harness.engines.frozen_clock) statement_timeout never expires."""

    def __init__(self, conn: psycopg.Connection, seconds: float):
        self._conn, self._lock, self._done = conn, threading.Lock(), False
        self._timer = threading.Timer(seconds, self._fire)
        self._timer.daemon = True

    def _fire(self) -> None:
        with self._lock:  # never after `__exit__`: the cancel would hit the next statement
            if not self._done:
                self._conn.cancel_safe()

    def __enter__(self) -> _Watchdog:
        self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        with self._lock:
            self._done = True
        self._timer.cancel()


def _execute(conn: psycopg.Connection, text: str, notices: list[str], watchdog_s: float | None = None) -> Observed:
    if watchdog_s is not None:
        with _Watchdog(conn, watchdog_s):
            return _execute(conn, text, notices)
    notices.clear()
    try:
        cur = conn.execute(text.encode("utf-8"))
        rows = None
        # A multi-statement step reports the last result set, as SQL*Plus shows the last query.
        while True:
            if cur.description is not None:
                rows = [list(r) for r in cur.fetchall()]
            if not cur.nextset():
                break
        return Observed(rows, list(notices))
    except psycopg.errors.QueryCanceled as exc:
        return Observed(None, list(notices), TIMEOUT_SQLSTATE, str(exc).strip(), timed_out=True)
    except psycopg.Error as exc:
        message = exc.diag.message_primary if exc.diag and exc.diag.message_primary else str(exc).strip()
        return Observed(None, list(notices), exc.sqlstate, message)


ProbeReader = Callable[[str], str | None]  # a NOTICE -> the coverage probe id it reports, or None


def _run_in(
    engine: PostgresEngine,
    db: Clone,
    scenario: Scenario,
    step_timeout_ms: int,
    prelude: str | None,
    probe: ProbeReader | None = None,
) -> ScenarioRun:
    run = ScenarioRun(scenario.id)
    # a frozen clock stops the server's own timeouts: the client cancels at the same limit
    watchdog = step_timeout_ms / 1000 if getattr(engine, "clock_frozen", False) else None
    with psycopg.connect(engine.dsn(db.name), autocommit=True) as conn:
        # The template's database settings (e.g. the preamble's search_path), replayed by the
        # execution role itself: values are data here, never SQL text on the admin connection.
        run.setup_error = replay_settings(conn, db.name, db.settings)
        if run.setup_error:
            return run
        notices: list[str] = []
        current: set[str] = set()  # the probes the running step fired

        def on_notice(diag) -> None:
            # Coverage probes report through NOTICEs too; they are not what the step printed.
            text = diag.message_primary or ""
            hit = probe(text) if probe is not None else None
            if hit is None:
                notices.append(text)
            else:
                run.hits.add(hit)
                current.add(hit)

        conn.add_notice_handler(on_notice)
        conn.execute(f"SET statement_timeout = {int(step_timeout_ms)}")
        conn.execute(f"SET lock_timeout = {int(step_timeout_ms)}")
        if scenario.fixed_date:  # the session's SYSDATE, as Oracle's FIXED_DATE sets it
            conn.execute("SELECT set_config('oracompat.fixed_date', %s, false)", (scenario.fixed_date,))
        if scenario.session_user:  # the Oracle user the session stands for (USER)
            conn.execute("SELECT set_config('oracompat.session_user', %s, false)", (scenario.session_user,))
        if prelude:
            obs = _execute(conn, prelude, notices, watchdog)
            if obs.sqlstate is not None:
                run.setup_error = f"candidate failed to deploy: SQLSTATE {obs.sqlstate}: {obs.message}"
                return run
        signatures: out_types.Cache = {}
        for stmt in scenario.setup:
            obs = _execute(conn, out_types.adapted(conn, stmt, signatures), notices, watchdog)
            if obs.sqlstate is not None:
                run.setup_error = f"setup failed: SQLSTATE {obs.sqlstate}: {obs.message}"
                return run
        for step in scenario.steps:
            if probe is not None:  # each step reports every probe it reaches, not only new ones
                conn.execute("SELECT pg_catalog.set_config('migrator.cov', '', false)")
            current = run.step_hits.setdefault(step.name, set())
            text = out_types.adapted(conn, step, signatures)  # OUT variables typed as this server's
            obs = _execute(conn, text, notices, watchdog)
            run.observed[step.name] = obs
            if obs.timed_out:
                break  # the session may be in an odd state; later steps are not trustworthy
    return run


def run_scenario(
    engine: PostgresEngine,
    template: str,
    scenario: Scenario,
    *,
    step_timeout_ms: int,
    prelude: str | None = None,
    probe: ProbeReader | None = None,
) -> ScenarioRun:
    """Run `scenario` in a fresh clone of `template`. `prelude` (e.g. a candidate version of the
    unit under repair) is deployed into the clone first; its failure is a setup error."""
    t0 = time.perf_counter()
    db = _clone(engine, template)
    try:
        run = _run_in(engine, db, scenario, step_timeout_ms, prelude, probe)
    finally:
        _drop(engine, db)
    run.seconds = time.perf_counter() - t0
    return run


def iter_runs(
    engine: PostgresEngine,
    template: str,
    scenarios: Iterable[Scenario],
    *,
    step_timeout_ms: int = 5000,
    parallel: int = 2,
    probe: ProbeReader | None = None,
    shared: Callable[[Scenario], bool] | None = None,
    prelude: str | None = None,
) -> Iterator[ScenarioRun]:
    """Every scenario's run, in order: on this engine's server, or on the cluster of an engine
    that carries an executor (`harness.cluster.executor.ClusterEngine`)."""
    executor = getattr(engine, "executor", None)
    if executor is not None:
        return executor.iter_runs(
            engine, template, scenarios, step_timeout_ms=step_timeout_ms, parallel=parallel, probe=probe,
            shared=shared, prelude=prelude,
        )  # fmt: skip
    return iter_runs_local(
        engine, template, scenarios, step_timeout_ms=step_timeout_ms, parallel=parallel, probe=probe,
        shared=shared, prelude=prelude,
    )  # fmt: skip


def iter_runs_local(
    engine: PostgresEngine,
    template: str,
    scenarios: Iterable[Scenario],
    *,
    step_timeout_ms: int = 5000,
    parallel: int = 2,
    probe: ProbeReader | None = None,
    shared: Callable[[Scenario], bool] | None = None,
    prelude: str | None = None,
) -> Iterator[ScenarioRun]:
    """Run every scenario in its own clone, `parallel` at a time, results yielded in order.

    A run spends its time waiting on the server (the client only sends steps and reads what comes
    back), so `parallel` sessions keep that many server cores busy; a further thread clones the
    next template copy meanwhile. Isolation is unchanged: one fresh clone per scenario, each
    session on its own database. `seconds` of a run is its own wall time (clone, steps, drop).
    `scenarios` is read as runs are started, at most `parallel` + 1 ahead of the run yielded: a
    generator may make later scenarios from what earlier runs found.

    `shared` (the synthesizer's selection only): the scenarios it accepts run in a transaction that
    is rolled back, on a few long-lived clones (harness.judge.rollback_runs), and fall back to a clone
    of their own when that cannot hold them. `prelude` runs first in each scenario's own session
    (as in run_scenario)."""
    from harness.judge.rollback_runs import SharedClones  # (it builds on this module)

    clones = SharedClones(engine, template, step_timeout_ms=step_timeout_ms, probe=probe) if shared else None

    def one(s: Scenario) -> ScenarioRun:
        if clones is not None and shared is not None and shared(s):
            run = clones.run(s)
            if run is not None:
                return run
        return run_scenario(engine, template, s, step_timeout_ms=step_timeout_ms, probe=probe, prelude=prelude)

    window = max(1, parallel) + 1  # runs in flight: `parallel` running steps, one cloning
    try:
        with ThreadPoolExecutor(max_workers=window, thread_name_prefix="scenario") as pool:
            todo = iter(scenarios)
            pending = [pool.submit(one, s) for s in itertools.islice(todo, window)]
            try:
                while pending:
                    run = pending.pop(0).result()
                    nxt = next(todo, None)
                    if nxt is not None:
                        pending.append(pool.submit(one, nxt))
                    yield run
            finally:  # stopped early (error, generator closed): runs not started never start; the
                for future in pending:  # running ones drop their own clones before the pool closes
                    future.cancel()
    finally:
        if clones is not None:
            clones.close()
