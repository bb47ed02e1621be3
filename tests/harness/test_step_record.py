"""Step records: both outcomes in display form, the first difference where compare_step found it."""

from __future__ import annotations

import datetime as dt
import decimal

from harness.ground_truth.scenarios import Outcome, Step
from harness.judge.compare import Observed
from harness.judge.step_record import MAX_ROWS, display, record_step

STEP = Step(name="s", oracle="SELECT 1 FROM dual", postgres="SELECT 1")
UNORDERED = Step(name="u", oracle="q", postgres="q", unordered=True)


def test_agreeing_step_keeps_both_sides_and_no_difference():
    rec = record_step(STEP, Outcome(rows=[[1, "a"]]), Observed([[decimal.Decimal("1.0"), "a"]], []))
    assert rec.status == "agrees" and rec.first_difference is None and rec.what is None
    assert rec.oracle.rows == [["1", "a"]] and rec.postgres.rows == [["1.0", "a"]]


def test_first_differing_cell_is_located_with_the_judges_normalisation():
    exp = Outcome(rows=[[1, "x", ""], [2, "y", None]])
    got = Observed([[1, "x", None], [2, "z", None]], [])  # '' is NULL: row 0 agrees
    rec = record_step(STEP, exp, got)
    assert rec.status == "differs" and rec.what == "rows"
    assert (rec.first_difference.part, rec.first_difference.row, rec.first_difference.column) == ("rows", 1, 1)


def test_unordered_rows_are_shown_in_compared_order():
    exp = Outcome(rows=[[2, "b"], [1, "a"]])
    got = Observed([[1, "a"], [3, "c"]], [])
    rec = record_step(UNORDERED, exp, got)
    assert rec.oracle.rows == [["1", "a"], ["2", "b"]]
    assert (rec.first_difference.row, rec.first_difference.column) == (1, 0)


def test_missing_row_and_output_line():
    rec = record_step(STEP, Outcome(rows=[[1], [2]]), Observed([[1]], []))
    assert (rec.first_difference.part, rec.first_difference.row) == ("row count", 1)
    out = record_step(STEP, Outcome(output=["a", "b", "c"]), Observed(None, ["a", "B", "c"]))
    assert (out.what, out.first_difference.part, out.first_difference.line) == ("output", "output", 1)


def test_errors_timeouts_and_unjudged_steps():
    err = record_step(STEP, Outcome(rows=[[1]]), Observed(None, [], "42883", "function f does not exist"))
    assert err.first_difference.part == "error" and err.postgres.error == "SQLSTATE 42883: function f does not exist"
    slow = record_step(STEP, Outcome(rows=[[1]]), Observed(None, [], "57014", "canceled", timed_out=True))
    assert slow.first_difference.part == "timeout"
    assert record_step(STEP, None, Observed([[1]], [])).status == "no Oracle outcome"
    assert record_step(STEP, Outcome(rows=[[1]]), None).status == "not run"


def test_rows_are_capped_but_counted():
    rows = [[i] for i in range(MAX_ROWS + 7)]
    rec = record_step(STEP, Outcome(rows=rows), Observed(rows, []))
    assert len(rec.oracle.rows) == MAX_ROWS and rec.oracle.row_count == MAX_ROWS + 7


def test_display_text():
    assert display(None) is None and display(True) == "true"
    assert display(decimal.Decimal("1E+2")) == "100"
    assert display(dt.datetime(2024, 1, 31, 8, 5)) == "2024-01-31 08:05:00"
    assert display(b"\x01\xff") == "\\x01ff"
