"""Ground truth from a trusted PostgreSQL port (`migrator record --reference DIR`).

A team that already has a PostgreSQL version of the schema it trusts (a hand port, an earlier
release) can record what that port does in every scenario step and judge a new migration against
it. The port is untrusted *input* all the same: it is deployed only into a scratch database of the
sandbox, as the execution role, never on the admin connection.

Deployment: the `.sql` files under DIR in name order (relative paths, sorted), split into
statements by PostgreSQL's own parser (its scanner, at top-level semicolons, when a file does not
parse as a whole). Each statement runs on its own; those that fail are retried in rounds, in
order, for as long as a round deploys something more — so a file that needs a later file first
still deploys. What never deploys is reported with its file, line and PostgreSQL's error.

Recording: each scenario runs in a fresh clone of the deployed port, exactly as the judge runs
one (harness.judge.runner); each step's PostgreSQL form becomes an outcome (harness.ground_truth.trusted_port_outcomes).
The port reads the scenario's frozen instant where a frozen-clock server can run (see
`record_reference`), else its answers that move with the clock are marked clock-dependent.
A failing step is recorded as the error it raised — that *is* the reference's behaviour — but a
scenario whose setup fails on the reference is left out and reported. Provenance `reference`
carries the port's content hash; such evidence is at most G2 (harness.judge.verdict).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import platform
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import psycopg
from pglast.parser import scan, split
from tqdm import tqdm

from harness.engines.pg_sandbox import one
from harness.engines.postgres import PostgresEngine, scratch_database
from harness.ground_truth.scenarios import Outcome, Provenance, Scenario, ScenarioFile, TranscriptFile
from harness.ground_truth.trusted_port_outcomes import number_unknown, outcome_of
from harness.judge.deploy import execute_script, has_inline_copy
from harness.judge.runner import iter_runs

RECORDER_VERSION = "migrator-reference-recorder/1"


class PortError(ValueError):
    """The reference directory cannot be read (the message names the file)."""


@dataclass(frozen=True)
class PortStatement:
    file: str  # relative path inside the port
    line: int
    text: str


@dataclass
class ReferenceRecording:
    transcript: TranscriptFile
    not_deployed: list[str] = field(default_factory=list)  # "file:line: error"
    left_out: list[str] = field(default_factory=list)  # scenarios whose setup failed on the port
    unrecorded: list[str] = field(default_factory=list)  # steps with no Oracle-shaped outcome
    statements: int = 0
    rounds: int = 0  # deployment rounds that deployed something
    clock_dependent: list[str] = field(default_factory=list)  # "scenario/step" answering with the clock
    number_unknown: int = 0  # steps recorded as user-defined errors without a number (plain P0001)


# A `migrator migrate` output folder (it holds the run's state folder) given as the port: its
# deploy.sql is psql's list of the unit files (`\ir` lines, no SQL) and its extensions file needs a
# superuser (the sandbox installs the extensions itself); its unit files and preamble are the port.
MIGRATE_STATE_DIR = ".migrator"
MIGRATE_SCRIPTS = ("deploy.sql", "support/00_extensions.sql")


def skipped_files(root: Path) -> list[str]:
    """The files of `root` that are not deployed: MIGRATE_SCRIPTS, when `root` is a migrate output."""
    if not (root / MIGRATE_STATE_DIR).is_dir():
        return []
    return [rel for rel in MIGRATE_SCRIPTS if (root / rel).is_file()]


def port_files(root: Path) -> list[tuple[str, Path]]:
    """(relative POSIX path, path) of every `.sql` file under `root`, in name order (skipped_files
    left out)."""
    if not root.is_dir():
        raise PortError(f"{root}: not a directory")
    skipped = set(skipped_files(root))
    found = [
        (rel, p) for p in root.rglob("*.sql") if p.is_file() and (rel := p.relative_to(root).as_posix()) not in skipped
    ]
    if not found:
        raise PortError(f"{root}: no .sql files")
    return sorted(found)


def _read(rel: str, path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise PortError(f"{rel}: cannot be read: {exc.strerror or exc}") from exc


def content_hash(root: Path) -> str:
    """sha256 over the port's sorted relative paths and bytes (what was deployed, exactly)."""
    digest = hashlib.sha256()
    for rel, path in port_files(root):
        data = _read(rel, path)
        digest.update(rel.encode("utf-8") + b"\x00" + str(len(data)).encode() + b"\x00" + data)
    return digest.hexdigest()


def _slices(text: str) -> list[tuple[int, int]]:
    try:
        return [(s.start, s.stop) for s in split(text, with_parser=True, only_slices=True)]
    except Exception:  # a syntax error somewhere: cut at top-level semicolons, keep every statement
        pass
    out: list[tuple[int, int]] = []
    start: int | None = None
    end = depth = 0  # `end` is read only once `start` is set, and both are set together
    for tok in scan(text):
        if tok.name == "ASCII_59" and depth == 0:
            if start is not None:
                out.append((start, end))
            start = None
            continue
        depth += {"ASCII_40": 1, "ASCII_41": -1}.get(tok.name, 0)
        start = tok.start if start is None else start
        end = tok.end + 1
    if start is not None:
        out.append((start, end))
    return out


def port_statements(root: Path) -> list[PortStatement]:
    statements = []
    for rel, path in port_files(root):
        try:
            text = _read(rel, path).decode("utf-8")
        except UnicodeDecodeError as exc:
            raise PortError(f"{rel}: not UTF-8 (byte {exc.start})") from exc
        try:
            # inline COPY rows are data no SQL splitter reads: the file runs whole, as psql runs it
            cuts = [(0, len(text))] if has_inline_copy(text) else _slices(text)
        except Exception:  # the scanner refuses it (an unterminated quote): the server says why
            cuts = [(0, len(text))]
        statements += [PortStatement(rel, text.count("\n", 0, a) + 1, text[a:b]) for a, b in cuts]
    return statements


def deploy_port(dsn: str, statements: list[PortStatement], *, timeout_ms: int = 30_000) -> tuple[list[str], int]:
    """Deploy in rounds until a round adds nothing; returns what never deployed (with its error)
    and the number of rounds that deployed something."""
    pending: list[tuple[PortStatement, str]] = [(s, "") for s in statements]
    rounds = 0
    with psycopg.connect(dsn, autocommit=True) as conn:
        conn.execute(f"SET statement_timeout = {int(timeout_ms)}")
        while pending:
            failed = []
            for statement, _ in pending:
                error, _state = execute_script(conn, statement.text)
                if error is not None:
                    failed.append((statement, error))
            progress = len(failed) < len(pending)
            pending = failed
            if not progress:
                break
            rounds += 1
    return [f"{s.file}:{s.line}: {err}" for s, err in pending], rounds


def _server_version(dsn: str) -> str:
    with psycopg.connect(dsn, autocommit=True) as conn:
        return "PostgreSQL " + one(conn, "SHOW server_version")[0]


def _outcomes(run, scenario, unrecorded: list[str]) -> dict[str, Outcome]:
    steps: dict[str, Outcome] = {}
    for step in scenario.steps:
        observed = run.observed.get(step.name)
        if observed is None:
            unrecorded.append(f"{scenario.id}/{step.name}: not run (an earlier step timed out)")
            continue
        outcome, problem = outcome_of(observed)
        if outcome is None:
            unrecorded.append(f"{scenario.id}/{step.name}: {problem}")
        else:
            steps[step.name] = outcome
    return steps


# Where the clock cannot be frozen, each scenario is recorded again in sessions whose local clock
# stands 26 hours apart (UTC-12 and UTC+14): LOCALTIMESTAMP, CURRENT_DATE, now()::timestamp and
# clock_timestamp()::date all move by a day or more, and the runs are moments apart besides, so a
# step whose answer follows the clock answers differently. (What reads the absolute instant alone —
# extract(epoch FROM now()) — moves only by those moments: seconds, not days.)
SHIFTED_CLOCKS = ("Etc/GMT+12", "Etc/GMT-14")


@dataclass
class _Pass:
    outcomes: dict[str, dict[str, Outcome]] = field(default_factory=dict)
    left_out: list[str] = field(default_factory=list)
    unrecorded: list[str] = field(default_factory=list)
    not_deployed: list[str] = field(default_factory=list)
    rounds: int = 0
    version: str = ""
    clock: str = ""  # the session's LOCALTIMESTAMP(0) as the pass began


def _record_on(
    engine: PostgresEngine,
    statements: list[PortStatement],
    scenarios: list[Scenario],
    *,
    preamble: str | None,
    step_timeout_ms: int,
    progress: bool,
    preludes: tuple[str | None, ...] = (None,),
    at_server_clock: bool = False,
) -> list[_Pass]:
    """Deploy the port on `engine` and run `scenarios` once per prelude (the first pass is the
    recording, the others only tell clock-dependent steps apart). `at_server_clock`: each
    fixed_date is replaced by the server's LOCALTIMESTAMP(0) as the passes begin (`_Pass.clock`),
    so a port that reads the frozen SYSDATE (oracompat.sysdate()) and one that reads now() see
    one instant, the one the judge then gives the converted code."""
    passes = [_Pass() for _ in preludes]
    with scratch_database(engine, prefix="ref") as dsn:
        if preamble:
            with psycopg.connect(dsn, autocommit=True) as conn:
                error, _state = execute_script(conn, preamble)
            if error is not None:
                raise PortError(f"the preamble does not deploy before the port: {error}")
        not_deployed, rounds = deploy_port(dsn, statements)
        version = _server_version(dsn)
        template = str(psycopg.conninfo.conninfo_to_dict(dsn)["dbname"])
        with psycopg.connect(dsn, autocommit=True) as conn:
            clock = one(conn, "SELECT to_char(LOCALTIMESTAMP(0), 'YYYY-MM-DD HH24:MI:SS')")[0]
        if at_server_clock:
            scenarios = [sc.model_copy(update={"fixed_date": clock}) if sc.fixed_date else sc for sc in scenarios]
        by_id = {s.id: s for s in scenarios}
        for prelude, rec in zip(preludes, passes, strict=True):
            rec.not_deployed, rec.rounds, rec.version, rec.clock = not_deployed, rounds, version, clock
            runs = iter_runs(engine, template, scenarios, step_timeout_ms=step_timeout_ms, prelude=prelude)
            for run in tqdm(runs, total=len(by_id), desc="recording", unit="scenario", disable=not progress):
                if run.setup_error:
                    rec.left_out.append(f"{run.scenario_id}: {run.setup_error}")
                    continue
                rec.outcomes[run.scenario_id] = _outcomes(run, by_id[run.scenario_id], rec.unrecorded)
    return passes


def _mark_clock_dependent(first: _Pass, others: list[_Pass]) -> list[str]:
    """Mark in `first` every step another pass answered differently; returns 'scenario/step'."""
    found = []
    for sid, steps in first.outcomes.items():
        for name, outcome in list(steps.items()):
            seen = [o.outcomes.get(sid, {}).get(name) for o in others]
            if any(other is not None and other != outcome for other in seen):
                steps[name] = outcome.model_copy(update={"clock_dependent": True})
                found.append(f"{sid}/{name}")
    return found


FreezeClock = Callable[[str], PostgresEngine]  # an instant 'YYYY-MM-DD HH:MI:SS' -> a server living at it


def record_reference(
    engine: PostgresEngine,
    root: Path,
    scenarios: ScenarioFile,
    *,
    step_timeout_ms: int = 5000,
    progress: bool = False,
    preamble: str | None = None,
    freeze: FreezeClock | None = None,
    check_clock: bool = False,
) -> ReferenceRecording:
    """Deploy the port at `root` into a scratch database and record every scenario on it.
    `preamble` (the migration's own: schemas, search_path, the support library the steps call)
    runs first, so the port is judged in the same surroundings as the converted code.

    The clock (`migrator record` asks for one of the first two; a library caller that records on
    code reading oracompat.sysdate() — the migration's own output — may ask for neither: the
    scenarios' fixed_date reaches that code through the setting, and nothing else is done).
    A scenario with a `fixed_date` is recorded on `freeze(fixed_date)` — a server whose
    clock stands at that instant (harness.engines.frozen_clock), one per distinct instant — so the
    port's now()/CURRENT_DATE/LOCALTIMESTAMP read what the converted code's SYSDATE reads. With
    `check_clock` and no `freeze` (and for scenarios with no fixed_date), the port reads the real
    clock on `engine`: each scenario is recorded again under SHIFTED_CLOCKS and the steps answering
    differently are marked `clock_dependent` (never compared, so never `wrong`); and the instant
    the port's clock read is kept per scenario (`TranscriptFile.clocks`) and given to the port's
    own oracompat.sysdate() as well, so the converted code is judged with SYSDATE there — a
    threshold far from now (a due date two years back) answers alike on both sides,
    which no recording a day apart could tell."""
    digest, statements = content_hash(root), port_statements(root)
    groups: dict[str | None, list[Scenario]] = {}
    for scenario in scenarios.scenarios:
        groups.setdefault(scenario.fixed_date if freeze is not None else None, []).append(scenario)
    recorded: dict[str, dict[str, Outcome]] = {}
    passes: list[_Pass] = []
    clock_dependent: list[str] = []
    clocks: list[str] = []
    clocks_read: dict[str, str] = {}
    for instant, group in groups.items():
        if not check_clock and freeze is None:  # as before: the scenarios' fixed_date, unchecked
            (rec,) = _record_on(engine, statements, group, preamble=preamble, step_timeout_ms=step_timeout_ms,
                                progress=progress)  # fmt: skip
            clocks.append("the server's own (only oracompat.sysdate() reads each scenario's fixed_date; not checked)")
        elif instant is not None and freeze is not None:
            with freeze(instant) as frozen:
                (rec,) = _record_on(frozen, statements, group, preamble=preamble, step_timeout_ms=step_timeout_ms,
                                    progress=progress)  # fmt: skip
            clocks.append(f"frozen at {instant} UTC ({len(group)} scenario(s))")
        else:
            preludes = (None, *(f"SET TimeZone = '{zone}'" for zone in SHIFTED_CLOCKS))
            rec, *shifted = _record_on(engine, statements, group, preamble=preamble, step_timeout_ms=step_timeout_ms,
                                       progress=progress, preludes=preludes, at_server_clock=True)  # fmt: skip
            found = _mark_clock_dependent(rec, shifted)
            # the converted code is judged with SYSDATE where the port's clock stood (see as_recorded)
            clocks_read.update({sc.id: rec.clock for sc in group if sc.fixed_date})
            clock_dependent += found
            clocks.append(f"real ({len(group)} scenario(s) recorded again at local clocks 26 h apart: "
                          f"{len(found)} step(s) clock-dependent)")  # fmt: skip
        recorded.update(rec.outcomes)
        passes.append(rec)
    outcomes = {s.id: recorded[s.id] for s in scenarios.scenarios if s.id in recorded}  # the file's order
    provenance = Provenance(
        kind="reference",
        content_hash=digest,
        reference=str(root),
        version=passes[0].version if passes else None,
        recorded_at=dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        recorder=f"{RECORDER_VERSION} python-{platform.python_version()}",
        clock="; ".join(clocks) or None,
    )
    read = {sid: at for sid, at in clocks_read.items() if sid in outcomes} or None
    transcript = TranscriptFile(schema=scenarios.schema_name, provenance=provenance, outcomes=outcomes, clocks=read)
    not_deployed = list(dict.fromkeys(line for rec in passes for line in rec.not_deployed))
    return ReferenceRecording(
        transcript,
        not_deployed,
        [line for rec in passes for line in rec.left_out],
        [line for rec in passes for line in rec.unrecorded],
        len(statements),
        max((rec.rounds for rec in passes), default=0),
        clock_dependent,
        sum(number_unknown(o) for steps in outcomes.values() for o in steps.values()),
    )
