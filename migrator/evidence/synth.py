"""`migrator scenarios synth`: scenario files for a schema nobody wrote scenarios for.

The steps come from the Oracle source alone (migrator.evidence.targets / values / candidates);
which of them are kept is decided by execution: the schema is converted and deployed once in the
sandbox, its PL/pgSQL is instrumented (harness.probing.coverage), and candidates are run in rounds — each
round a few more per target, only for targets whose code is not yet fully executed — keeping a
candidate when it executes a statement or branch no kept one did. Kept scenarios are run a
second time: a table column whose values differ between the two runs (a timestamp, a random
number) is left out of that table's check, and a call whose own result differs is dropped and
reported as nondeterministic. SYSDATE is frozen in every scenario (`fixed_date`).

The file holds steps only. Its ground truth comes from `migrator record --oracle` (G3) or
`--reference` (a trusted PostgreSQL port, at most G2).
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import hashlib
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import psycopg
from tqdm import tqdm

from harness.engines.postgres import scratch_database
from harness.ground_truth.scenarios import Scenario, ScenarioFile, Synthesis
from harness.ground_truth.trusted_port_outcomes import outcome_of
from harness.judge.compare import normalize
from harness.judge.deploy import deploy_units
from harness.judge.runner import ScenarioRun, iter_runs
from harness.probing.coverage import CoveragePlan, instrument
from harness.quoting import quote_ident
from harness.resolution.references import RoutineTracker
from migrator.batch.output import preamble_sql
from migrator.batch.parallel import convert_in_order, default_workers
from migrator.batch.sandboxing import open_engine
from migrator.convert.dispatch import convert_unit, prepare_context
from migrator.evidence.candidates import (
    Candidate,
    as_scenarios,
    call_signature,
    method_candidates,
    neighbours,
    routine_candidates,
    routine_options,
    trigger_candidates,
    variable_candidates,
    view_candidates,
)
from migrator.evidence.catalog_reads import pg_function_oids, pg_routine_args, read_tables, read_view
from migrator.evidence.seed_rows import insert_statements, made_rows, seed_empty_tables
from migrator.evidence.steps import call_step, table_check
from migrator.evidence.targets import Target, family, find_targets
from migrator.source import lexer
from migrator.source.dependencies import analyze_dependencies
from migrator.source.reader import read_schema_dir
from migrator.source.units import UnitKind

ROUND = 4  # candidates per target added in each round
# Per step while selecting. A step that takes longer is not kept (a candidate that loops until
# it is cancelled has nothing to compare), so waiting the full step timeout for it buys nothing.
SELECT_TIMEOUT_MS = 1000


@dataclass
class SynthOptions:
    schema: str | None = None
    budget_steps: int = 32  # candidate calls tried per target, at most
    engine: str | None = None  # engine spec (embedded, a DSN, testcontainers)
    executor: Any = None  # where scenarios run: None (here), "ray[:ADDRESS]" or an executor (harness.cluster)
    progress: bool | None = None
    step_timeout_ms: int = 5000


@dataclass
class TargetResult:
    target: str
    units: list[str]
    kind: str
    tried: int = 0
    kept: int = 0
    covered: int = 0
    probes: int = 0
    skipped: str | None = None
    uncovered: list[str] = field(default_factory=list)  # "routine line N" not executed by kept steps


@dataclass
class SynthResult:
    scenarios: ScenarioFile
    targets: list[TargetResult]
    seconds: float
    seeded: list[str] = field(default_factory=list)  # empty tables given rows in every scenario's setup
    unseeded: dict[str, str] = field(default_factory=dict)  # empty table -> why it got none

    def summary(self) -> str:
        made = [t for t in self.targets if not t.skipped]
        full = [t for t in made if t.probes == 0 or t.covered == t.probes]
        seeded = f", rows made for {len(self.seeded)} empty tables" if self.seeded else ""
        return (f"{len(made)} targets with steps ({sum(t.kept for t in made)} kept of {sum(t.tried for t in made)} tried), "
                f"{len(full)} fully covered, {len(self.targets) - len(made)} without steps{seeded}, {self.seconds:.1f} s")  # fmt: skip


def synthesize(src: Path, opts: SynthOptions | None = None) -> SynthResult:
    opts = opts or SynthOptions()
    t0 = time.perf_counter()
    source = read_schema_dir(src, opts.schema)
    order = analyze_dependencies(source).order
    ctx = prepare_context(source)
    catalog = ctx.catalog
    by_id = source.by_id()
    units = [by_id[u] for u in order]
    conversions = {u.id: c for u, c, _ in convert_in_order(units, ctx, convert_unit, default_workers(len(units)))}
    packages = sorted({u.name for u in source.units if u.kind is UnitKind.PACKAGE_SPEC})
    preamble = preamble_sql(source.schema, packages)
    targets = find_targets(source, ctx)
    results = {id(t): TargetResult(t.key, list(t.units), t.kind, skipped=t.skip) for t in targets}
    kept: list[Scenario] = []
    with open_engine(opts.engine, opts.executor) as engine, scratch_database(engine, prefix="synth") as dsn:
        tracker = RoutineTracker()
        items = [(u.id, conversions[u.id].output, ()) for u in units]
        deploy_units(dsn, preamble, items, probe=tracker)
        plan = instrument(dsn, tracker.created)
        session = _Session(engine, dsn, plan, opts, source.schema, catalog)
        session.transactional, session.transactional_tables = _transactional(source, targets)
        live = [t for t in targets if not t.skip]
        kept = session.select(live, results)
        kept = session.stabilise(kept, results)
    info = Synthesis(tool="migrator 0.1.0", source_hash=_source_hash(source), budget_steps=opts.budget_steps,
                     created_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"))  # fmt: skip
    scenario_file = ScenarioFile(schema=source.schema, synthesis=info, scenarios=kept)
    return SynthResult(scenario_file, [results[id(t)] for t in targets], time.perf_counter() - t0,
                       sorted(session.seed.rows), dict(session.seed.refused))  # fmt: skip


_DYNAMIC_SQL = {"execute", "dbms_sql"}  # words of code that runs SQL text (EXECUTE IMMEDIATE, DBMS_SQL.*)
_ENDS_TRANSACTIONS = {"commit", "rollback", "savepoint", "autonomous_transaction"}


def _transactional(source, targets: list[Target]) -> tuple[set[str], set[str]]:
    """The targets whose runs a rolled-back transaction cannot hold (harness.judge.rollback_runs): a
    unit that commits, rolls back or is autonomous (a dblink session commits apart from ours) is
    among the target's own units, among the routines it names (itself or through what it calls),
    or among the triggers of the tables it writes (and of the tables those write). And the tables
    with such a trigger: a candidate's data change there (its setup) fires it."""
    ends = set()
    for unit in source.units:
        words = {lexer.normalize_identifier(t.text) for t in lexer.code_tokens(unit.text) if t.kind == lexer.WORD}
        if words & _ENDS_TRANSACTIONS:
            ends |= {unit.id, unit.name.lower()}
    hit = {t.key for t in targets if ends & (set(t.units) | t.deep_words)}
    while True:  # a table whose trigger is transactional makes its writers transactional
        tables = {t.pg_name for t in targets if t.kind == "trigger" and t.key in hit}
        more = {t.key for t in targets if t.key not in hit and t.writes & tables}
        if not more:
            return hit, tables
        hit |= more


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z_][\w$#]*", text)}


def _source_hash(source) -> str:
    digest = hashlib.sha256()
    for unit in sorted(source.units, key=lambda u: u.id):
        digest.update(unit.id.encode("utf-8") + b"\0" + unit.text.encode("utf-8") + b"\0")
    return digest.hexdigest()


class _Session:
    """One deployed, instrumented template and the candidate runs against it."""

    def __init__(self, engine, dsn: str, plan: CoveragePlan, opts: SynthOptions, schema: str, catalog):
        self.engine, self.dsn, self.plan, self.opts, self.schema = engine, dsn, plan, opts, schema
        self.template = str(psycopg.conninfo.conninfo_to_dict(dsn)["dbname"])
        self.data, self.rows = read_tables(dsn, schema)
        # a DDL-only export: rows for its empty tables, in the setup of every scenario
        self._oracle_types = {t: {c: str(ty) for c, ty in ((catalog.lookup(schema, t).table.column_types or {})
                                                            if catalog.lookup(schema, t) else {}).items()}
                              for t in self.data.columns}  # fmt: skip
        self.seed = seed_empty_tables(dsn, schema, self.data, self._oracle_types)
        self.rows.update(self.seed.rows)  # (the DataView reads the same dict)
        self.setups: dict[str, list] = {}  # target key -> the seed rows its scenarios set up first
        self.catalog = catalog
        self.user = schema.upper()  # the steps run as the schema's owner, on Oracle and here (USER)
        self.routine: dict[str, tuple[list[int], list]] = {}  # target key -> (OIDs, PostgreSQL args)
        # id(candidate) -> its run, for a candidate that ran in a scenario of its own (data changes,
        # or a target that writes): the very scenario it is kept as, so that run is its first one
        self.own_runs: dict[int, ScenarioRun] = {}
        self.prior: dict[str, ScenarioRun] = {}  # kept scenario id -> that first run
        self.transactional: set[str] = set()  # target keys whose runs a rollback cannot undo
        self.owner: dict[str, str] = {}  # kept scenario id -> its target's key
        self.transactional_tables: set[str] = set()  # tables whose triggers a rollback cannot undo

    def _families(self, table: str) -> dict[str, str]:
        entry = self.catalog.lookup(self.schema, table)
        cols = (entry.table.column_types or {}) if entry else {}
        return {c: family(t, self.catalog, self.schema)[0] for c, t in cols.items()}

    def _candidates(self, target: Target):
        if target.kind == "view":
            return view_candidates(target, self.data)
        if target.kind == "variable":
            names = [target.pg_name, f"set__{target.pg_name}"]
            self.routine[target.key] = (pg_function_oids(self.dsn, target.pg_schema, names), [])
            return variable_candidates(target)
        if target.kind == "method":
            self.routine[target.key] = (pg_function_oids(self.dsn, target.pg_schema, [target.pg_name]), [])
            return method_candidates(target, self.data, self.opts.budget_steps)
        if target.kind == "trigger" and target.trigger is not None and target.trigger.timing == "INSTEAD OF":
            rows, families = read_view(self.dsn, self.schema, target.pg_name, self.data)
            return trigger_candidates(target, self.data, rows, families, self.opts.budget_steps)
        if target.kind == "trigger":
            table = target.pg_name
            rows = self.rows.get(table, [])
            if rows:
                return trigger_candidates(target, self.data, rows, self._families(table), self.opts.budget_steps)
            # an empty table beside tables with data: rows made for it, inserted by the steps
            made = made_rows(self.dsn, self.schema, table, self.data, self._oracle_types.get(table))
            cands = trigger_candidates(target, self.data, made, self._families(table), self.opts.budget_steps)
            first = insert_statements(table, made, self._families(table))  # what an UPDATE or DELETE finds
            return [c if c.step.postgres.startswith("INSERT") or c.setup else dataclasses.replace(c, setup=first)
                    for c in cands]  # fmt: skip
        self.routine[target.key] = pg_routine_args(self.dsn, target)
        return routine_candidates(target, self.data, self.routine[target.key][1], self.opts.budget_steps,
                                  self._families, self._oracle_types.get)  # fmt: skip

    def _probes(self, target: Target) -> set[str]:
        """The probes of the target's own routine (the overload with its number of parameters)
        and of its helpers (e.g. the body of an autonomous routine); a trigger's: all of its unit."""
        mine = set()
        oids = {str(o) for o in self.routine.get(target.key, ([], []))[0]}
        for unit in target.units:
            for p in self.plan.probes.get(unit, []):
                if p.kind != "unreachable" and (target.kind == "trigger" or p.id.split(".")[0] in oids):
                    mine.add(p.id)
        return mine

    def _seed_setups(self, targets: list[Target]) -> None:
        """Each target's seed rows (a DDL-only export, seed_rows): those of the tables it reads or
        writes, of the tables the triggers on those read or write (to a fixed point), and their
        foreign keys' parents; every table for code that builds SQL at run time (its text may
        name any table)."""
        if not self.seed.inserts:
            return
        triggers: dict[str, list[Target]] = {}
        for t in targets:
            if t.kind == "trigger":
                triggers.setdefault(t.pg_name, []).append(t)
        for t in targets:
            if _DYNAMIC_SQL & {w.split(".")[0] for w in t.deep_words}:
                tables = None
            else:
                tables = set(t.reads | t.writes) | ({t.pg_name} if t.kind == "trigger" else set())
                todo = list(tables)
                while todo:
                    for trg in triggers.get(todo.pop(), []):
                        for more in (trg.reads | trg.writes) - tables:
                            tables.add(more)
                            todo.append(more)
            statement = self.seed.statement(tables)
            self.setups[t.key] = [statement] if statement is not None else []

    def select(self, targets: list[Target], results: dict) -> list[Scenario]:
        self._seed_setups(targets)
        pool = {id(t): self._candidates(t) for t in targets}
        state = {
            id(t): _Selection(self._probes(t), must_try=sum(c.keep or c.by_result for c in pool[id(t)]))
            for t in targets
        }
        for t in targets:
            results[id(t)].probes = len(state[id(t)].want)
            if not pool[id(t)]:
                results[id(t)].skipped = "no candidate step could be built (no data to fire it with)"
        show = sys.stderr.isatty() if self.opts.progress is None else self.opts.progress
        with tqdm(total=sum(len(c) for c in pool.values()), desc="synthesizing", unit="step", disable=not show) as bar:
            offset = 0
            while True:
                batch = [(t, pool[id(t)][offset : offset + ROUND]) for t in targets
                         if pool[id(t)][offset : offset + ROUND] and not state[id(t)].complete]  # fmt: skip
                if not batch:
                    break
                self._run_round(batch, state, bar, offset)
                offset += ROUND
            self._near(targets, state, bar, offset)
            self._sweep(targets, pool, state, bar, offset + 10 * ROUND)
            self._around_data(targets, pool, state, bar, offset + 12 * ROUND)
            self._defaults(targets, pool, state, bar, offset + 11 * ROUND)
        out: list[Scenario] = []
        for t in targets:
            sel = state[id(t)]
            res = results[id(t)]
            res.tried, res.kept, res.covered = sel.tried, len(sel.kept), len(sel.have & sel.want)
            probes = {p.id: p for u in t.units for p in self.plan.probes.get(u, [])}
            res.uncovered = sorted(probes[i].where() for i in sel.want - sel.have)
            if sel.kept:
                for sc, group in as_scenarios(t, sel.kept, _scenario_id(t), self.user, self.setups.get(t.key, [])):
                    if _own(t, group) and id(group[0]) in self.own_runs:
                        self.prior[sc.id] = self.own_runs[id(group[0])]
                    self.owner[sc.id] = t.key
                    out.append(sc)
        return out

    def _near(self, targets: list[Target], state: dict, bar, offset: int) -> None:
        """Second phase, for routines whose code is not yet all executed: calls one parameter
        away from the kept call that executed the most (re-centred when a call gets further),
        up to half the budget again."""
        extra = self.opts.budget_steps // 2
        near: dict[int, dict] = {}
        for t in targets:
            sel = state[id(t)]
            if t.kind in ("function", "procedure") and not sel.complete and any(c.values is not None for c in sel.kept):
                seen = {call_signature(c.values, c.setup) for c in sel.tried_cands if c.values is not None}
                near[id(t)] = {"t": t, "centre": None, "queue": [], "spent": 0, "seen": seen,
                               "options": routine_options(t, self.data)}  # fmt: skip
        while True:
            batch = []
            for entry in near.values():
                t, sel = entry["t"], state[id(entry["t"])]
                if sel.complete or entry["spent"] >= extra:
                    continue
                pivots = [c for c in sel.kept if c.values is not None and c.centre]
                best = max(pivots or [c for c in sel.kept if c.values is not None],
                           key=lambda c: sel.score.get(id(c), 0))  # fmt: skip
                if best is not entry["centre"]:
                    entry["centre"] = best
                    setups = [c.setup for c in sel.tried_cands if c.setup and c.centre and not best.setup]
                    entry["queue"] = neighbours(t, best, entry["options"], self.routine[t.key][1], entry["seen"],
                                                1000 + entry["spent"] + sel.tried, setups[:8])  # fmt: skip
                take = entry["queue"][: min(ROUND, extra - entry["spent"])]
                entry["queue"] = entry["queue"][len(take) :]
                if take:
                    entry["spent"] += len(take)
                    bar.total += len(take)
                    batch.append((t, take))
            if not batch:
                return
            self._run_round(batch, state, bar, offset)
            offset += ROUND

    def _sweep(self, targets: list[Target], pool: dict, state: dict, bar, offset: int) -> None:
        """Last, for routines that only read (their steps share one database copy, so more steps
        cost little): calls one parameter away from each kept call, all in one more run, a step
        kept where it answers differently. Coverage is blind to a boundary inside one expression
        (`p_score < 100`) and to a parameter that matters only with another one set (a status
        when no termination date is given): the candidates not tried yet and the calls one
        parameter away from the typical call, alternating with the calls that change another
        parameter than the one a kept call already changed from the typical call (round-robin
        over the kept calls), then the other neighbours."""
        batch = []
        for t in targets:
            sel = state[id(t)]
            if t.kind not in ("function", "procedure") or t.mutates or t.key not in self.routine:
                continue
            seen = {call_signature(c.values, c.setup) for c in sel.tried_cands if c.values is not None}
            calls = [c for c in sel.kept if c.values is not None and not c.setup]
            base = _base(pool[id(t)])
            rest: list[Candidate] = []
            options = routine_options(t, self.data)
            focused: list[list] = []
            for c in calls:
                assert c.values is not None
                changed = {k for k, v in c.values.items() if k in base and v.oracle != base[k].oracle}
                if changed:
                    others = {k: v for k, v in options.items() if k not in changed}
                    focused.append(neighbours(t, c, others, self.routine[t.key][1], seen, 10000 + 1000 * len(focused)))
            depth = max((len(f) for f in focused), default=0)
            pairs = [f[k] for k in range(depth) for f in focused if k < len(f)]
            singles = [c for c in pool[id(t)] if c not in sel.tried_cands and not c.setup]
            for c in calls[:1]:  # the typical call: one parameter at a time
                singles += neighbours(t, c, options, self.routine[t.key][1], seen, 5000)
            rest += [c for k in range(max(len(pairs), len(singles))) for c in (singles[k : k + 1] + pairs[k : k + 1])]
            for c in calls[1:]:
                rest += neighbours(t, c, options, self.routine[t.key][1], seen, 6000 + len(rest))
            rest = rest[: 2 * self.opts.budget_steps]
            if rest:
                bar.total += len(rest)
                batch.append((t, rest))
        if batch:
            self._run_round(batch, state, bar, offset)

    def _around_data(self, targets: list[Target], pool: dict, state: dict, bar, offset: int) -> None:
        """After the sweep, for routines that only read: the calls it kept that changed a
        parameter to another value of the data (the department with a leaver, found by the sweep
        itself) are varied in their other parameters (leavers included), up to half the budget
        per routine, in one more run: a parameter that matters only for some rows of the data."""
        batch = []
        for t in targets:
            sel = state[id(t)]
            if t.kind not in ("function", "procedure") or t.mutates or t.key not in self.routine:
                continue
            base = _base(pool[id(t)])
            seen = {call_signature(c.values, c.setup) for c in sel.tried_cands if c.values is not None}
            options = routine_options(t, self.data)
            defaulted = {p.name for p in t.params if p.has_default}
            lists: list[list[Candidate]] = []
            for c in sel.kept:
                if c.values is None or c.setup:
                    continue
                changed = {k for k, v in c.values.items() if k in base and v.oracle != base[k].oracle}
                if changed and all(c.values[k].source == "data" for k in changed):
                    # (without its defaulted parameters: the next pass, _defaults, makes that one)
                    seen.add(call_signature({k: v for k, v in c.values.items() if k not in defaulted}, []))
                    others = {k: v for k, v in options.items() if k not in changed}
                    lists.append(neighbours(t, c, others, self.routine[t.key][1], seen, 30000 + 1000 * len(lists)))
            depth = max((len(f) for f in lists), default=0)
            rest = [f[k] for k in range(depth) for f in lists if k < len(f)][: self.opts.budget_steps // 2]
            if rest:
                bar.total += len(rest)
                batch.append((t, rest))
        if batch:
            self._run_round(batch, state, bar, offset)

    def _defaults(self, targets: list[Target], pool: dict, state: dict, bar, offset: int) -> None:
        """After the sweep: a kept call that passes defaulted parameters and changes another one
        from the typical call is also made without them, and that form is kept whatever it
        answers: a default (`DEFAULT 0`) shows only in a call that leaves it out and gets to
        where it is used (the department with a leaver). Up to a quarter of the budget per
        routine that only reads; a routine that writes (a database copy each) gets it for its
        kept call that executed the most."""
        batch = []
        for t in targets:
            defaulted = {p.name for p in t.params if p.has_default}
            base = _base(pool.get(id(t), []))
            if t.kind not in ("function", "procedure") or t.key not in self.routine or not defaulted or not base:
                continue
            sel = state[id(t)]
            calls = [c for c in sel.kept if c.values is not None and not c.setup]
            fit = [c for c in calls if defaulted & set(c.values)
                   and any(c.values[k].oracle != v.oracle for k, v in base.items() if k not in defaulted)]  # fmt: skip
            # the calls that executed the most first, then those whose inputs come from the data
            fit.sort(key=lambda c: (-sel.score.get(id(c), 0), -sum(v.source == "data" for v in c.values.values())))
            out: list[Candidate] = []
            have = {call_signature(c.values, c.setup) for c in calls}
            for c in fit:
                if len(out) >= (1 if t.mutates else self.opts.budget_steps // 4):
                    break
                values = {k: v for k, v in c.values.items() if k not in defaulted}
                sig = call_signature(values, [])
                if sig in have:
                    continue
                have.add(sig)
                n = 4000 + len(out)
                step = call_step(f"call_{n}", t, values, self.routine[t.key][1], named=True)
                checks = [table_check(f"after_{n}_{w}", w) for w in sorted(t.writes)]
                out.append(Candidate(step, checks, [], True, values))
            if out:
                bar.total += len(out)
                batch.append((t, out))
        if batch:
            self._run_round(batch, state, bar, offset)

    def _shareable(self, key: str, sc: Scenario) -> bool:
        """Whether `sc` may run in a shared, rolled-back database copy: its target does nothing a
        rollback cannot undo, and its data changes fire no trigger that does."""
        return key not in self.transactional and not any(
            _words(s.postgres) & self.transactional_tables for s in sc.setup
        )

    def _run_round(self, batch, state, bar, offset: int) -> None:
        owners: dict = {}

        def scenarios() -> Iterator[Scenario]:
            """Chunks of ROUND candidates, round-robin over the targets, made as they are run
            (iter_runs takes them lazily): by the time a target's next chunk is made, a call of it
            that hung (cancelled by the timeout) is known, and calls holding what made it hang
            are not run (_Selection.hangs)."""
            chunked = [(t, [cands[k : k + ROUND] for k in range(0, len(cands), ROUND)]) for t, cands in batch]
            for k in range(max((len(chunks) for _t, chunks in chunked), default=0)):
                for t, chunks in chunked:
                    if k >= len(chunks):
                        continue
                    sel = state[id(t)]
                    now = [c for c in chunks[k] if not sel.hangs(c)]
                    sel.tried += len(chunks[k]) - len(now)  # tried, not run
                    bar.update(len(chunks[k]) - len(now))
                    for sc, group in as_scenarios(t, now, f"{_scenario_id(t)}.r{offset}.{k}", self.user,
                                                  self.setups.get(t.key, [])):  # fmt: skip
                        owners[sc.id] = (t, group)
                        yield sc

        # selection runs share database copies, each rolled back (harness.judge.rollback_runs), except
        # where a rollback cannot undo what the code does
        shared = lambda sc: self._shareable(owners[sc.id][0].key, sc)  # noqa: E731
        timeout = min(self.opts.step_timeout_ms, SELECT_TIMEOUT_MS)
        for run in iter_runs(self.engine, self.template, scenarios(), step_timeout_ms=timeout, probe=self.plan.hit,
                             shared=shared):  # fmt: skip
            t, cands = owners[run.scenario_id]
            if run.setup_error:  # a data change the schema refuses (NOT NULL, a check): not a candidate
                bar.update(len(cands))
                continue
            state[id(t)].take(cands, run)
            if _own(t, cands):
                self.own_runs[id(cands[0])] = run
            bar.update(len(cands))

    def stabilise(self, scenarios: list[Scenario], results: dict) -> list[Scenario]:
        """Run the kept scenarios twice; keep what both runs agree on. A scenario that ran alone
        during the selection (a candidate with data changes, or of a target that writes: the same
        setup and steps as the scenario it is kept as) has had its first run there: it runs once
        more only."""
        if not scenarios:
            return scenarios
        started = time.monotonic()  # every run of the selection ended before this
        rest = [sc for sc in scenarios if sc.id not in self.prior]
        first = {sc.id: self.prior[sc.id] for sc in scenarios if sc.id in self.prior}
        # (the template is instrumented: its coverage NOTICEs are set apart in every run, as in
        # the selection's, not taken for output)
        # The first run may share a database copy (rolled back, harness.judge.rollback_runs): what a
        # rollback changes is the same in every run, so it cannot make two runs agree that would
        # not; the second run is in a fresh clone of its own, as `record` and the judge run.
        shared = lambda sc: self._shareable(self.owner[sc.id], sc)  # noqa: E731
        first |= {r.scenario_id: r for r in iter_runs(self.engine, self.template, rest, probe=self.plan.hit,
                                                      step_timeout_ms=self.opts.step_timeout_ms, shared=shared)}  # fmt: skip
        # a clock read at whole seconds (a timestamp(0) column set from CURRENT_TIMESTAMP) must
        # read another second in the second run, or it would pass for stable
        time.sleep(max(0.0, 1.1 - (time.monotonic() - started)))
        second = {r.scenario_id: r for r in iter_runs(self.engine, self.template, scenarios, probe=self.plan.hit,
                                                      step_timeout_ms=self.opts.step_timeout_ms)}  # fmt: skip
        out = []
        for sc in scenarios:
            fixed = _stable(sc, first[sc.id], second[sc.id], self.data)
            if fixed is not None:
                out.append(fixed)
        return out


@dataclass
class _Selection:
    want: set[str]
    have: set[str] = field(default_factory=set)
    kept: list = field(default_factory=list)
    tried: int = 0

    must_try: int = (
        0  # candidates kept whatever they cover (call forms, input classes) or for a new result: all tried first
    )
    score: dict[int, int] = field(default_factory=dict)  # id(candidate) -> probes its run executed
    outcomes: set = field(default_factory=set)  # what the kept steps observed (see _outcome)
    tried_cands: list = field(default_factory=list)
    timed_out: set[str] = field(default_factory=set)  # step texts cancelled by the timeout
    hung: list[frozenset] = field(default_factory=list)  # the inputs of each call cancelled by the timeout
    finished: set = field(default_factory=set)  # inputs seen in calls that finished

    def hangs(self, c) -> bool:
        """Whether `c` would likely hang as a call already tried did: the same step, or a call
        holding every input of a hung call that no finished call held (the delimiter NULL that
        made a split loop forever, whatever the text split)."""
        if c.step.postgres in self.timed_out:
            return True
        mine = _inputs(c)
        return any((p - self.finished) and (p - self.finished) <= mine for p in self.hung)

    @property
    def complete(self) -> bool:
        return bool(self.kept) and self.want <= self.have and self.tried >= self.must_try

    def take(self, cands, run: ScenarioRun) -> None:
        """`cands` ran as `run`: alone in it (all its hits count), or each as one of its steps."""
        for c in cands:
            self.tried += 1
            hits = run.step_hits.get(c.step.name, set()) if len(cands) > 1 else run.hits
            self.tried_cands.append(c)
            self.score[id(c)] = len(hits & self.want)
            new = (hits & self.want) - self.have
            observed = run.observed.get(c.step.name)
            if observed is not None and observed.timed_out:
                self.timed_out.add(c.step.postgres)
                self.hung.append(_inputs(c))
            elif observed is not None:
                self.finished |= _inputs(c)
            if observed is not None and outcome_of(observed)[0] is None:
                continue  # an error with no Oracle code (or a timeout): no ground truth can be recorded for it
            if observed is not None and _beyond_oracle(observed):
                continue  # an answer Oracle cannot give (e.g. LPAD to a width of 99,999,999): nothing to compare
            outcome = _outcome(observed, shared=c.by_result or not (c.checks or c.setup))
            if new or not self.kept or c.keep or (outcome is not None and outcome not in self.outcomes):
                self.kept.append(c)
                self.have |= hits & self.want
            if outcome is not None:
                self.outcomes.add(outcome)


def _inputs(c) -> frozenset:
    """A candidate's inputs as (parameter, Oracle value) pairs, with its data changes."""
    pairs = {(k, v.oracle) for k, v in (c.values or {}).items()}
    return frozenset(pairs | {("setup", s.postgres) for s in c.setup})


# Oracle's longest character value: a VARCHAR2 in PL/SQL (and a DBMS_OUTPUT line) holds 32,767
# bytes. A step that returns more observes what only the PostgreSQL port can produce (Oracle
# raises ORA-06502 there), and would put megabytes into every transcript.
ORACLE_MAX_TEXT = 32767


def _beyond_oracle(observed) -> bool:
    cells = (v for row in observed.rows or [] for v in row)
    return any(isinstance(v, str) and len(v) > ORACLE_MAX_TEXT for v in (*cells, *observed.notices))


def _outcome(observed, shared: bool):
    """What a step observed, for keeping a step that executes nothing new but answers differently
    (a score of 100 is BLOCK where 99 is HIGH: a comparison mutated from `<` to `<=` shows only
    there). A call that only reads: its result, output and error; a call that writes (its own
    scenario, a database copy each): its output and error only, so that a new result alone does
    not cost a copy."""
    if observed is None:
        return None
    rows = None if observed.rows is None else tuple(str(normalize(r)) for r in observed.rows)
    return (
        (rows, tuple(observed.notices), observed.sqlstate) if shared else (tuple(observed.notices), observed.sqlstate)
    )


def _own(t: Target, cands: list) -> bool:
    """Whether `cands` ran as a scenario of its own that as_scenarios makes the same way again."""
    return len(cands) == 1 and (t.mutates or t.kind == "trigger" or bool(cands[0].setup))


def _base(pool: list[Candidate]) -> dict:
    """The typical call's values (the first candidate of a routine), or {}."""
    return dict(pool[0].values) if pool and pool[0].values is not None else {}


def _scenario_id(t: Target) -> str:
    return f"{t.key}.synth"


def _stable(sc: Scenario, a: ScenarioRun, b: ScenarioRun, data) -> Scenario | None:
    steps = []
    dropped: list[str] = []  # the checks that follow a dropped call go with it
    for step in sc.steps:
        if any(step.name.startswith(prefix) for prefix in dropped):
            continue
        oa, ob = a.observed.get(step.name), b.observed.get(step.name)
        if oa is None or ob is None:
            return None
        if _same(oa, ob):
            steps.append(step)
            continue
        if not step.name.startswith("after_"):  # the call itself varies: not a usable step
            n = step.name.removeprefix("call_")
            dropped.append(f"after_{n}_" if n != step.name else f"after_{step.name}_")
            continue
        steps.append(_stable_check(step, oa, ob, data))
    if not any(not s.name.startswith("after_") for s in steps):
        return None
    return sc.model_copy(update={"steps": steps})


def _same(a, b) -> bool:
    norm = lambda o: (  # noqa: E731
        None if o.rows is None else sorted(map(str, (normalize(r) for r in o.rows))),
        o.notices,
        o.sqlstate,
    )
    return norm(a) == norm(b)


def _stable_check(step, a, b, data):
    """The same table check without the columns whose values changed between two runs (compared
    column by column as multisets: the rows themselves come in no particular order)."""
    table = next(t for t in data.columns if step.postgres.endswith(" FROM " + quote_ident(t)))
    columns = data.columns[table]

    def column(rows, i):
        return sorted(str(normalize(r[i])) for r in rows or [] if i < len(r))

    keep = [c for i, c in enumerate(columns) if column(a.rows, i) == column(b.rows, i)]
    return table_check(step.name, table, keep or columns[:1])
