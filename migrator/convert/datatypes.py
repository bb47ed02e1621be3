"""Oracle data types → PostgreSQL types (shared by DDL, PL/SQL declarations and CAST).

Each family has a rule id so a fix cycle can switch it off: when a rule is disabled the Oracle
spelling is returned unchanged (deployment then fails loudly instead of guessing).
"""

from __future__ import annotations

import re

from harness.quoting import qualified
from migrator.convert.context import ConversionContext
from migrator.source.identifiers import fold

_NUMBER = re.compile(r"^(NUMBER|NUMERIC|DECIMAL|DEC)\s*(?:\(\s*(\*|\d+)\s*(?:,\s*(-?\d+)\s*)?\))?$", re.I)
_CHARS = re.compile(
    r"^(VARCHAR2|NVARCHAR2|VARCHAR|CHARACTER\s+VARYING|CHAR\s+VARYING|NCHAR\s+VARYING"
    r"|NATIONAL\s+CHARACTER\s+VARYING|CHARACTER|CHAR|NCHAR|NATIONAL\s+CHARACTER|NATIONAL\s+CHAR)"
    r"\s*(?:\(\s*(\d+)\s*(?:BYTE|CHAR)?\s*\))?$",
    re.I,
)
_TIMESTAMP = re.compile(r"^TIMESTAMP\s*(?:\(\s*(\d+)\s*\))?\s*(WITH\s+LOCAL\s+TIME\s+ZONE|WITH\s+TIME\s+ZONE)?$", re.I)
# (the spelling may come from tokens: "DAY(4)TO SECOND" has no blank after the parenthesis)
_INTERVAL_YM = re.compile(r"^INTERVAL\s+YEAR\s*(?:\(\s*\d+\s*\)\s*|\s)TO\s+MONTH$", re.I)
_INTERVAL_DS = re.compile(r"^INTERVAL\s+DAY\s*(?:\(\s*\d+\s*\)\s*|\s)TO\s+SECOND\s*(?:\(\s*(\d+)\s*\))?$", re.I)
# RAW without a size: a PL/SQL parameter or return type
_RAW = re.compile(r"^(RAW(?:\s*\(\s*\d+\s*\))?|LONG\s+RAW|BLOB|BFILE)$", re.I)
_FLOAT = re.compile(r"^(FLOAT\s*(?:\(\s*\d+\s*\))?|REAL|DOUBLE\s+PRECISION)$", re.I)

# Simple one-to-one spellings: Oracle name → (PostgreSQL type, rule id).
_SIMPLE = {
    "DATE": ("timestamp(0)", "ddl.date_type"),  # Oracle DATE carries a time of day (to seconds)
    "CLOB": ("text", "ddl.lob_types"),
    "NCLOB": ("text", "ddl.lob_types"),
    "LONG": ("text", "ddl.lob_types"),
    "BINARY_FLOAT": ("real", "ddl.binary_float"),
    "BINARY_DOUBLE": ("double precision", "ddl.binary_float"),
    "XMLTYPE": ("xml", "ddl.xml_type"),
    "SYS.XMLTYPE": ("xml", "ddl.xml_type"),
    # ROWID values are opaque strings; PostgreSQL's ctid is not stable across updates.
    "ROWID": ("text", "ddl.rowid_type"),
    "UROWID": ("text", "ddl.rowid_type"),
    "BOOLEAN": ("boolean", "ddl.boolean_type"),
    # Oracle INTEGER/INT/SMALLINT are all NUMBER(38): a 32-bit integer could overflow.
    "INTEGER": ("numeric(38)", "ddl.number_type"),
    "INT": ("numeric(38)", "ddl.number_type"),
    "SMALLINT": ("numeric(38)", "ddl.number_type"),
    # PL/SQL integer subtypes are 32-bit (their range/NOT NULL subtype constraints are not kept).
    "PLS_INTEGER": ("integer", "ddl.plsql_integer"),
    "BINARY_INTEGER": ("integer", "ddl.plsql_integer"),
    "SIMPLE_INTEGER": ("integer", "ddl.plsql_integer"),
    "NATURAL": ("integer", "ddl.plsql_integer"),
    "NATURALN": ("integer", "ddl.plsql_integer"),
    "POSITIVE": ("integer", "ddl.plsql_integer"),
    "POSITIVEN": ("integer", "ddl.plsql_integer"),
    "SIGNTYPE": ("smallint", "ddl.plsql_integer"),
    "SYS_REFCURSOR": ("refcursor", "ddl.ref_cursor"),
}


def map_type(oracle_type: str, ctx: ConversionContext | None = None) -> str:
    """Map one Oracle type spelling (e.g. ``NUMBER(10)``, ``VARCHAR2(30 CHAR)``) to PostgreSQL.

    Unknown names (user-defined types) are returned as their PostgreSQL name, folded and quoted
    like every other name; other unknown spellings (%TYPE references) come back lower-cased:
    callers that know better resolve them first.
    """
    t = " ".join(oracle_type.split())
    for mapper in (_map_simple, _map_numeric, _map_chars, _map_time, _map_binary):
        result = mapper(t)
        if result is not None:
            pg, rule = result
            if ctx is None:
                return pg
            if not ctx.enabled(rule):
                return t
            ctx.applied(rule)
            return pg
    name = _type_name(t)
    return qualified(*name) if name else t.lower()


# One identifier as Oracle source writes it: a bare word or a quoted name ("" inside is a quote).
_IDENT = r'(?:"(?:[^"]|"")*"|[^\W\d][\w$#]*)'
_TYPE_NAME = re.compile(rf"\s*({_IDENT})\s*(\.)?")


def _type_name(t: str) -> list[str]:
    """Plain parts of a type spelled as a (possibly qualified) name, else []."""
    parts, pos, dot = [], 0, True
    while dot:
        m = _TYPE_NAME.match(t, pos)
        if m is None:
            return []
        parts.append(fold(m.group(1)))
        pos, dot = m.end(), bool(m.group(2))
    return parts if pos == len(t) else []


def _map_simple(t: str) -> tuple[str, str] | None:
    return _SIMPLE.get(t.upper())


def _map_numeric(t: str) -> tuple[str, str] | None:
    m = _NUMBER.match(t)
    if m:
        return _map_number(m.group(2), m.group(3)), "ddl.number_type"
    if _FLOAT.match(t):
        # Oracle FLOAT/REAL/DOUBLE PRECISION are decimal NUMBER subtypes, not IEEE floats:
        # numeric keeps their exact decimal arithmetic (0.1 + 0.2 = 0.3 as in Oracle).
        return "numeric", "ddl.number_type"
    return None


def _map_number(precision: str | None, scale: str | None) -> str:
    # Plain NUMBER keeps arbitrary precision: turning it into bigint would truncate fractions.
    if precision is None:
        return "numeric"
    if precision == "*":
        # NUMBER(*,s): 38 digits of precision with scale s.
        return "numeric" if scale is None else f"numeric(38,{int(scale)})"
    p = int(precision)
    s = int(scale) if scale is not None else 0
    if s == 0:
        # An integer of p digits fits the smallest PostgreSQL integer type that holds 10^p - 1.
        if p <= 4:
            return "smallint"
        if p <= 9:
            return "integer"
        if p <= 18:
            return "bigint"
        return f"numeric({p})"
    # Negative scale (rounding to tens/hundreds) and scale > precision are both accepted by
    # PostgreSQL >= 15 with the same rounding meaning as Oracle.
    return f"numeric({p},{s})"


def _map_chars(t: str) -> tuple[str, str] | None:
    m = _CHARS.match(t)
    if not m:
        return None
    base = " ".join(m.group(1).upper().split())
    n = m.group(2)
    # Length semantics: PostgreSQL counts characters; n BYTE is never more than n characters,
    # so every value that fits Oracle fits PostgreSQL.
    if "VAR" in base:
        return (f"varchar({n})" if n else "varchar"), "ddl.varchar2"
    return (f"char({n})" if n else "char(1)"), "ddl.char_type"


def _map_time(t: str) -> tuple[str, str] | None:
    m = _TIMESTAMP.match(t)
    if m:
        frac = m.group(1)
        # Oracle allows up to 9 fractional digits, PostgreSQL 6.
        prec = f"({min(int(frac), 6)})" if frac is not None else ""
        zone = (m.group(2) or "").upper()
        suffix = " with time zone" if "TIME ZONE" in zone else ""
        return f"timestamp{prec}{suffix}", "ddl.timestamp_type"
    if _INTERVAL_YM.match(t):
        return "interval year to month", "ddl.interval_type"
    m = _INTERVAL_DS.match(t)
    if m:
        frac = m.group(1)
        prec = f"({min(int(frac), 6)})" if frac is not None else ""
        return f"interval day to second{prec}", "ddl.interval_type"
    return None


def _map_binary(t: str) -> tuple[str, str] | None:
    if _RAW.match(t):
        return "bytea", "ddl.lob_types"
    return None


def is_mapped(oracle_type: str) -> bool:
    """True when map_type knows this spelling (so an unchanged result means a user type)."""
    t = " ".join(oracle_type.split())
    return any(f(t) is not None for f in (_map_simple, _map_numeric, _map_chars, _map_time, _map_binary))
