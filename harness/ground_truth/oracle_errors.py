"""Oracle error codes ↔ PostgreSQL SQLSTATEs: the one table both the converter and the verifier use.

It lives in `harness` (which imports nothing of `migrator`) so that the judge and the translator
share it without the judge depending on the translator.

`ORA_ERRORS` lists, per Oracle exception, its ORA code (SQLCODE, negative except NO_DATA_FOUND's
+100), its predefined PL/SQL name, the PostgreSQL condition names a handler must catch for it, and
the SQLSTATE PostgreSQL raises for it. Application errors and user exceptions have no PostgreSQL
counterpart, so they get SQLSTATEs in classes PostgreSQL never uses:

* ``RAISE_APPLICATION_ERROR(-20NNN, msg)`` → SQLSTATE ``O2NNN`` (class ``O2``: "Oracle -20xxx"),
  e.g. -20001 → ``O2001``, -20999 → ``O2999``. The message is kept; Oracle's SQLERRM is
  ``ORA-20NNN: msg``.
* A user-declared exception (no PRAGMA EXCEPTION_INIT) → SQLSTATE ``OU`` + 3 base-36 characters
  derived from its qualified name (``schema.unit.exception``), stable across runs; Oracle reports
  SQLCODE +1, SQLERRM ``User-Defined Exception``.
* ``PRAGMA EXCEPTION_INIT(e, code)`` → the SQLSTATE of `code` from the table (or ``O2NNN`` for
  -20NNN), so ``WHEN e`` catches exactly what the matching raise throws.

The verification harness compares Oracle errors with PostgreSQL errors through `sqlstate_for_ora`
and `ora_for_sqlstate`.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from harness.quoting import pg_string


@dataclass(frozen=True)
class OraError:
    code: int  # Oracle SQLCODE
    name: str | None  # predefined PL/SQL exception name
    conditions: tuple[str, ...]  # PostgreSQL condition names a handler lists
    sqlstate: str  # what PostgreSQL raises for it (first condition)
    message: str  # Oracle's message text (without the ORA-nnnnn: prefix)
    # The text Oracle's SQLERRM shows when it names the object: ``{constraint}`` stands for
    # ``OWNER.NAME``, ``{column}`` for ``"OWNER"."TABLE"."COLUMN"`` (None: never names one).
    object_message: str | None = None


ORA_ERRORS: tuple[OraError, ...] = (
    OraError(100, "NO_DATA_FOUND", ("no_data_found",), "P0002", "no data found"),
    OraError(-1403, None, ("no_data_found",), "P0002", "no data found"),
    OraError(
        -1422, "TOO_MANY_ROWS", ("too_many_rows",), "P0003", "exact fetch returns more than requested number of rows"
    ),
    OraError(-1476, "ZERO_DIVIDE", ("division_by_zero",), "22012", "divisor is equal to zero"),
    OraError(
        -1,
        "DUP_VAL_ON_INDEX",
        ("unique_violation",),
        "23505",
        "unique constraint violated",
        "unique constraint ({constraint}) violated",
    ),
    # PL/SQL raises VALUE_ERROR for conversion, truncation, overflow and NOT NULL violations.
    OraError(
        -6502,
        "VALUE_ERROR",
        (
            "numeric_value_out_of_range",
            "string_data_right_truncation",
            "invalid_text_representation",
            "null_value_not_allowed",
            "invalid_datetime_format",
            "datetime_field_overflow",
        ),
        "22003",
        "PL/SQL: numeric or value error",
    ),
    # A value of more than p digits written into a NUMBER(p) column (numeric(p) raises 22003;
    # VALUE_ERROR stays the SQLCODE of 22003, first in this table).
    OraError(
        -1438,
        None,
        ("numeric_value_out_of_range",),
        "22003",
        "value larger than specified precision allowed for this column",
    ),
    OraError(-1722, "INVALID_NUMBER", ("invalid_text_representation",), "22P02", "invalid number"),
    OraError(-6592, "CASE_NOT_FOUND", ("case_not_found",), "20000", "CASE not found while executing CASE statement"),
    OraError(-6511, "CURSOR_ALREADY_OPEN", ("duplicate_cursor",), "42P03", "PL/SQL: cursor already open"),
    OraError(-1001, "INVALID_CURSOR", ("invalid_cursor_name", "invalid_cursor_state"), "34000", "invalid cursor"),
    OraError(-1400, None, ("not_null_violation",), "23502", "cannot insert NULL", "cannot insert NULL into ({column})"),
    OraError(
        -2291,
        None,
        ("foreign_key_violation",),
        "23503",
        "integrity constraint violated - parent key not found",
        "integrity constraint ({constraint}) violated - parent key not found",
    ),
    OraError(
        -2292,
        None,
        ("foreign_key_violation",),
        "23503",
        "integrity constraint violated - child record found",
        "integrity constraint ({constraint}) violated - child record found",
    ),
    OraError(
        -2290,
        None,
        ("check_violation",),
        "23514",
        "check constraint violated",
        "check constraint ({constraint}) violated",
    ),
    OraError(
        -54,
        "RESOURCE_BUSY",
        ("lock_not_available",),
        "55P03",
        "resource busy and acquire with NOWAIT specified or timeout expired",
    ),
    OraError(-60, "DEADLOCK_DETECTED", ("deadlock_detected",), "40P01", "deadlock detected while waiting for resource"),
    OraError(-1410, "SYS_INVALID_ROWID", ("invalid_text_representation",), "22P02", "invalid ROWID"),
    OraError(-6530, "ACCESS_INTO_NULL", ("null_value_not_allowed",), "22004", "Reference to uninitialized composite"),
    OraError(
        -6531, "COLLECTION_IS_NULL", ("null_value_not_allowed",), "22004", "Reference to uninitialized collection"
    ),
    OraError(-6533, "SUBSCRIPT_BEYOND_COUNT", ("array_subscript_error",), "2202E", "Subscript beyond count"),
    # PostgreSQL reads NULL outside an array; oracompat.arr_get raises both (SUBSCRIPT_BEYOND_COUNT
    # with PostgreSQL's own array_subscript_error, this one apart so the two handlers tell them apart)
    OraError(-6532, "SUBSCRIPT_OUTSIDE_LIMIT", ("SQLSTATE 'OS532'",), "OS532", "Subscript outside of limit"),
    OraError(-1017, "LOGIN_DENIED", ("invalid_password",), "28P01", "invalid username/password"),
    OraError(-6500, "STORAGE_ERROR", ("out_of_memory",), "53200", "PL/SQL: storage error"),
    # The other predefined exceptions. PostgreSQL raises nothing that means them (a FETCH into a
    # record of another shape is its 42804), so they get SQLSTATEs of class OS ("Oracle, no
    # PostgreSQL counterpart"): RAISE raises exactly what a handler of the same name catches.
    OraError(-6501, "PROGRAM_ERROR", ("SQLSTATE 'OS501'",), "OS501", "PL/SQL: program error"),
    OraError(
        -6504,
        "ROWTYPE_MISMATCH",
        ("datatype_mismatch",),
        "42804",
        "PL/SQL: Return types of Result Set variables or query do not match",
    ),
    OraError(
        -30625, "SELF_IS_NULL", ("SQLSTATE 'OS625'",), "OS625", "method dispatch on NULL SELF argument is disallowed"
    ),
    OraError(
        -51, "TIMEOUT_ON_RESOURCE", ("SQLSTATE 'OS051'",), "OS051", "timeout occurred while waiting for a resource"
    ),
    OraError(-1012, "NOT_LOGGED_ON", ("SQLSTATE 'OS012'",), "OS012", "not logged on"),
    OraError(-6548, "NO_DATA_NEEDED", ("SQLSTATE 'OS548'",), "OS548", "no more rows needed"),
    # Errors of SQL functions and Oracle-supplied packages the support library implements
    # (migrator/convert/oracompat): the same codes, class OS.
    OraError(-1436, None, ("SQLSTATE 'OS436'",), "OS436", "CONNECT BY loop in user data"),
    OraError(-1846, None, ("SQLSTATE 'OS846'",), "OS846", "not a valid day of the week"),
    OraError(-1839, None, ("SQLSTATE 'OS839'",), "OS839", "date not valid for month specified"),
    OraError(-1481, None, ("SQLSTATE 'OS481'",), "OS481", "invalid number format model"),
    OraError(-1760, None, ("SQLSTATE 'OS760'",), "OS760", "illegal argument for function"),
    OraError(-2003, None, ("SQLSTATE 'OS203'",), "OS203", "invalid USERENV parameter"),
    OraError(-24381, None, ("SQLSTATE 'OS381'",), "OS381", "error(s) in array DML"),
    OraError(-21560, None, ("SQLSTATE 'OS560'",), "OS560", "argument is null, invalid, or out of range"),
    OraError(
        -22926, None, ("SQLSTATE 'OS926'",), "OS926", "specified trim length is greater than current LOB value's length"
    ),
    OraError(-29471, None, ("SQLSTATE 'OS471'",), "OS471", "DBMS_SQL access denied"),
    OraError(-1006, None, ("SQLSTATE 'OS106'",), "OS106", "bind variable does not exist"),
    OraError(-1007, None, ("SQLSTATE 'OS107'",), "OS107", "variable not in select list"),
    OraError(-1008, None, ("SQLSTATE 'OS108'",), "OS108", "not all variables bound"),
    OraError(-44001, None, ("SQLSTATE 'OS441'",), "OS441", "invalid schema"),
    OraError(-44002, None, ("SQLSTATE 'OS442'",), "OS442", "invalid object name"),
    OraError(-44003, None, ("SQLSTATE 'OS443'",), "OS443", "invalid SQL name"),
    OraError(-44004, None, ("SQLSTATE 'OS444'",), "OS444", "invalid qualified SQL name"),
    OraError(-29262, None, ("SQLSTATE 'OS262'",), "OS262", "bad URL"),
    # UTL_FILE (its package exceptions: migrator/convert/supplied.py EXCEPTIONS)
    OraError(-29280, None, ("SQLSTATE 'OS280'",), "OS280", "invalid directory path"),
    OraError(-29281, None, ("SQLSTATE 'OS281'",), "OS281", "invalid mode"),
    OraError(-29282, None, ("SQLSTATE 'OS282'",), "OS282", "invalid file ID"),
    OraError(-29283, None, ("SQLSTATE 'OS283'",), "OS283", "invalid file operation"),
    OraError(-29284, None, ("SQLSTATE 'OS284'",), "OS284", "file read error"),
    OraError(-29285, None, ("SQLSTATE 'OS285'",), "OS285", "file write error"),
    OraError(-29286, None, ("SQLSTATE 'OS286'",), "OS286", "internal error"),
    OraError(-29287, None, ("SQLSTATE 'OS287'",), "OS287", "invalid maximum line size"),
    OraError(-29288, None, ("SQLSTATE 'OS288'",), "OS288", "invalid file name"),
    OraError(-29289, None, ("SQLSTATE 'OS289'",), "OS289", "directory access denied"),
    OraError(-29290, None, ("SQLSTATE 'OS290'",), "OS290", "invalid offset specified"),
    OraError(-29291, None, ("SQLSTATE 'OS291'",), "OS291", "file remove operation failed"),
    OraError(-29292, None, ("SQLSTATE 'OS292'",), "OS292", "file rename operation failed"),
    OraError(-31603, None, ("SQLSTATE 'OS603'",), "OS603", "object not found"),
    # DBMS_LOB on BFILEs (class OL: their last three digits would meet UTL_FILE's in class OS)
    OraError(-22275, None, ("SQLSTATE 'OL275'",), "OL275", "invalid LOB locator specified"),
    OraError(-22285, None, ("SQLSTATE 'OL285'",), "OL285", "non-existent directory or file for FILEOPEN operation"),
    OraError(-22288, None, ("SQLSTATE 'OL288'",), "OL288", "file or LOB operation FILEOPEN failed"),
    OraError(
        -22289, None, ("SQLSTATE 'OL289'",), "OL289", "cannot perform FILEREAD operation on an unopened file or LOB"
    ),
    OraError(-31011, None, ("SQLSTATE 'OS011'",), "OS011", "XML parsing failed"),
    OraError(-19032, None, ("SQLSTATE 'OS032'",), "OS032", "Expected XML tag , got no content"),
    OraError(-19025, None, ("SQLSTATE 'OS025'",), "OS025", "EXTRACTVALUE returns value of only one node"),
)

BY_NAME = {e.name: e for e in ORA_ERRORS if e.name}
BY_CODE: dict[int, OraError] = {}
for _e in ORA_ERRORS:
    BY_CODE.setdefault(_e.code, _e)

USER_SQLCODE = 1
USER_MESSAGE = "User-Defined Exception"


def app_error_sqlstate(code: int) -> str | None:
    """-20NNN → 'O2NNN'; None outside Oracle's application-error range."""
    if -20999 <= code <= -20000:
        return f"O2{-code - 20000:03d}"
    return None


def user_exception_sqlstate(qualified_name: str) -> str:
    """A stable, distinct SQLSTATE for a user-declared exception ('OU' + 3 base-36 characters)."""
    digest = int(hashlib.sha1(qualified_name.lower().encode()).hexdigest(), 16)
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    tail = ""
    for _ in range(3):
        digest, r = divmod(digest, 36)
        tail += alphabet[r]
    return "OU" + tail


def sqlstate_for_ora(code: int) -> str | None:
    """The SQLSTATE PostgreSQL raises where Oracle raises `code` (None when unknown)."""
    app = app_error_sqlstate(code)
    if app:
        return app
    e = BY_CODE.get(code)
    return e.sqlstate if e else None


def conditions_for_ora(code: int) -> tuple[str, ...] | None:
    """What a handler lists to catch Oracle error `code` (condition names or SQLSTATE literals)."""
    app = app_error_sqlstate(code)
    if app:
        return (f"SQLSTATE '{app}'",)
    e = BY_CODE.get(code)
    return e.conditions if e else None


def ora_for_sqlstate(sqlstate: str) -> int | None:
    """Oracle SQLCODE for a PostgreSQL SQLSTATE (None when no Oracle counterpart is known)."""
    if sqlstate.startswith("O2") and sqlstate[2:].isdigit():
        return -20000 - int(sqlstate[2:])
    if sqlstate.startswith("OU"):
        return USER_SQLCODE
    for e in ORA_ERRORS:
        if e.sqlstate == sqlstate:
            return e.code
    return None


def runtime_sqlcode_cases() -> str:
    """VALUES rows (sqlstate, sqlcode, sqlerrm) for oracompat.sqlcode_msg(), from the table."""
    seen, rows = set(), []
    for e in ORA_ERRORS:
        if e.sqlstate in seen:
            continue
        seen.add(e.sqlstate)
        rows.append(f"('{e.sqlstate}', {e.code}, {pg_string(f'{ora_prefix(e.code)}: {e.message}')})")
    return ",\n        ".join(rows)


def runtime_sqlerrm_of_cases() -> str:
    """VALUES rows (sqlcode, SQLERRM(sqlcode)) for oracompat.sqlerrm_of(): Oracle's message for a
    code without a current error, which shows an object message with empty names
    ('ORA-00001: unique constraint (.) violated')."""
    seen, rows = set(), []
    for e in ORA_ERRORS:
        if e.code in seen:
            continue
        seen.add(e.code)
        text = e.message
        if e.object_message:
            text = e.object_message.replace("{constraint}", ".").replace("{column}", "")
        rows.append(f"({e.code}, {pg_string(f'{ora_prefix(e.code)}: {text}')})")
    return ",\n        ".join(rows)


def ora_prefix(code: int) -> str:
    """'ORA-nnnnn' for a SQLCODE (NO_DATA_FOUND's +100 is ORA-01403)."""
    return "ORA-01403" if code == 100 else f"ORA-{-code:05d}"


# PostgreSQL reports both directions of a foreign-key violation as 23503; the message tells them
# apart ("insert or update on table ..." = parent key not found, "update or delete on table ..." =
# child record found).
FK_CHILD_MESSAGE_PREFIX = "update or delete on table"


def object_sqlerrm(
    code: int, owner: str | None, constraint: str | None = None, table: str | None = None, column: str | None = None
) -> str | None:
    """Oracle's SQLERRM naming the object (``ORA-02291: integrity constraint (HR.FK) ...``).

    Names are upper-cased as Oracle reports unquoted identifiers; the owner is the schema. None
    when the error never names an object or the needed names are missing."""
    e = BY_CODE.get(code)
    if e is None or e.object_message is None or not owner:
        return None
    if "{constraint}" in e.object_message:
        if not constraint:
            return None
        text = e.object_message.replace("{constraint}", f"{owner.upper()}.{constraint.upper()}")
    else:
        if not (table and column):
            return None
        text = e.object_message.replace("{column}", f'"{owner.upper()}"."{table.upper()}"."{column.upper()}"')
    return f"{ora_prefix(code)}: {text}"


def runtime_object_cases() -> str:
    """VALUES rows (sqlcode, prefix, generic message, object message) for oracompat.sqlerrm()."""
    rows = []
    for e in ORA_ERRORS:
        if e.object_message is None:
            continue
        cells = [ora_prefix(e.code), e.message, e.object_message]
        q = ", ".join(pg_string(c) for c in cells)
        rows.append(f"({e.code}, {q})")
    return ",\n        ".join(rows)


def parse_ora_code(text: str) -> int:
    """'ORA-01403' / 'ORA-20001' / '-1403' → the Oracle error number as SQLCODE (negative)."""
    t = text.strip().upper()
    if t.startswith("ORA-"):
        t = t[4:]
    return -abs(int(t))


UNHANDLED_USER_EXCEPTION = -6510  # ORA-06510: PL/SQL: unhandled user-defined exception


def sqlstate_matches_ora(sqlstate: str | None, ora_code: int) -> bool:
    """Does a PostgreSQL error with `sqlstate` correspond to Oracle error `ora_code`?"""
    if sqlstate is None:
        return False
    if ora_code == UNHANDLED_USER_EXCEPTION:
        return sqlstate.startswith("OU")
    if ora_code in (-1403, 100):
        return sqlstate == "P0002"
    app = app_error_sqlstate(ora_code)
    if app:
        return sqlstate == app
    entry = BY_CODE.get(ora_code)
    if entry is None:
        return False
    return sqlstate in {entry.sqlstate} | set(_CONDITION_SQLSTATES.get(c, "") for c in entry.conditions)


# SQLSTATEs of the condition names used in the table (PostgreSQL Appendix A).
_CONDITION_SQLSTATES = {
    "no_data_found": "P0002",
    "too_many_rows": "P0003",
    "division_by_zero": "22012",
    "unique_violation": "23505",
    "numeric_value_out_of_range": "22003",
    "string_data_right_truncation": "22001",
    "invalid_text_representation": "22P02",
    "null_value_not_allowed": "22004",
    "invalid_datetime_format": "22007",
    "datetime_field_overflow": "22008",
    "case_not_found": "20000",
    "duplicate_cursor": "42P03",
    "invalid_cursor_name": "34000",
    "invalid_cursor_state": "24000",
    "not_null_violation": "23502",
    "foreign_key_violation": "23503",
    "check_violation": "23514",
    "lock_not_available": "55P03",
    "deadlock_detected": "40P01",
    "array_subscript_error": "2202E",
    "invalid_password": "28P01",
    "out_of_memory": "53200",
}
