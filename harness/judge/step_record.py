"""Every scenario step's two outcomes, kept for reviewers: Oracle's expected one beside PostgreSQL's
observed one, and where they first differ.

The verdict keeps only the first mismatch of a unit; a reviewer needs every step. This module
decides nothing: `agrees` is `compare_step(...) is None`, the very call the verdict uses, and the
first difference is located with `compare`'s own normalisation (numbers by value, '' as NULL,
dates as timestamp(0) text, unordered steps sorted) so the highlighted cell is the one that made
the step disagree. Values are kept as display text, rows capped at `MAX_ROWS` per side.
"""

from __future__ import annotations

import datetime as dt
import decimal
from dataclasses import dataclass, field
from typing import Any, TypedDict

from harness.ground_truth.scenarios import Outcome, Scenario, Step
from harness.judge.compare import (
    NUMBER_UNKNOWN,
    Mismatch,
    Observed,
    compare_step,
    compared_order,
    first_output_difference,
    first_row_difference,
)

MAX_ROWS = 50

# What a step's status says, in words a page can show.
AGREES, DIFFERS, NO_ORACLE_OUTCOME, NOT_RUN = "agrees", "differs", "no Oracle outcome", "not run"
CLOCK_DEPENDENT = "clock-dependent on the source (not compared)"


@dataclass(frozen=True)
class SideView:
    """One side's outcome in display form: rows (None: no result set), output lines, error."""

    rows: list[list[str | None]] | None
    row_count: int | None
    output: list[str]
    error: str | None


@dataclass(frozen=True)
class FirstDifference:
    part: str  # "rows" | "row count" | "output" | "error" | "timeout"
    row: int | None = None  # index into the rows as shown (compared order)
    column: int | None = None
    line: int | None = None  # index into the output lines


@dataclass(frozen=True)
class StepRecord:
    step: str
    status: str  # AGREES | DIFFERS | NO_ORACLE_OUTCOME | NOT_RUN | CLOCK_DEPENDENT
    oracle_sql: str
    postgres_sql: str
    unordered: bool = False
    what: str | None = None  # the mismatch kind, as in the verdict
    oracle: SideView | None = None
    postgres: SideView | None = None
    first_difference: FirstDifference | None = None


@dataclass
class ScenarioRecord:
    scenario: str
    units: list[str]
    description: str = ""
    setup_error: str | None = None
    seconds: float = 0.0
    steps: list[StepRecord] = field(default_factory=list)


def display(value: Any) -> str | None:
    """A value as a reviewer reads it; None stays None (shown as NULL)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, dt.datetime):
        return value.isoformat(sep=" ")
    if isinstance(value, dt.date | dt.time):
        return value.isoformat()
    if isinstance(value, bytes | bytearray | memoryview):
        return "\\x" + bytes(value).hex()
    return str(value)


def _rows_view(rows: list[list[Any]] | None, unordered: bool) -> tuple[list[list[str | None]] | None, int | None]:
    if rows is None:
        return None, None
    ordered = compared_order(rows, unordered)
    return [[display(v) for v in r] for r in ordered[:MAX_ROWS]], len(rows)


def oracle_view(outcome: Outcome, unordered: bool) -> SideView:
    rows, count = _rows_view(outcome.rows, unordered)
    error = f"{outcome.error.code}: {outcome.error.message}".strip(": ") if outcome.error else None
    if outcome.error is not None and outcome.error.user_defined and not outcome.error.code:
        error = f"{NUMBER_UNKNOWN}: {outcome.error.message}"
    return SideView(rows, count, list(outcome.output), error)


def postgres_view(observed: Observed, unordered: bool) -> SideView:
    rows, count = _rows_view(observed.rows, unordered)
    error = None
    if observed.timed_out:
        error = f"timed out: {observed.message}"
    elif observed.sqlstate is not None:
        error = f"SQLSTATE {observed.sqlstate}: {observed.message}"
    return SideView(rows, count, list(observed.notices), error)


def locate(mismatch: Mismatch, expected: Outcome, observed: Observed, unordered: bool) -> FirstDifference:
    """Where the step first differs, for the part `compare_step` found wrong."""
    if mismatch.what == "timeout":
        return FirstDifference("timeout")
    if mismatch.what == "output":
        return FirstDifference("output", line=first_output_difference(expected.output, observed.notices))
    if mismatch.what == "rows" and expected.rows is not None and observed.rows is not None:
        where = first_row_difference(expected.rows, observed.rows, unordered)
        if where is not None:
            row, column = where
            short = row >= min(len(expected.rows), len(observed.rows))
            return FirstDifference("row count" if short else "rows", row=row, column=column)
    if mismatch.what == "rows":
        return FirstDifference("rows")
    return FirstDifference("error")  # missing, unexpected, other class, other message


class _StepFields(TypedDict):
    """The fields of a StepRecord that come from the step itself, whatever its status."""

    step: str
    oracle_sql: str
    postgres_sql: str
    unordered: bool


def record_step(step: Step, expected: Outcome | None, observed: Observed | None) -> StepRecord:
    base = _StepFields(step=step.name, oracle_sql=step.oracle, postgres_sql=step.postgres, unordered=step.unordered)
    if expected is None:
        pg = postgres_view(observed, step.unordered) if observed is not None else None
        return StepRecord(status=NO_ORACLE_OUTCOME, postgres=pg, **base)
    oracle = oracle_view(expected, step.unordered)
    if observed is None:  # skipped after a timeout or a failed setup
        return StepRecord(status=NOT_RUN, oracle=oracle, **base)
    if expected.clock_dependent:
        return StepRecord(
            status=CLOCK_DEPENDENT, oracle=oracle, postgres=postgres_view(observed, step.unordered), **base
        )
    mismatch = compare_step(expected, observed, unordered=step.unordered)
    postgres = postgres_view(observed, step.unordered)
    if mismatch is None:
        return StepRecord(status=AGREES, oracle=oracle, postgres=postgres, **base)
    where = locate(mismatch, expected, observed, step.unordered)
    return StepRecord(
        status=DIFFERS, what=mismatch.what, oracle=oracle, postgres=postgres, first_difference=where, **base
    )


def new_record(scenario: Scenario, setup_error: str | None, seconds: float) -> ScenarioRecord:
    return ScenarioRecord(scenario.id, list(scenario.units), scenario.description.strip(), setup_error, seconds)
