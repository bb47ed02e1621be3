"""Scenario runs that share a database copy: each scenario in one transaction, rolled back.

The synthesizer's selection runs thousands of candidate scenarios, and a clone, a new session and
a drop per run cost more there than the steps (utilities: 622 runs, a third of their time in
CREATE/DROP DATABASE, most of the rest in connecting and compiling the same PL/pgSQL again). Here
a few long-lived sessions, each on a clone of its own, run one scenario at a time as

    BEGIN; SET CONSTRAINTS ALL IMMEDIATE; settings (local); per setup statement and step:
    SAVEPOINT / the statement / RELEASE or ROLLBACK TO SAVEPOINT; ROLLBACK

and then put back every sequence the scenario moved (`nextval` is not transactional). A step
still fails alone, as in autocommit: its savepoint undoes it and the next step runs. Package state
kept in prepared statements (as Oracle keeps it past a rollback) is deallocated after each
scenario, with currval, advisory locks and LISTENs; settings, temporary tables and rows are undone
by the ROLLBACK. (One trace stays: a custom setting first defined by a scenario reads '' instead
of NULL in the next; the runtime reads its own settings through nullif/coalesce.)

What a rollback cannot undo, or a transaction block changes, runs in a clone of its own instead
(`run` returns None, and the caller falls back to `runner.run_scenario`):
- code that ends transactions (COMMIT / ROLLBACK in a procedure: SQLSTATE 2D000 inside a block) or
  must run outside one (25001); detected when it happens;
- autonomous transactions (a dblink session commits apart from ours): the caller decides
  beforehand, from the source, which scenarios may share (`iter_runs(shared=...)`).

Two differences remain, which is why only the selection (what to keep) runs this way and never a
recording or a verdict: CURRENT_TIMESTAMP is the transaction's start for every step, and a
deferred constraint is checked at the end of its statement instead of at the step's commit. The
kept scenarios are run again in fresh clones by the stabiliser, by `record` and by the judge.
"""

from __future__ import annotations

import queue
import threading
import time

import psycopg

from harness.engines.pg_sandbox import Clone, replay_settings
from harness.engines.postgres import PostgresEngine
from harness.ground_truth.scenarios import Scenario
from harness.judge.runner import ProbeReader, ScenarioRun, _execute

# errors that mean "this cannot run inside a transaction block", not an answer of the code
OUTSIDE_BLOCK_ONLY = {"2D000", "25001"}


class _Session:
    def __init__(self, engine: PostgresEngine, template: str, step_timeout_ms: int, probe: ProbeReader | None):
        self.engine = engine
        self.clone: Clone = engine.sandbox.clone(template, purpose="share")
        self.conn: psycopg.Connection | None = None
        self.probe = probe
        self.run: ScenarioRun | None = None
        self.current: set[str] = set()
        self.notices: list[str] = []
        try:
            # no statements prepared by the driver: DEALLOCATE ALL ends every scenario
            self.conn = psycopg.connect(engine.dsn(self.clone.name), autocommit=True, prepare_threshold=None)
            error = replay_settings(self.conn, self.clone.name, self.clone.settings)
            if error:
                raise RuntimeError(error)
            self.conn.add_notice_handler(self._on_notice)
            self.conn.execute(f"SET statement_timeout = {int(step_timeout_ms)}")
            self.conn.execute(f"SET lock_timeout = {int(step_timeout_ms)}")
            self.sequences = self._sequences()
        except BaseException:
            self.close()
            raise

    def _on_notice(self, diag) -> None:
        text = diag.message_primary or ""
        hit = self.probe(text) if self.probe is not None else None
        if hit is None:
            self.notices.append(text)
        elif self.run is not None:
            self.run.hits.add(hit)
            self.current.add(hit)

    def _sequences(self) -> dict[int, tuple[int, int | None]]:
        """Each sequence's (start, last value or None when never called)."""
        assert self.conn is not None
        rows = self.conn.execute(
            "SELECT format('%I.%I', schemaname, sequencename)::regclass::oid, start_value, last_value "
            "FROM pg_catalog.pg_sequences"
        ).fetchall()
        return {int(oid): (int(start), None if last is None else int(last)) for oid, start, last in rows}

    def _restore_sequences(self) -> None:
        now = self._sequences()
        assert self.conn is not None
        for oid, (start, last) in self.sequences.items():
            if now.get(oid) == (start, last):
                continue
            if last is None:
                self.conn.execute("SELECT pg_catalog.setval(%s::oid::regclass, %s, false)", (oid, start))
            else:
                self.conn.execute("SELECT pg_catalog.setval(%s::oid::regclass, %s, true)", (oid, last))
        if set(now) != set(self.sequences):  # created or dropped for good: cannot be put back
            raise RuntimeError("the scenario changed the set of sequences")

    def _guarded(self, text: str):
        assert self.conn is not None
        self.conn.execute("SAVEPOINT migrator_step")
        obs = _execute(self.conn, text, self.notices)
        self.conn.execute("ROLLBACK TO SAVEPOINT migrator_step" if obs.sqlstate else "RELEASE SAVEPOINT migrator_step")
        return obs

    def execute(self, scenario: Scenario) -> ScenarioRun | None:
        assert self.conn is not None
        run = ScenarioRun(scenario.id)
        self.run, self.current = run, set()
        conn = self.conn
        conn.execute("BEGIN")
        try:
            conn.execute("SET CONSTRAINTS ALL IMMEDIATE")
            if scenario.fixed_date:
                conn.execute("SELECT set_config('oracompat.fixed_date', %s, true)", (scenario.fixed_date,))
            if scenario.session_user:
                conn.execute("SELECT set_config('oracompat.session_user', %s, true)", (scenario.session_user,))
            for stmt in scenario.setup:
                obs = self._guarded(stmt.postgres)
                if obs.sqlstate in OUTSIDE_BLOCK_ONLY:
                    return None
                if obs.sqlstate is not None:
                    run.setup_error = f"setup failed: SQLSTATE {obs.sqlstate}: {obs.message}"
                    return run
            for step in scenario.steps:
                if self.probe is not None:
                    conn.execute("SELECT pg_catalog.set_config('migrator.cov', '', false)")
                self.current = run.step_hits.setdefault(step.name, set())
                obs = self._guarded(step.postgres)
                if obs.sqlstate in OUTSIDE_BLOCK_ONLY:
                    return None
                run.observed[step.name] = obs
                # (a step that timed out was cancelled and its savepoint undid it: unlike a session
                # of its own, this one is in a known state, and the next step runs)
            return run
        finally:
            self.run = None
            conn.execute("ROLLBACK")
            # What a rollback leaves in the session: package state (converted packages keep it in
            # prepared statements, as Oracle keeps it past a rollback), currval, locks, listens.
            conn.execute("DEALLOCATE ALL; DISCARD SEQUENCES; UNLISTEN *; SELECT pg_catalog.pg_advisory_unlock_all()")
            self._restore_sequences()

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.engine.sandbox.drop_database(self.clone.name)


class SharedClones:
    """Sessions on clones of `template`, lent to one scenario at a time (thread-safe)."""

    def __init__(self, engine: PostgresEngine, template: str, *, step_timeout_ms: int, probe: ProbeReader | None):
        self.engine, self.template, self.timeout, self.probe = engine, template, step_timeout_ms, probe
        self._idle: queue.SimpleQueue[_Session] = queue.SimpleQueue()
        self._all: list[_Session] = []
        self._lock = threading.Lock()

    def run(self, scenario: Scenario) -> ScenarioRun | None:
        """The scenario's run in a shared clone, or None when it must run in a clone of its own."""
        t0 = time.perf_counter()
        try:
            session = self._idle.get_nowait()
        except queue.Empty:
            session = _Session(self.engine, self.template, self.timeout, self.probe)
            with self._lock:
                self._all.append(session)
        try:
            run = session.execute(scenario)
        except (psycopg.Error, RuntimeError):
            # a broken session or sequences that cannot be put back: that copy is not trusted again
            with self._lock:
                self._all.remove(session)
            session.close()
            return None
        self._idle.put(session)
        if run is not None:
            run.seconds = time.perf_counter() - t0
        return run

    def close(self) -> None:
        with self._lock:
            sessions, self._all = self._all, []
        for s in sessions:
            s.close()
