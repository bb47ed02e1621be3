"""Comparison of PostgreSQL observations with Oracle outcomes."""

from __future__ import annotations

import datetime as dt
import decimal

from harness.ground_truth.scenarios import OraErrorOutcome, Outcome
from harness.judge.compare import Observed, compare_step


def test_numbers_compare_numerically():
    assert (
        compare_step(Outcome(rows=[[1, 2.5]]), Observed([[decimal.Decimal("1.000"), decimal.Decimal("2.50")]], []))
        is None
    )
    assert compare_step(Outcome(rows=[[1]]), Observed([[decimal.Decimal("2")]], [])).what == "rows"


def test_long_division_digits_are_tolerated_but_real_differences_are_not():
    oracle = Outcome(rows=[[0.3333333333333333333333333333333333333333]])
    assert compare_step(oracle, Observed([[decimal.Decimal("0.33333333333333333333")]], [])) is None
    assert compare_step(oracle, Observed([[decimal.Decimal("0.3334")]], [])) is not None


def test_empty_string_is_null():
    assert compare_step(Outcome(rows=[[None]]), Observed([[""]], [])) is None
    assert compare_step(Outcome(rows=[["x"]]), Observed([[None]], [])) is not None


def test_dates_normalised_to_timestamp0_text():
    expected = Outcome(rows=[["2024-02-29 00:00:00", "2024-03-01"]])
    got = Observed([[dt.datetime(2024, 2, 29), dt.datetime(2024, 3, 1)]], [])
    assert compare_step(expected, got) is None
    assert (
        compare_step(expected, Observed([[dt.datetime(2024, 2, 29, 0, 0, 1), dt.datetime(2024, 3, 1)]], [])) is not None
    )


def test_output_lines_are_notices_in_order():
    exp = Outcome(rows=None, output=["a", "b"])
    assert compare_step(exp, Observed(None, ["a", "b"])) is None
    assert compare_step(exp, Observed(None, ["b", "a"])).what == "output"
    assert compare_step(exp, Observed(None, ["a"])).what == "output"


def test_error_classes_map_through_the_table():
    nd = Outcome(error=OraErrorOutcome(code="ORA-01403", message="no data found"))
    assert compare_step(nd, Observed(None, [], "P0002", "query returned no rows")) is None
    assert compare_step(nd, Observed(None, [], "P0003", "more than one row")).what == "error"
    assert compare_step(nd, Observed([[1]], [])).what == "missing error"


def test_application_error_needs_code_and_message():
    app = Outcome(error=OraErrorOutcome(code="ORA-20001", message="Insufficient funds"))
    assert compare_step(app, Observed(None, [], "O2001", "Insufficient funds")) is None
    assert compare_step(app, Observed(None, [], "O2001", "insufficient")).what == "error message"
    assert compare_step(app, Observed(None, [], "O2002", "Insufficient funds")).what == "error"


def test_unexpected_error_and_timeout():
    assert (
        compare_step(Outcome(rows=[[1]]), Observed(None, [], "42883", "function f does not exist")).what
        == "unexpected error"
    )
    assert compare_step(Outcome(rows=[[1]]), Observed(None, [], "57014", "canceled", timed_out=True)).what == "timeout"


def test_unordered_steps_ignore_row_order_only_when_asked():
    exp = Outcome(rows=[[1, "a"], [2, "b"]])
    got = Observed([[2, "b"], [1, "a"]], [])
    assert compare_step(exp, got) is not None
    assert compare_step(exp, got, unordered=True) is None


def test_raw_and_fractional_timestamps_compare_as_oracle_prints_them():
    import datetime as dt

    from harness.judge.compare import normalize

    assert normalize(b"\x25\x50") == normalize("2550") == "2550"  # RAW ↔ bytea: hex digits
    assert normalize(b"") is None  # a zero-length RAW is NULL
    stamp = dt.datetime(2024, 2, 15, 18, 30, 45, 250000)
    assert normalize(stamp) == normalize("2024-02-15 18:30:45.25") == "2024-02-15 18:30:45.25"
    assert normalize(dt.datetime(2024, 2, 15, 18, 30, 45)) == normalize("2024-02-15 18:30:45.000")
