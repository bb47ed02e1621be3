"""Run `SuiteTest`s on PostgreSQL, in the sandbox, one test at a time, and say how each went.

Where: a scratch database the sandbox created (library and test code deployed), as the run's
execution role, never the admin. Isolation: each test starts in a fresh session state (`DISCARD
ALL` — package state lives in session-level prepared statements and goes with it) and runs in a
transaction that is rolled back, so one test cannot make another pass. A test whose code commits
(PostgreSQL refuses COMMIT inside a transaction block, SQLSTATE 2D000) runs again on a copy of the
database of its own, in autocommit mode, and the copy is dropped. Every statement runs under
`statement_timeout`; a test that hits it is an `error` saying so.

Verdict: the body raised nothing → `passed` (unless its DBMS_OUTPUT reports a failure, for a
style that reads output); raised an application error (RAISE_APPLICATION_ERROR's ORA-20000..20999,
SQLSTATE `O2xxx`, or a plain RAISE's `P0001`: how test code and assertion libraries fail) →
`failed` with its message; raised anything else (a missing function, a type error, a timeout) →
`error`; `expected_error` turns the first two around. Every DBMS_OUTPUT line is kept; coverage
probes (harness.probing.coverage, when the database is instrumented) say which units it executed.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import psycopg

from harness.engines.postgres import PostgresEngine
from harness.ground_truth.oracle_errors import ORA_ERRORS, sqlstate_matches_ora
from harness.judge.deploy import execute_script
from harness.probing.coverage import CoveragePlan
from migrator.suites.model import Outcome, SuiteTest, TestResult, TestRun, TestStyle
from migrator.suites.output_lines import compile_pattern, read_output

DEFAULT_TEST_TIMEOUT_MS = 300_000  # a hung test, not a long data-driven one: semver's slowest method takes ~50 s here
_TIMEOUT = "57014"
_NO_COMMIT_HERE = ("2D000", "0A000")  # invalid transaction termination (COMMIT in a CALL inside BEGIN)
_ORA = re.compile(r"ORA-(\d{5})")
# ut.end_test() (migrator/suites/ut.sql) raises a utPLSQL test's failed expectations with it
UT_FAILED_SQLSTATE = "UTF01"
_FAILED_SAMPLE = re.compile(r"\bfail(?:ed|s|ure)?\b", re.I)


@dataclass
class _Raised:
    sqlstate: str
    message: str


def _message(exc: psycopg.Error) -> str:
    diag = exc.diag
    return (diag.message_primary if diag and diag.message_primary else str(exc)).strip()


def is_assertion(sqlstate: str) -> bool:
    """An error test code raises on purpose: an application error (RAISE_APPLICATION_ERROR,
    converted to SQLSTATE O2nnn), a user-declared exception (OUxxx) or a plain RAISE (P0001)."""
    return sqlstate.startswith(("O2", "OU")) or sqlstate == "P0001"


def matches_expected(expected: str, raised: _Raised) -> bool:
    """--%throws and friends: an ORA code (`-20001`, `ORA-01403`, `1403`), a SQLSTATE or an
    exception name (`no_data_found`) against what the body raised."""
    want = expected.strip().lower()
    if not want:
        return True
    if want == raised.sqlstate.lower():
        return True
    digits = want.removeprefix("ora").lstrip("-")
    if digits.isdigit():
        code = -int(digits) if int(digits) != 100 else 100
        return sqlstate_matches_ora(raised.sqlstate, code) or any(
            int(m) == abs(code) for m in _ORA.findall(raised.message)
        )
    named = [e for e in ORA_ERRORS if e.name and e.name.lower() == want.split(".")[-1]]
    return any(sqlstate_matches_ora(raised.sqlstate, e.code) for e in named)


def oracle_message(raised: _Raised) -> str:
    """An application error as Oracle's SQLERRM shows it (`ORA-20000: Assertion failed: …`): the
    team's assertion messages and Oracle logs read that way."""
    state, text = raised.sqlstate, raised.message
    if state.startswith("O2") and state[2:].isdigit() and not text.startswith("ORA-"):
        return f"ORA-{20000 + int(state[2:])}: {text}"
    return text


class _Session:
    """One execution-role session on the test database; what it printed and which probes fired."""

    def __init__(self, dsn: str, probe: CoveragePlan | None, timeout_ms: int):
        # no server-side prepared statements of psycopg's own: DISCARD ALL drops every one
        self.conn = psycopg.connect(dsn, autocommit=True, prepare_threshold=None)
        self.probe = probe
        self.timeout_ms = timeout_ms
        self.output: list[str] = []
        self.hits: set[str] = set()
        self.suite: str | None = None  # the script whose blocks ran last in this session
        self.conn.add_notice_handler(self._notice)

    def _notice(self, diag) -> None:
        text = diag.message_primary or ""
        hit = self.probe.hit(text) if self.probe is not None else None
        if hit is None:
            self.output.append(text)
        else:
            self.hits.add(hit)

    def fresh(self, keep_state: bool = False) -> None:
        """A test starts with no package state, no pending DBMS_OUTPUT line, no temp tables
        (`keep_state`: the next block of the same script keeps its session's package state)."""
        self.output, self.hits = [], set()
        if not keep_state:
            self.conn.execute("DISCARD ALL")
        self.suite = None
        self.conn.execute(f"SET statement_timeout = {int(self.timeout_ms)}")
        self.conn.execute(f"SET lock_timeout = {int(self.timeout_ms)}")

    def run(self, text: str, rows: bool = False) -> _Raised | None:
        """Run `text`; `rows`: the rows it returns become output lines, as SQL*Plus prints them."""
        try:
            cur = self.conn.execute(text.encode("utf-8"))
            while True:
                if rows and cur.description is not None:
                    for row in cur.fetchall():
                        self.output.append(" ".join("" if v is None else str(v) for v in row).rstrip())
                if not cur.nextset():
                    break
            return None
        except psycopg.Error as exc:
            return _Raised(exc.sqlstate or "", _message(exc))

    def close(self) -> None:
        with contextlib.suppress(psycopg.Error):
            self.conn.close()


def _run_one(s: _Session, test: SuiteTest, transactional: bool) -> tuple[TestResult, set[str], bool]:
    """Run `test` on session `s`; returns its result, the probes it fired and whether it must run
    again outside a transaction block (its code commits)."""
    s.fresh(keep_state=test.shares_session and s.suite == test.suite)
    s.suite = test.suite if test.shares_session else None
    t0 = time.perf_counter()
    result = TestResult(test.name, test.suite, test.style, Outcome.PASSED, source=test.source, script=test.script)
    if transactional:
        s.conn.execute("BEGIN")
    raised: _Raised | None = None
    where = ""
    try:
        for stmt in test.setup:
            raised = s.run(stmt)
            if raised is not None:
                where = "setup"
                break
        if raised is None:
            if transactional:
                s.conn.execute("SAVEPOINT migrator_test")
            raised = s.run(test.body, rows=test.prints_rows)
            if raised is not None and transactional:
                s.conn.execute("ROLLBACK TO SAVEPOINT migrator_test")  # teardown still runs
        for stmt in test.teardown:
            after = s.run(stmt)
            if after is not None and raised is None:
                raised, where = after, "teardown"
                if transactional:
                    break
    finally:
        if transactional:
            with contextlib.suppress(psycopg.Error):
                s.conn.execute("ROLLBACK")
    result.seconds = time.perf_counter() - t0
    result.output = list(s.output)
    hits = set(s.hits)
    if raised is not None and raised.sqlstate in _NO_COMMIT_HERE and transactional and "transaction" in raised.message:
        return result, hits, True
    _decide(result, test, raised, where, s.timeout_ms)
    return result, hits, False


def _decide(result: TestResult, test: SuiteTest, raised: _Raised | None, where: str, timeout_ms: int) -> None:
    if raised is not None and raised.sqlstate == _TIMEOUT:
        result.outcome = Outcome.ERROR
        result.message = f"timed out after {timeout_ms / 1000:g} s ({where or 'test'}): {raised.message}"
        return
    if where:  # setup or teardown failed: the test itself is not what went wrong
        assert raised is not None
        result.outcome = Outcome.ERROR
        result.message = f"{where} failed: SQLSTATE {raised.sqlstate}: {raised.message}"
        return
    if test.expected_error is not None:
        if raised is None:
            result.outcome = Outcome.FAILED
            result.message = f"expected error {test.expected_error}, but nothing was raised"
        elif not matches_expected(test.expected_error, raised):
            result.outcome = Outcome.FAILED
            result.message = f"expected error {test.expected_error}, got SQLSTATE {raised.sqlstate}: {raised.message}"
        return
    if raised is not None:
        # utPLSQL: only failed expectations fail a test (ut.end_test() raises them together, each
        # with its message); an error the test code raises, even an application error, is its error
        if test.style is TestStyle.UTPLSQL:
            assertion = raised.sqlstate == UT_FAILED_SQLSTATE
        else:
            assertion = is_assertion(raised.sqlstate)
        result.outcome = Outcome.FAILED if assertion else Outcome.ERROR
        result.message = oracle_message(raised) if assertion else f"SQLSTATE {raised.sqlstate}: {raised.message}"
        sample = next((line for line in result.output if _FAILED_SAMPLE.search(line)), None)
        if sample is not None and sample not in result.message and test.style is not TestStyle.UTPLSQL:
            # data-driven tests catch each sample's failure, print it and fail once at the end:
            # the line naming the first failing sample goes with the message
            result.message += f"\nfirst failing line of its output: {sample}"
        return
    if test.result_pattern is not None:
        verdict = read_output(result.output, compile_pattern(test.result_pattern))
        if verdict.failed:
            result.outcome = Outcome.FAILED
            result.message = verdict.first_failure or "the output reports a failure"


def run_tests(
    engine: PostgresEngine,
    database: str,
    tests: Sequence[SuiteTest],
    *,
    timeout_ms: int = DEFAULT_TEST_TIMEOUT_MS,
    coverage: CoveragePlan | None = None,
    blocked: Mapping[str, str] | None = None,
    suite_sha256: str = "",
    on_result: Callable[[TestResult], None] | None = None,
) -> TestRun:
    """Run `tests` in order on `database` (a sandbox scratch database with the library and the
    test code deployed; it is used directly and never changed by a test, except by the steps of
    a plain SQL*Plus script, `SuiteTest.script`, run last). `coverage`: the plan of an instrumented database,
    whose probes tell each result's `units`. `blocked`: unit id → why that test code is not
    deployed; a test that needs one is an `error` saying so, and does not run."""
    blocked = blocked or {}
    unit_of = {p.id: unit for unit, probes in (coverage.probes.items() if coverage else ()) for p in probes}
    run = TestRun(suite_sha256=suite_sha256)
    slots: list[TestResult | None] = [None] * len(tests)
    fired: list[set[str]] = [set() for _ in tests]
    again: list[int] = []
    scripts: dict[str, list[int]] = {}
    session = _Session(engine.dsn(database), coverage, timeout_ms)
    try:
        for index, test in enumerate(tests):
            if test.script:  # after the others: a script changes the database it runs on
                scripts.setdefault(test.suite, []).append(index)
                continue
            result = _cannot_run(test, blocked)
            if result is None:
                result, fired[index], commits = _run_one(session, test, transactional=True)
                if commits:
                    again.append(index)
            slots[index] = result
    finally:
        session.close()
    for index in again:  # code that commits: a copy of the database each, in autocommit mode
        slots[index], fired[index] = _run_on_copy(engine, database, tests[index], coverage, timeout_ms)
    for indexes in scripts.values():  # one after another, in the order the style gave
        steps = [tests[i] for i in indexes]
        got = _run_script(engine, database, steps, coverage, timeout_ms, blocked)
        for i, (result, hits) in zip(indexes, got):
            slots[i], fired[i] = result, hits
    for result, hits in zip(slots, fired):
        if result is None:  # a script's statement that did what it should: not a test
            continue
        result.units = sorted({unit_of[h] for h in hits if h in unit_of})
        run.results.append(result)
        if on_result is not None:
            on_result(result)
    return run


_ALREADY_EXISTS = ("42P07", "42710", "42P06", "42723")  # relation, object, schema, function


def _replay_on_copy(engine: PostgresEngine, clone, timeout_ms: int) -> str | None:
    """The template's database settings (search_path: where the converted objects are found)
    made the copy's defaults, on a session of their own: the test's session must start after,
    since DISCARD ALL resets a session to the defaults it started with."""
    from harness.engines.pg_sandbox import replay_settings

    first = _Session(engine.dsn(clone.name), None, timeout_ms)
    try:
        return replay_settings(first.conn, clone.name, clone.settings)
    finally:
        first.close()


def _run_script(
    engine: PostgresEngine,
    database: str,
    steps: Sequence[SuiteTest],
    coverage: CoveragePlan | None,
    timeout_ms: int,
    blocked: Mapping[str, str],
) -> list[tuple[TestResult | None, set[str]]]:
    """One SQL*Plus script run (plain style): its steps in order on one session, package state
    kept from step to step, on `database`, in SQL*Plus's transaction: what the steps do stays
    pending until the script's COMMIT, a DDL statement (which commits in Oracle) or its end
    (SQL*Plus commits on exit), and a ROLLBACK undoes it; a step that fails undoes only its own
    work (a savepoint: Oracle's statement-level rollback). A step whose code commits (PostgreSQL
    refuses COMMIT inside a transaction block) runs again outside one, after the pending work is
    committed, as its COMMIT would on Oracle. What a script leaves is there for the scripts after
    it. A statement step that succeeds gives no result (None): it is not a test."""
    out: list[tuple[TestResult | None, set[str]]] = []
    session = _Session(engine.dsn(database), coverage, timeout_ms)
    conn = session.conn
    try:
        session.fresh()  # DISCARD ALL cannot run in a transaction block: before the script's BEGIN
        session.suite = steps[0].suite if steps else None
        conn.execute("BEGIN")
        for test in steps:
            result = _cannot_run(test, blocked)
            if result is not None:
                result.script = True
                out.append((result, set()))
                continue
            if test.ends_transaction in ("COMMIT", "ROLLBACK"):
                conn.execute(test.ends_transaction)
                conn.execute("BEGIN")
                continue
            if test.ends_transaction == "DDL":  # Oracle commits before a DDL statement, and after
                conn.execute("COMMIT")
                conn.execute("BEGIN")
            conn.execute("SAVEPOINT migrator_step")
            hits: set[str] = set()
            if test.statement:
                result = _run_statement(session, test)
            else:
                result, hits, _ = _run_one(session, test, transactional=False)
            if conn.info.transaction_status == psycopg.pq.TransactionStatus.INERROR:
                conn.execute("ROLLBACK TO SAVEPOINT migrator_step")
                if result is not None and not test.statement and _commits(result):
                    conn.execute("COMMIT")
                    result, hits, _ = _run_one(session, test, transactional=False)
                    conn.execute("BEGIN")
            else:
                conn.execute("RELEASE SAVEPOINT migrator_step")
            if test.ends_transaction == "DDL":
                conn.execute("COMMIT")
                conn.execute("BEGIN")
            out.append((result, hits))
        conn.execute("COMMIT")
    finally:
        session.close()
    return out


def _commits(result: TestResult) -> bool:
    """The step failed because its code commits or rolls back inside the script's transaction."""
    return (
        result.outcome is Outcome.ERROR
        and result.message.startswith(tuple(f"SQLSTATE {s}" for s in _NO_COMMIT_HERE))
        and "transaction" in result.message
    )


def _run_statement(s: _Session, test: SuiteTest) -> TestResult | None:
    s.output = []
    t0 = time.perf_counter()
    error, state = execute_script(s.conn, test.body)  # a data unit's rows stream through COPY
    s.output = []  # a statement's notices ("does not exist, skipping") are no test's output
    if error is None or (test.exists_ok and state in _ALREADY_EXISTS):
        return None
    message = f"script statement failed: SQLSTATE {state}: {error}"
    if state == _TIMEOUT:
        message = f"script statement timed out after {s.timeout_ms / 1000:g} s: {error}"
    seconds = time.perf_counter() - t0
    return TestResult(
        test.name, test.suite, test.style, Outcome.ERROR, message, seconds=seconds, source=test.source, script=True
    )


def _cannot_run(test: SuiteTest, blocked: Mapping[str, str]) -> TestResult | None:
    if test.disabled is not None:
        return TestResult(test.name, test.suite, test.style, Outcome.SKIPPED, test.disabled, source=test.source)
    if test.cannot_run is not None:
        return TestResult(
            test.name, test.suite, test.style, Outcome.ERROR, f"cannot run: {test.cannot_run}", source=test.source
        )
    missing = [f"{u}: {blocked[u]}" for u in test.needs if u in blocked]
    if missing:
        message = "cannot run: test code not deployed: " + "; ".join(missing)
        return TestResult(test.name, test.suite, test.style, Outcome.ERROR, message, source=test.source)
    return None


def _run_on_copy(
    engine: PostgresEngine, database: str, test: SuiteTest, coverage: CoveragePlan | None, timeout_ms: int
) -> tuple[TestResult, set[str]]:
    clone = engine.sandbox.clone(database, purpose="test")
    try:
        problem = _replay_on_copy(engine, clone, timeout_ms)
        session = _Session(engine.dsn(clone.name), coverage, timeout_ms)
        try:
            if problem:
                return TestResult(test.name, test.suite, test.style, Outcome.ERROR, problem, source=test.source), set()
            result, hits, _ = _run_one(session, test, transactional=False)
            return result, hits
        finally:
            session.close()
    finally:
        engine.sandbox.drop_database(clone.name)
