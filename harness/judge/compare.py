"""Compare what PostgreSQL did in one step with what Oracle did.

Normalisation, each for a documented Oracle ↔ PostgreSQL difference that is not a behaviour
difference of the migrated code:
- numbers compare numerically (Oracle NUMBER vs numeric/integer/bigint; 1 == 1.0);
- Oracle's '' *is* NULL, so an empty string on either side compares as NULL;
- DATE ↔ timestamp(0): datetimes compare as 'YYYY-MM-DD HH24:MI:SS' text, fractional seconds
  kept only when present;
- RAW/BLOB ↔ bytea: bytes compare as hex digits, as Oracle prints a RAW;
- DBMS_OUTPUT lines ↔ NOTICE messages, in order;
- errors by class through `harness.ground_truth.oracle_errors` (ORA-01403 ↔ P0002, ORA-20NNN ↔ O2NNN with the same
  message ...). A step that fails with exactly the error Oracle raised agrees with Oracle;
- a user-defined error recorded without its number (a trusted port's plain P0001) agrees with an
  application error (ORA-20NNN ↔ O2NNN, or P0001) carrying the same message: class and message,
  never the number, which the source did not give.
"""

from __future__ import annotations

import datetime as dt
import decimal
import re
from dataclasses import dataclass
from typing import Any

from harness.ground_truth.oracle_errors import parse_ora_code, sqlstate_matches_ora
from harness.ground_truth.scenarios import Outcome


@dataclass(frozen=True)
class Observed:
    """What PostgreSQL did in one step."""

    rows: list[list[Any]] | None  # None when the statement returns no result set
    notices: list[str]
    sqlstate: str | None = None
    message: str | None = None
    timed_out: bool = False


@dataclass(frozen=True)
class Mismatch:
    what: str  # "rows" | "output" | "error" | "unexpected error" | "missing error" | "timeout"
    expected: str
    actual: str


def normalize(value: Any) -> Any:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float, decimal.Decimal)):
        return decimal.Decimal(str(value))
    if isinstance(value, dt.datetime):
        return _trim_fraction(value.replace(tzinfo=None).isoformat(sep=" "))
    if isinstance(value, dt.date):
        return f"{value.isoformat()} 00:00:00"
    if isinstance(value, (bytes, bytearray, memoryview)):
        # RAW/BLOB as Oracle prints them: hex digits; a zero-length RAW is NULL in Oracle
        return bytes(value).hex() or None
    if isinstance(value, dt.timedelta):
        return decimal.Decimal(str(value.total_seconds() / 86400)).normalize()
    if isinstance(value, str):
        return _normalize_text(value)
    if isinstance(value, (list, tuple)):
        return [normalize(v) for v in value]
    return str(value)


def _normalize_text(value: str) -> Any:
    # Transcript dates are strings; a date written without time means midnight like Oracle DATE.
    if len(value) == 10 and value[4] == "-" and value[7] == "-":
        try:
            dt.date.fromisoformat(value)
            return f"{value} 00:00:00"
        except ValueError:
            return value
    if len(value) > 20 and value[19] == "." and value[4] == "-" and value[13] == ":":
        return _trim_fraction(value)
    return value


def _trim_fraction(stamp: str) -> str:
    """'… 18:30:45.250000' and '… 18:30:45.25' are one TIMESTAMP: trailing zeros of the fraction
    (and a fraction of zero) carry nothing."""
    head, dot, fraction = stamp.partition(".")
    fraction = fraction.rstrip("0")
    return f"{head}.{fraction}" if dot and fraction else head


def _fmt_rows(rows: list[list[Any]] | None) -> str:
    if rows is None:
        return "(no result set)"
    shown = rows[:5]
    more = f" … ({len(rows)} rows)" if len(rows) > 5 else ""
    return "; ".join("(" + ", ".join("NULL" if v is None else str(v) for v in r) + ")" for r in shown) + more


def _sort_key(v: Any) -> tuple:
    # Numbers by value (1 and 1.0 sort together), then text, then NULL — as a stable total order.
    if isinstance(v, decimal.Decimal):
        return (0, float(v), "")
    return (2, 0.0, "") if v is None else (1, 0.0, str(v))


def _norm_rows(rows: list[list[Any]], unordered: bool) -> list:
    normed = [[normalize(v) for v in r] for r in rows]
    if unordered:
        normed.sort(key=lambda r: [_sort_key(v) for v in r])
    return normed


def _values_equal(a: Any, b: Any) -> bool:
    if isinstance(a, decimal.Decimal) and isinstance(b, decimal.Decimal):
        # Oracle NUMBER carries up to 40 significant digits, numeric division in PostgreSQL ~20:
        # equal when they agree to 1e-12 relative.
        return a == b or abs(a - b) <= decimal.Decimal("1e-12") * max(decimal.Decimal(1), abs(a), abs(b))
    return a == b


def _rows_equal(a: list, b: list) -> bool:
    return len(a) == len(b) and all(
        len(x) == len(y) and all(_values_equal(u, v) for u, v in zip(x, y)) for x, y in zip(a, b)
    )


def compared_order(rows: list[list[Any]], unordered: bool) -> list[list[Any]]:
    """The rows as `compare_step` lines them up: as given, or sorted by their normalised values."""
    if not unordered:
        return list(rows)
    keyed = sorted(zip(_norm_rows(rows, False), rows), key=lambda p: [_sort_key(v) for v in p[0]])
    return [raw for _, raw in keyed]


def first_row_difference(
    expected: list[list[Any]], observed: list[list[Any]], unordered: bool
) -> tuple[int, int | None] | None:
    """(row, column) of the first cell where the rows differ in `compared_order`, with the same
    normalisation as `compare_step`; column None when a row is missing or has another width."""
    a, b = _norm_rows(expected, unordered), _norm_rows(observed, unordered)
    for i, (x, y) in enumerate(zip(a, b)):
        for j, (u, v) in enumerate(zip(x, y)):
            if not _values_equal(u, v):
                return i, j
        if len(x) != len(y):
            return i, None
    return (min(len(a), len(b)), None) if len(a) != len(b) else None


def first_output_difference(expected: list[str], observed: list[str]) -> int | None:
    """Index of the first DBMS_OUTPUT line / NOTICE that differs (normalised as compared)."""
    a, b = [_normalize_line(x) for x in expected], [_normalize_line(x) for x in observed]
    for i, (x, y) in enumerate(zip(a, b)):
        if x != y:
            return i
    return min(len(a), len(b)) if len(a) != len(b) else None


def compare_step(expected: Outcome, observed: Observed, *, unordered: bool = False) -> Mismatch | None:
    """The first way `observed` contradicts Oracle's `expected` outcome, or None when it agrees."""
    if observed.timed_out:
        return Mismatch("timeout", "a result", f"step timed out ({observed.message})")
    if expected.error is not None and expected.error.user_defined and not expected.error.code:
        return _compare_user_defined(expected, observed)
    if expected.error is not None:
        code = parse_ora_code(expected.error.code)
        want = f"{expected.error.code}: {expected.error.message}".strip()
        if observed.sqlstate is None:
            return Mismatch("missing error", want, "no error; rows " + _fmt_rows(observed.rows))
        if not sqlstate_matches_ora(observed.sqlstate, code):
            return Mismatch("error", want, f"SQLSTATE {observed.sqlstate}: {observed.message}")
        if -20999 <= code <= -20000 and expected.error.message.strip() != (observed.message or "").strip():
            return Mismatch("error message", want, observed.message or "")
        return _compare_output(expected, observed)
    if observed.sqlstate is not None:
        return Mismatch(
            "unexpected error", _fmt_rows(expected.rows), f"SQLSTATE {observed.sqlstate}: {observed.message}"
        )
    if expected.rows is not None:
        if observed.rows is None:
            return Mismatch("rows", _fmt_rows(expected.rows), "(no result set)")
        if not _rows_equal(_norm_rows(expected.rows, unordered), _norm_rows(observed.rows, unordered)):
            return Mismatch("rows", _fmt_rows(expected.rows), _fmt_rows(observed.rows))
    return _compare_output(expected, observed)


# What a migrated RAISE_APPLICATION_ERROR raises (O2NNN) and what a plain RAISE EXCEPTION does.
_USER_DEFINED = re.compile(r"^(O2\d{3}|P0001)$")
_ORA_APP_PREFIX = re.compile(r"^ORA-20\d{3}: ?")
NUMBER_UNKNOWN = "user-defined error (number not recorded: the source raised P0001)"


def _compare_user_defined(expected: Outcome, observed: Observed) -> Mismatch | None:
    assert expected.error is not None
    want = f"{NUMBER_UNKNOWN}: {expected.error.message}"
    if observed.sqlstate is None:
        return Mismatch("missing error", want, "no error; rows " + _fmt_rows(observed.rows))
    if not _USER_DEFINED.match(observed.sqlstate):
        return Mismatch("error", want, f"SQLSTATE {observed.sqlstate}: {observed.message}")
    got = _ORA_APP_PREFIX.sub("", (observed.message or "").strip())
    if got != _ORA_APP_PREFIX.sub("", expected.error.message.strip()):
        return Mismatch("error message", want, observed.message or "")
    return _compare_output(expected, observed)


def _compare_output(expected: Outcome, observed: Observed) -> Mismatch | None:
    want = [_normalize_line(x) for x in expected.output]
    got = [_normalize_line(x) for x in observed.notices]
    if want != got:
        return Mismatch(
            "output", " | ".join(expected.output) or "(no output)", " | ".join(observed.notices) or "(no output)"
        )
    return None


def _normalize_line(line: str) -> str:
    # DBMS_OUTPUT.PUT_LINE('') / PUT_LINE(NULL) prints an empty line; RAISE NOTICE of NULL prints "<NULL>".
    return "" if line in ("<NULL>",) else line.rstrip()
