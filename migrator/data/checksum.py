"""The order-independent content checksum of a table's rows: the same number from the values sent
(the COPY lines, in Python), from the loaded table (PostgreSQL, read back) and from the source
table (Oracle, by one query), so that no row is lost and no value altered on the way.

Each row becomes one canonical line: its fields in the PostgreSQL column's canonical text, in
COPY's text format (tab between fields, `\\N` for NULL, backslash escapes as COPY TO writes them);
the row's hash is the first 8 bytes of that line's MD5 read as a big-endian integer, and the
table's checksum the sum of the rows' hashes modulo 2**64. MD5 because PostgreSQL (`md5`) and
Oracle (`STANDARD_HASH`, `DBMS_CRYPTO`) both compute it.

Canonical text by the PostgreSQL type (the same on all three sides):
- integers: the decimal digits (`007` → `7`); numeric: no exponent, no trailing fraction zeros
  (`1.6E3`, `1600.00` → `1600`); float8 / float4: the IEEE bits as bytea text (`\\x3fb9…`: two
  shortest decimal texts of one double can differ, Python's and PostgreSQL's, the bits cannot);
- timestamp: `YYYY-MM-DD HH:MI:SS[.ffffff]` (fraction rounded to microseconds, trailing zeros
  dropped); timestamptz: the same, in UTC; date: `YYYY-MM-DD`;
- char(n): without trailing blanks; everything else: its text as COPY writes it.

A value PostgreSQL stored other than it was sent (numeric(12,2) rounding `1.234`, a timestamp(0)
rounding a fraction) makes the sums differ, as it should. The loaded side is computed by the
server in one scan (`loaded_sum`: the canonical line as COPY TO would write it, md5, summed in SQL):
no row of the table travels back to Python.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from decimal import Context, Decimal, InvalidOperation
from functools import lru_cache
from zoneinfo import ZoneInfo

import psycopg

from harness.quoting import quote_ident
from migrator.data.rows import COPY_ESCAPES

MASK64 = (1 << 64) - 1
Canon = Callable[[str], str] | None  # None: the text as sent is canonical


def row_hash(line: bytes) -> int:
    """The hash of one canonical line (without its newline)."""
    return int.from_bytes(hashlib.md5(line, usedforsecurity=False).digest()[:8], "big")


def lines_sum(lines: Iterable[bytes], canons: list[Canon]) -> int:
    """The sum of the hashes of COPY lines (each ending in a newline) as sent."""
    total = 0
    md5 = hashlib.md5
    if all(c is None for c in canons):
        for line in lines:
            total += int.from_bytes(md5(line[:-1], usedforsecurity=False).digest()[:8], "big")
        return total & MASK64
    for line in lines:
        fields = line[:-1].decode("utf-8").split("\t")
        for k, canon in enumerate(canons):
            if canon is not None and k < len(fields) and fields[k] != "\\N":
                fields[k] = canon(fields[k])
        total += int.from_bytes(md5("\t".join(fields).encode("utf-8"), usedforsecurity=False).digest()[:8], "big")
    return total & MASK64


@dataclass(frozen=True)
class Column:
    name: str  # as PostgreSQL names it (unquoted)
    type_name: str  # format_type() without typmod, e.g. 'numeric', 'timestamp with time zone'


def table_columns(conn: psycopg.Connection, table: str, columns: list[str] | None) -> list[Column]:
    """The columns a COPY of `table (columns)` fills, with their types."""
    cols = ", ".join(columns) if columns else "*"
    cur = conn.execute(f"SELECT {cols} FROM {table} LIMIT 0".encode())
    out = []
    for d in cur.description or ():
        row = conn.execute("SELECT format_type(%s, NULL)", (d.type_code,)).fetchone()
        out.append(Column(d.name, row[0] if row else ""))
    return out


# ---- the values sent (Python) -------------------------------------------------------------

# already canonical (not "-0": PostgreSQL stores no negative zero, it writes 0)
_PLAIN_INT = re.compile(r"(?!-0\Z)-?(?:0|[1-9]\d*)")
_PLAIN_DEC = re.compile(r"(?!-0\Z)-?(?:0|[1-9]\d*)(?:\.\d*[1-9])?")
_STAMP = re.compile(r"(\d{4}-\d\d-\d\d)(?:[ T](\d\d:\d\d:\d\d)(?:\.(\d+))?)?")
_ZONED = re.compile(r"(.+?)\s*(?:([+-]\d{1,2})(?::?(\d\d))?|\s(UTC|Z|[A-Za-z][\w/+-]*))?")


def _int(v: str) -> str:
    if _PLAIN_INT.fullmatch(v):
        return v
    try:
        return str(int(v.strip()))
    except ValueError:
        return v


_DECIMAL = re.compile(r"(-?)(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,4}))?")


def _numeric(v: str) -> str:
    if _PLAIN_DEC.fullmatch(v):
        return v
    m = _DECIMAL.fullmatch(v)
    if m is not None and (m.group(2) or m.group(3)):
        # the digits moved by the exponent as strings: what `_numeric_decimal` gives, and exact
        # at any number of digits (as numeric stores them)
        sign, whole, frac, exp = m.groups()
        digits = whole + (frac or "")
        stripped = digits.lstrip("0")
        point = len(whole) + int(exp or 0) - (len(digits) - len(stripped))
        stripped = stripped.rstrip("0")
        if not stripped:
            return "0"
        if point <= 0:
            text = "0." + "0" * -point + stripped
        elif point >= len(stripped):
            text = stripped + "0" * (point - len(stripped))
        else:
            text = stripped[:point] + "." + stripped[point:]
        return sign + text
    return _numeric_decimal(v)


def _numeric_decimal(v: str) -> str:
    try:
        d = Decimal(v.strip())
    except InvalidOperation:
        return v
    if not d.is_finite():
        return "NaN" if d.is_nan() else v
    if d == 0:
        return "0"
    return format(d.normalize(_EXACT), "f")


_EXACT = Context(prec=1000)  # Decimal's default context rounds to 28 digits; numeric does not


def _float8(v: str) -> str:
    try:
        return "\\\\x" + struct.pack(">d", float(v)).hex()
    except (ValueError, OverflowError):
        return v


def _float4(v: str) -> str:
    try:
        return "\\\\x" + struct.pack(">f", float(v)).hex()
    except (ValueError, OverflowError):
        return v


def _fraction(frac: str | None) -> tuple[str, bool]:
    """A fraction of a second rounded to microseconds, trailing zeros dropped; carry into the second?"""
    if not frac:
        return "", False
    if len(frac) > 6:
        micros = round(float("0." + frac) * 1_000_000)
        if micros >= 1_000_000:
            return "", True
        frac = f"{micros:06d}"
    frac = frac.rstrip("0")
    return ("." + frac if frac else ""), False


# a timestamp already canonical (a fraction of at most 6 digits without trailing zero), as
# read_datetime writes most of them: returned as is
_CANONICAL_STAMP = re.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{0,5}[1-9])?")


def _timestamp(v: str) -> str:
    if _CANONICAL_STAMP.fullmatch(v):
        return v
    m = _STAMP.fullmatch(v)
    if m is None:
        try:
            return dt.datetime.fromisoformat(v).replace(tzinfo=None).isoformat(" ")
        except ValueError:
            return v
    day, time, frac = m.groups()
    frac_text, carry = _fraction(frac)
    if carry:
        when = dt.datetime.fromisoformat(f"{day} {time}") + dt.timedelta(seconds=1)
        return when.strftime("%Y-%m-%d %H:%M:%S")
    return f"{day} {time or '00:00:00'}{frac_text}"


# the common zoned text (what TO_TIMESTAMP_TZ with an offset gives): the offset is whole minutes,
# so only the minute prefix shifts, and a prefix and offset seen before are not computed again
_TZ_COMMON = re.compile(r"(\d{4}-\d\d-\d\d \d\d:\d\d)(:\d\d)(?:\.(\d{1,6}))? ?([+-]\d\d):?(\d\d)")


@lru_cache(maxsize=1 << 16)
def _shift(prefix: str, hours: str, minutes: str) -> str:
    delta = dt.timedelta(hours=int(hours[1:]), minutes=int(minutes))
    when = dt.datetime.fromisoformat(prefix)
    when = when - delta if hours[0] == "+" else when + delta
    return when.isoformat(" ", "minutes")


def _timestamptz(v: str) -> str:
    c = _TZ_COMMON.fullmatch(v)
    if c is not None:
        prefix, seconds, frac, hours, minutes = c.groups()
        if frac:
            frac = frac.rstrip("0")
        tail = seconds + ("." + frac if frac else "")
        if hours[1:] == "00" and minutes == "00":
            return prefix + tail
        try:
            return _shift(prefix, hours, minutes) + tail
        except (ValueError, OverflowError):
            pass
    m = _ZONED.fullmatch(v)
    if m is None:
        return v
    stamp, hours, minutes, region = m.groups()
    local = _timestamp(stamp)
    if not hours and region in (None, "UTC", "Z"):
        return local
    try:
        when = dt.datetime.fromisoformat(local)
    except ValueError:
        return v
    if hours:
        delta = dt.timedelta(hours=abs(int(hours)), minutes=int(minutes or 0))
        if delta == dt.timedelta(0):
            return local
        when -= delta if not hours.startswith("-") else -delta
    else:
        try:
            when = when.replace(tzinfo=ZoneInfo(region)).astimezone(dt.UTC).replace(tzinfo=None)
        except (KeyError, ValueError):
            return v
    text = when.isoformat(" ")
    if "." in text:
        head, frac = text.split(".")
        frac = frac.rstrip("0")
        text = head + ("." + frac if frac else "")
    return text


def _boolean(v: str) -> str:
    return "t" if v.strip().lower() in ("t", "true", "1", "y", "yes", "on") else "f"


_UNESCAPE = re.compile(r"\\(.)")
_UNESCAPED = {"n": "\n", "r": "\r", "t": "\t", "b": "\b", "f": "\f", "v": "\v"}


def _text(v: str) -> str:
    """Text escaped as COPY writes it (values written by other tools may escape differently)."""
    if "\\" not in v:
        return v
    return _UNESCAPE.sub(lambda m: _UNESCAPED.get(m.group(1), m.group(1)), v).translate(COPY_ESCAPES)


def source_canon(type_name: str) -> Canon:
    if type_name in ("integer", "bigint", "smallint"):
        return _int
    if type_name == "numeric":
        return _numeric
    if type_name == "double precision":
        return _float8
    if type_name == "real":
        return _float4
    if type_name == "boolean":
        return _boolean
    if type_name == "timestamp with time zone":
        return _timestamptz
    if type_name == "timestamp without time zone":
        return _timestamp
    if type_name == "date":
        return lambda v: v[:10]
    if type_name == "bytea":
        return str.lower
    if type_name == "character":
        return lambda v: _text(v).rstrip(" ")
    return _text


# ---- the loaded table (PostgreSQL) ---------------------------------------------------------


def loaded_expr(col: Column) -> str:
    """The SELECT expression that writes a stored value in its canonical text."""
    c = quote_ident(col.name)
    if col.type_name == "numeric":
        return f"trim_scale({c})"
    if col.type_name == "double precision":
        return f"float8send({c})"
    if col.type_name == "real":
        return f"float4send({c})"
    if col.type_name == "timestamp with time zone":
        return f"({c} AT TIME ZONE 'UTC')"
    if col.type_name == "character":
        return f"rtrim({c}, ' ')"
    return c


# types whose text (`::text`) is their output function's and holds nothing COPY escapes
_PLAIN_TYPES = frozenset({"integer", "bigint", "smallint", "numeric", "date",
                          "timestamp without time zone", "timestamp with time zone"})  # fmt: skip
_BITS_TYPES = frozenset({"double precision", "real", "bytea"})  # bytea text: '\\x…'
_STRING_TYPES = frozenset({"text", "character varying", "character"})  # `::text` is the value itself
_COPY_ESCAPED = ((8, "b"), (9, "t"), (10, "n"), (11, "v"), (12, "f"), (13, "r"))


def loaded_line_expr(col: Column) -> str:
    """SQL giving a stored value's canonical text as COPY TO writes it: `loaded_expr`, escaped as
    COPY's text format escapes (backslash, \\b \\f \\n \\r \\t \\v), `\\N` for NULL."""
    expr = loaded_expr(col)
    if col.type_name in _PLAIN_TYPES:
        return f"coalesce({expr}::text, '\\N')"
    if col.type_name in _BITS_TYPES:  # only the leading backslash of '\\x…' is escaped
        return f"coalesce('\\' || {expr}::text, '\\N')"
    # format('%s') writes a value with its type's output function, as COPY does (boolean 't',
    # inet without a /32), where a cast to text may not
    value = (
        f"{expr}::text"
        if col.type_name in _STRING_TYPES
        else f"(CASE WHEN {expr} IS NOT NULL THEN format('%s', {expr}) END)"
    )
    value = f"replace({value}, '\\', '\\\\')"
    for code, letter in _COPY_ESCAPED:
        value = f"replace({value}, chr({code}), '\\{letter}')"
    return f"coalesce({value}, '\\N')"


def loaded_sum(conn: psycopg.Connection, table: str, columns: list[Column]) -> int:
    """The checksum of the table as stored, computed by the server in one scan: each row's
    canonical line (as COPY TO would write it) hashed with md5, the first 16 hex digits read as a
    64-bit integer, summed (two's complement sums agree with the unsigned ones modulo 2**64)."""
    conn.execute("SET LOCAL TimeZone = 'UTC'")
    conn.execute("SET LOCAL DateStyle = 'ISO, YMD'")
    conn.execute("SET LOCAL IntervalStyle = 'postgres'")
    conn.execute("SET LOCAL extra_float_digits = 1")
    conn.execute("SET LOCAL bytea_output = 'hex'")
    conn.execute("SET LOCAL standard_conforming_strings = on")  # '\\' in the expressions is one backslash
    line = " || E'\\t' || ".join(loaded_line_expr(c) for c in columns) or "''"
    encoding = conn.execute("SHOW server_encoding").fetchone()
    if not encoding or encoding[0].upper() not in ("UTF8", "SQL_ASCII"):
        line = f"convert_to({line}, 'UTF8')"  # the UTF-8 bytes Python and Oracle hash
    sql = f"SELECT sum(('x' || left(md5({line}), 16))::bit(64)::bigint) FROM {table}"
    row = conn.execute(sql.encode()).fetchone()
    return int(row[0] or 0) & MASK64 if row else 0


# ---- the source table (Oracle) -------------------------------------------------------------

_ORACLE_TEXT_ESCAPES = [("\\", "\\\\"), ("CHR(8)", "\\b"), ("CHR(12)", "\\f"), ("CHR(10)", "\\n"),
                        ("CHR(13)", "\\r"), ("CHR(9)", "\\t"), ("CHR(11)", "\\v")]  # fmt: skip


def _oracle_escaped(expr: str) -> str:
    for char, escaped in _ORACLE_TEXT_ESCAPES:
        needle = char if char.startswith("CHR") else "'" + char + "'"
        expr = f"REPLACE({expr}, {needle}, '{escaped}')"
    return expr


def oracle_expr(column: str, col: Column) -> str | None:
    """The Oracle expression giving the canonical text of `column` (an Oracle quoted name) for the
    PostgreSQL column it loads into; None: no Oracle expression gives it (float text, bytea …)."""
    t = col.type_name
    if t in ("integer", "bigint", "smallint", "numeric"):
        # TM9: the shortest text without exponent up to 64 characters; '.5' gets its leading zero
        return f"REGEXP_REPLACE(TO_CHAR({column}, 'TM9'), '^(-?)\\.', '\\10.')"
    if t == "date":
        return f"TO_CHAR({column}, 'YYYY-MM-DD')"
    if t in ("timestamp without time zone", "timestamp with time zone"):
        value = f"SYS_EXTRACT_UTC(CAST({column} AS TIMESTAMP WITH TIME ZONE))" if "with time" in t else column
        # FF6 rounds to microseconds as PostgreSQL stores them; trailing zeros (and a bare '.') dropped
        return f"REGEXP_REPLACE(TO_CHAR(CAST({value} AS TIMESTAMP(6)), 'YYYY-MM-DD HH24:MI:SS.FF6'), '\\.?0+$', '')"
    if t == "boolean":
        return None
    if t in ("double precision", "real"):
        cast = (
            "CAST_FROM_BINARY_DOUBLE(TO_BINARY_DOUBLE"
            if t == "double precision"
            else "CAST_FROM_BINARY_FLOAT(TO_BINARY_FLOAT"
        )
        return f"'\\\\x' || LOWER(RAWTOHEX(UTL_RAW.{cast}({column}))))"
    if t == "bytea":
        return f"'\\\\x' || LOWER(RAWTOHEX({column}))"
    text = _oracle_escaped(column)  # REPLACE keeps a CLOB a CLOB (TO_CHAR would stop at 4,000 bytes)
    return f"RTRIM({text}, ' ')" if t == "character" else text


def oracle_checksum_query(table: str, columns: list[tuple[str, Column]]) -> str | None:
    """The query computing the checksum on Oracle (one row: the sum of the row hashes, before the
    modulo): `columns` pairs each Oracle quoted column name with the PostgreSQL column it loads.
    The line is built as a CLOB (a row may pass VARCHAR2's 4,000 bytes) and hashed with
    DBMS_CRYPTO.HASH (2 = HASH_MD5; EXECUTE on DBMS_CRYPTO is needed), which hashes a CLOB as
    AL32UTF8 whatever the database character set — the UTF-8 bytes Python and PostgreSQL hash. None: a column's canonical
    text has no Oracle expression; the checksum is then compared from PostgreSQL's side only."""
    parts = []
    for name, col in columns:
        expr = oracle_expr(name, col)
        if expr is None:
            return None
        parts.append(f"NVL(TO_CLOB({expr}), TO_CLOB('\\N'))")
    line = " || TO_CLOB(CHR(9)) || ".join(parts)
    return (
        "SELECT TO_CHAR(SUM(TO_NUMBER(SUBSTR(RAWTOHEX(DBMS_CRYPTO.HASH("
        f"{line}, 2)), 1, 16), 'XXXXXXXXXXXXXXXX'))) FROM {table}"
    )
