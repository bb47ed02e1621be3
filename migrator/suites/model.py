"""The contract between test styles, the runner and the reports.

A style (utPLSQL v3 annotations, a framework that is itself PL/SQL such as Pete, plain anonymous
blocks reporting through DBMS_OUTPUT) turns the team's test sources into `SuiteTest`s whose SQL is
already PostgreSQL; the runner executes each `SuiteTest` in the sandbox (execution role, scratch
database, statement timeout, its own transaction rolled back so one test cannot make another pass)
and returns a `TestResult`. `tests.json` is `TestRun.to_json()`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class TestStyle(str, Enum):
    UTPLSQL = "utplsql"  # utPLSQL v3 annotated packages (--%suite, --%test, ut.expect)
    FRAMEWORK = "framework"  # a test framework that is part of the test code (Pete's convention runner)
    PLAIN = "plain"  # anonymous blocks / procedures printing OK / FAILED lines or raising


class Outcome(str, Enum):
    PASSED = "passed"
    FAILED = "failed"  # an assertion did not hold; `message` holds the assertion's message
    ERROR = "error"  # the test raised where it should not, or could not run; `message` says why
    SKIPPED = "skipped"  # disabled by the suite itself (--%disabled); `message` gives its reason


@dataclass(frozen=True)
class SuiteTest:
    """One test, ready to run on PostgreSQL."""

    name: str  # "suite.test" as the team names it (package.procedure, or file:line for a block)
    suite: str
    style: TestStyle
    source: str  # file:line of the test in the team's sources
    body: str  # PostgreSQL SQL that runs the test (converted)
    setup: tuple[str, ...] = ()  # run before body in the same transaction (beforeall/beforeeach)
    teardown: tuple[str, ...] = ()  # run after body, whatever happened (aftereach/afterall)
    expected_error: str | None = None  # --%throws: an ORA-nnnnn code, a SQLSTATE or an exception name
    disabled: str | None = None  # reason, when the suite disables the test
    description: str = ""
    # Unit ids of the test code the test needs deployed (its package, the framework's objects):
    # when one of them did not deploy, the test cannot run and says so instead of running.
    needs: tuple[str, ...] = ()
    # Why the test cannot run at all (its call did not convert): reported as an `error`, never run.
    cannot_run: str | None = None
    # How the runner reads DBMS_OUTPUT for a verdict (plain style): a regex with a named group
    # `fail` (and/or `pass`); a line where `fail` matched, or a summary line counting failures,
    # fails a test that raised nothing. None: output is kept, never judged.
    result_pattern: str | None = None
    # A SQL*Plus script's blocks share one session, as SQL*Plus runs them: package state (the
    # counters a final summary block prints) carries from one block to the next of the same suite.
    shares_session: bool = False
    # A step of a SQL*Plus script (plain style): run in order in the script's transaction, as
    # SQL*Plus runs a script, so what a block or statement leaves (rows, a results table) is there
    # for the next;
    # `suite` is the script run (the root script with what it includes; one session each, run
    # one after another on the test database).
    script: bool = False
    # A script's SQL statement (setup rows, a DROP in its teardown), not a test: listed only when
    # it fails.
    statement: bool = False
    # A CREATE replayed at its place in the script (the object was deployed before the run):
    # "already exists" is no error, and a block that dropped it before gets it back here.
    exists_ok: bool = False
    # A script's query (plain style): SQL*Plus prints its rows, so each row becomes an output line
    # (its columns' text joined by a space; a summary a query counts is read like a printed one).
    prints_rows: bool = False
    # A script's transaction control (plain style): "COMMIT" / "ROLLBACK" (the script's own
    # statement), "DDL" (a statement Oracle commits before and after: CREATE, DROP, TRUNCATE …).
    ends_transaction: str | None = None


@dataclass
class TestResult:
    name: str
    suite: str
    style: TestStyle
    outcome: Outcome
    message: str = ""
    output: list[str] = field(default_factory=list)  # every DBMS_OUTPUT line, in order
    seconds: float = 0.0
    source: str = ""
    units: list[str] = field(default_factory=list)  # unit ids the test executed (coverage probes)
    # a step of a SQL*Plus script run (plain style): the steps after it see what it left
    script: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "suite": self.suite,
            "style": self.style.value,
            "outcome": self.outcome.value,
            "message": self.message,
            "output": list(self.output),
            "seconds": round(self.seconds, 6),
            "source": self.source,
            "units": list(self.units),
            "script": self.script,
        }


@dataclass
class TestRun:
    results: list[TestResult] = field(default_factory=list)
    suite_sha256: str = ""  # content hash of the test sources: the evidence's provenance

    def totals(self) -> dict[str, int]:
        counts = Counter(r.outcome.value for r in self.results)
        out = {o.value: counts.get(o.value, 0) for o in Outcome}
        out["total"] = len(self.results)
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "tests": [r.to_json() for r in self.results],
            "totals": self.totals(),
            "suite_sha256": self.suite_sha256,
        }
