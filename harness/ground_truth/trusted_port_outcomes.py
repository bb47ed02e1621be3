"""What a step did on PostgreSQL, written as a transcript outcome in Oracle's terms.

Used to record ground truth from a trusted PostgreSQL port (harness.ground_truth.trusted_port): rows in the
transcript's documented forms (as harness.engines.oracle.to_transcript_value writes Oracle's), NOTICE
lines as DBMS_OUTPUT output, and errors mapped from SQLSTATE to the Oracle error code through the
one table in harness.ground_truth.oracle_errors — so that `harness.judge.compare` reads the outcome back exactly as it reads
one recorded from Oracle. An error with no Oracle counterpart cannot be written as an Oracle
outcome: it is returned as a problem, never guessed.
"""

from __future__ import annotations

import datetime as dt
import decimal
import re

from harness.engines.oracle import to_transcript_value
from harness.ground_truth.oracle_errors import (
    BY_CODE,
    FK_CHILD_MESSAGE_PREFIX,
    ORA_ERRORS,
    UNHANDLED_USER_EXCEPTION,
    ora_for_sqlstate,
    ora_prefix,
    sqlstate_matches_ora,
)
from harness.ground_truth.scenarios import OraErrorOutcome, Outcome
from harness.judge.compare import Observed

# A port that emulates RAISE_APPLICATION_ERROR with a plain RAISE EXCEPTION (SQLSTATE P0001)
# usually keeps Oracle's text: "ORA-20001: message".
_APP_ERROR_TEXT = re.compile(r"^ORA-(20\d{3}): ?(.*)$", re.DOTALL)


def transcript_value(value):
    """A psycopg value → the YAML scalar the transcript format documents (DATE as text, numbers
    as numbers, intervals in days as Oracle's date arithmetic gives them)."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (dt.datetime, decimal.Decimal, bytes, bytearray, memoryview)):
        return to_transcript_value(bytes(value) if isinstance(value, memoryview) else value)
    if isinstance(value, dt.date):
        return f"{value.isoformat()} 00:00:00"
    if isinstance(value, dt.timedelta):
        days = decimal.Decimal(str(value.total_seconds())) / 86400
        return to_transcript_value(days)
    if isinstance(value, (list, tuple)):
        return [transcript_value(v) for v in value]
    return str(value)


def ora_code(sqlstate: str, message: str) -> tuple[int, str] | None:
    """(Oracle SQLCODE, message) for a PostgreSQL error, or None when Oracle has no such error."""
    if sqlstate == "P0001":
        match = _APP_ERROR_TEXT.match(message)
        return (-int(match.group(1)), match.group(2)) if match else None
    if sqlstate.startswith("OU"):  # a user-declared exception nobody handled
        return UNHANDLED_USER_EXCEPTION, "unhandled user-defined exception"
    if sqlstate == "23503" and message.startswith(FK_CHILD_MESSAGE_PREFIX):
        return -2292, BY_CODE[-2292].message
    code = ora_for_sqlstate(sqlstate)
    if code is None:  # not an error's own SQLSTATE, but one of the conditions it stands for (22001 → VALUE_ERROR)
        code = next((e.code for e in ORA_ERRORS if sqlstate_matches_ora(sqlstate, e.code)), None)
    if code is None:
        return None
    if -20999 <= code <= -20000:
        return code, message  # the application's own message is part of the outcome
    return code, BY_CODE[code].message


def outcome_of(observed: Observed) -> tuple[Outcome | None, str | None]:
    """The transcript outcome of one step, or (None, why it cannot be one)."""
    if observed.timed_out:
        return None, f"timed out on the reference ({observed.message})"
    if observed.sqlstate is None:
        rows = None if observed.rows is None else [[transcript_value(v) for v in r] for r in observed.rows]
        return Outcome(rows=rows, output=list(observed.notices)), None
    mapped = ora_code(observed.sqlstate, observed.message or "")
    if mapped is None and observed.sqlstate == "P0001":
        error = OraErrorOutcome(code="", message=observed.message or "", user_defined=True)
        return Outcome(error=error, output=list(observed.notices)), None
    if mapped is None:
        return None, f"SQLSTATE {observed.sqlstate} has no Oracle error code: {observed.message}"
    code, message = mapped
    error = OraErrorOutcome(code=ora_prefix(code), message=message)
    return Outcome(error=error, output=list(observed.notices)), None


def number_unknown(outcome: Outcome) -> bool:
    """A user-defined error recorded without its Oracle number (plain P0001 on the port)."""
    return outcome.error is not None and bool(outcome.error.user_defined) and not outcome.error.code
