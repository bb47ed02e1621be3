"""Oracle's built-in data types: their families, a parser of a type spelling, and the PostgreSQL type
each one becomes.

The one place that names Oracle types. Reading (`source/oracle_names.py`: names that are never
missing references), conversion (`convert/datatypes.py`: the rule-gated mapping;
`convert/sql/expression_types.py`: an operand's kind; `convert/signatures.py`: overload
resolution) and evidence (`evidence/targets.py`: a parameter's value family; `evidence/seed_rows.py`:
the largest value of a column) all ask this module, so that they agree on what STRING, DEC or
NATIONAL CHARACTER VARYING is.

`parse` reads a spelling as Oracle source and exports write it (``NUMBER(10,2)``,
``VARCHAR2(30 CHAR)``, ``TIMESTAMP(3) WITH LOCAL TIME ZONE``, ``INTERVAL DAY(4)TO SECOND(3)``)
into an `OracleType`; `postgres_type` maps that record. A name that is no built-in type (a user
type, a ``%TYPE`` anchor) parses to None. This module imports nothing of `migrator`'s packages,
so any of them can import it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum
from types import MappingProxyType
from typing import Literal


class Family(Enum):
    """What a built-in type holds; each family is converted by one rule."""

    DECIMAL = "decimal"  # NUMBER and its ANSI spellings (INTEGER, FLOAT ...): exact decimal numbers
    PLS_INTEGER = "pls_integer"  # PL/SQL's 32-bit integer and its subtypes (NATURAL, POSITIVE ...)
    BINARY_FLOAT = "binary_float"  # IEEE 754 floats
    VARCHAR = "varchar"  # variable-length character strings
    CHAR = "char"  # fixed-length, blank-padded character strings
    CLOB = "clob"  # character large objects and LONG
    BINARY = "binary"  # RAW, LONG RAW, BLOB, BFILE
    DATE = "date"  # a date with a time of day to the second
    TIMESTAMP = "timestamp"  # with fractional seconds, optionally a time zone
    INTERVAL = "interval"  # YEAR TO MONTH or DAY TO SECOND
    BOOLEAN = "boolean"
    ROWID = "rowid"
    XML = "xml"
    REF_CURSOR = "ref_cursor"


# Every built-in type's first word (what a declaration starts with) and its family. Multi-word
# spellings (DOUBLE PRECISION, LONG RAW, CHARACTER VARYING, NATIONAL CHAR ...) are read by `parse`.
NAMES: dict[str, Family] = {
    **dict.fromkeys(
        ("NUMBER", "NUMERIC", "DECIMAL", "DEC", "INTEGER", "INT", "SMALLINT", "FLOAT", "REAL", "DOUBLE"),
        Family.DECIMAL,
    ),
    **dict.fromkeys(
        ("PLS_INTEGER", "BINARY_INTEGER", "SIMPLE_INTEGER", "NATURAL", "NATURALN", "POSITIVE", "POSITIVEN", "SIGNTYPE"),
        Family.PLS_INTEGER,
    ),
    **dict.fromkeys(("BINARY_FLOAT", "BINARY_DOUBLE"), Family.BINARY_FLOAT),
    # STRING is PL/SQL's subtype of VARCHAR2
    **dict.fromkeys(("VARCHAR2", "VARCHAR", "NVARCHAR2", "STRING"), Family.VARCHAR),
    **dict.fromkeys(("CHAR", "NCHAR", "CHARACTER"), Family.CHAR),
    **dict.fromkeys(("CLOB", "NCLOB", "LONG"), Family.CLOB),
    **dict.fromkeys(("RAW", "BLOB", "BFILE"), Family.BINARY),
    "DATE": Family.DATE,
    "TIMESTAMP": Family.TIMESTAMP,
    "INTERVAL": Family.INTERVAL,
    "BOOLEAN": Family.BOOLEAN,
    **dict.fromkeys(("ROWID", "UROWID"), Family.ROWID),
    "XMLTYPE": Family.XML,
    "SYS_REFCURSOR": Family.REF_CURSOR,
}


def names(*families: Family) -> frozenset[str]:
    """The first words of the types of these families."""
    return frozenset(n for n, f in NAMES.items() if f in families)


NUMBER_NAMES = names(Family.DECIMAL, Family.PLS_INTEGER, Family.BINARY_FLOAT)
TEXT_NAMES = names(Family.VARCHAR, Family.CHAR, Family.CLOB)
DATETIME_NAMES = names(Family.DATE, Family.TIMESTAMP)
# The NUMBER spellings with a free precision and scale (INTEGER and FLOAT fix one of them).
NUMBER_SPELLINGS = frozenset({"NUMBER", "NUMERIC", "DECIMAL", "DEC"})
# A fixed-length CHAR declaration in the upper case the PL/SQL tree keeps (no VARYING form).
CHAR_TYPE = re.compile(r"^(N?CHAR|CHARACTER|NATIONAL\s+CHAR(ACTER)?)\s*(\(\s*\d+\s*(BYTE|CHAR)?\s*\))?$")

# The types of a package's static constants that conditional compilation reads ($IF pkg.c ...).
STATIC_CONSTANT_NAMES = frozenset(
    {"BOOLEAN", "PLS_INTEGER", "BINARY_INTEGER", "INTEGER", "NATURAL", "POSITIVE", "SIMPLE_INTEGER", "NUMBER"}
)
# Types a parameter may leave unsized that a variable declaration must give a length.
# PL/SQL's constrained integer subtypes → the oracompat range domain that keeps their range
# (rule plsql.number_range); read-only view
RANGED_SUBTYPES = MappingProxyType(
    {"POSITIVE": "oracompat.positive", "POSITIVEN": "oracompat.positive", "NATURAL": "oracompat.natural",
     "NATURALN": "oracompat.natural", "SIGNTYPE": "oracompat.signtype"}
)  # fmt: skip
LENGTH_NAMES = frozenset({"VARCHAR2", "VARCHAR", "NVARCHAR2", "CHAR", "NCHAR", "STRING", "RAW"})
# SQL*Loader's numeric field datatypes (a control file's `amount INTEGER EXTERNAL`): its own
# vocabulary, not SQL types, read by migrator/data/sqlldr.py.
SQLLDR_NUMBER_FIELDS = frozenset({"INTEGER", "DECIMAL", "FLOAT", "ZONED"})

Zone = Literal["TIME ZONE", "LOCAL TIME ZONE"]


@dataclass(frozen=True)
class OracleType:
    """One built-in type as written, e.g. ``VARCHAR2(30 CHAR)`` → name VARCHAR2, length 30, CHAR."""

    name: str  # the base spelling, upper case, single blanks: VARCHAR2, LONG RAW, INTERVAL DAY TO SECOND
    family: Family
    length: int | None = None  # VARCHAR2(n), CHAR(n), RAW(n)
    semantics: Literal["BYTE", "CHAR"] | None = None  # VARCHAR2(n BYTE | n CHAR), as written
    precision: int | Literal["*"] | None = None  # NUMBER(p, s), NUMBER(*, s), FLOAT(p)
    scale: int | None = None
    fraction: int | None = None  # TIMESTAMP(n), INTERVAL DAY TO SECOND(n): fractional-second digits
    zone: Zone | None = None  # TIMESTAMP WITH [LOCAL] TIME ZONE
    leading: int | None = None  # INTERVAL YEAR(n) / DAY(n): digits of the leading field


_NUMBER = re.compile(r"^(NUMBER|NUMERIC|DECIMAL|DEC)\s*(?:\(\s*(\*|\d+)\s*(?:,\s*(-?\d+)\s*)?\))?$", re.I)
_CHARS = re.compile(
    r"^(VARCHAR2|NVARCHAR2|VARCHAR|CHARACTER\s+VARYING|CHAR\s+VARYING|NCHAR\s+VARYING"
    r"|NATIONAL\s+CHARACTER\s+VARYING|CHARACTER|CHAR|NCHAR|NATIONAL\s+CHARACTER|NATIONAL\s+CHAR)"
    r"\s*(?:\(\s*(\d+)\s*(BYTE|CHAR)?\s*\))?$",
    re.I,
)
_TIMESTAMP = re.compile(r"^TIMESTAMP\s*(?:\(\s*(\d+)\s*\))?\s*(WITH\s+LOCAL\s+TIME\s+ZONE|WITH\s+TIME\s+ZONE)?$", re.I)
# (the spelling may come from tokens: "DAY(4)TO SECOND" has no blank after the parenthesis)
_INTERVAL_YM = re.compile(r"^INTERVAL\s+YEAR\s*(?:\(\s*(\d+)\s*\)\s*|\s)TO\s+MONTH$", re.I)
_INTERVAL_DS = re.compile(r"^INTERVAL\s+DAY\s*(?:\(\s*(\d+)\s*\)\s*|\s)TO\s+SECOND\s*(?:\(\s*(\d+)\s*\))?$", re.I)
# RAW without a size: a PL/SQL parameter or return type
_BINARY = re.compile(r"^(RAW|LONG\s+RAW|BLOB|BFILE)\s*(?:\(\s*(\d+)\s*\))?$", re.I)
_FLOAT = re.compile(r"^(FLOAT|REAL|DOUBLE\s+PRECISION)\s*(?:\(\s*(\d+)\s*\))?$", re.I)
# Spellings with no modifiers: the family comes from NAMES (SYS.XMLTYPE is the schema-qualified name).
_PLAIN = frozenset(
    {"DATE", "CLOB", "NCLOB", "LONG", "BINARY_FLOAT", "BINARY_DOUBLE", "XMLTYPE", "ROWID", "UROWID", "BOOLEAN"}
    | {"INTEGER", "INT", "SMALLINT", "SYS_REFCURSOR"}
    | names(Family.PLS_INTEGER)
)


def _word(text: str | None) -> str:
    return " ".join((text or "").upper().split())


def _int(text: str | None) -> int | None:
    return int(text) if text is not None else None


def parse(spelling: str) -> OracleType | None:
    """The built-in type a spelling names, or None (a user type, a ``%TYPE`` anchor). Case and
    blanks as written do not matter. STRING (PL/SQL's VARCHAR2 subtype) is a VARCHAR name in
    NAMES but is not read here: the conversion has never mapped it, and mapping it would change
    the output of code that declares it."""
    t = " ".join(spelling.split())
    upper = t.upper()
    if upper in _PLAIN:
        return OracleType(upper, NAMES[upper])
    if upper == "SYS.XMLTYPE":
        return OracleType(upper, Family.XML)
    if m := _NUMBER.match(t):
        scale = _int(m.group(3))
        precision: int | Literal["*"] | None = "*" if m.group(2) == "*" else _int(m.group(2))
        return OracleType(m.group(1).upper(), Family.DECIMAL, precision=precision, scale=scale)
    if m := _FLOAT.match(t):
        if m.group(2) is not None and m.group(1).upper() != "FLOAT":
            return None  # REAL and DOUBLE PRECISION take no precision
        return OracleType(_word(m.group(1)), Family.DECIMAL, precision=_int(m.group(2)))
    if m := _CHARS.match(t):
        base = _word(m.group(1))
        semantics: Literal["BYTE", "CHAR"] | None = "BYTE" if _word(m.group(3)) == "BYTE" else None
        if _word(m.group(3)) == "CHAR":
            semantics = "CHAR"
        family = Family.VARCHAR if "VAR" in base else Family.CHAR
        return OracleType(base, family, length=_int(m.group(2)), semantics=semantics)
    if m := _TIMESTAMP.match(t):
        zone_words = _word(m.group(2))
        zone: Zone | None = None
        if zone_words:
            zone = "LOCAL TIME ZONE" if "LOCAL" in zone_words else "TIME ZONE"
        return OracleType("TIMESTAMP", Family.TIMESTAMP, fraction=_int(m.group(1)), zone=zone)
    if m := _INTERVAL_YM.match(t):
        return OracleType("INTERVAL YEAR TO MONTH", Family.INTERVAL, leading=_int(m.group(1)))
    if m := _INTERVAL_DS.match(t):
        return OracleType(
            "INTERVAL DAY TO SECOND", Family.INTERVAL, leading=_int(m.group(1)), fraction=_int(m.group(2))
        )
    if m := _BINARY.match(t):
        base = _word(m.group(1))
        if m.group(2) is not None and base != "RAW":
            return None  # only RAW takes a size
        return OracleType(base, Family.BINARY, length=_int(m.group(2)))
    return None


# ---- predicates -----------------------------------------------------------------------------------
def first_word(spelling: str) -> str:
    """The type's first word, upper case (``VARCHAR2(30)`` → VARCHAR2, ``LONG RAW`` → LONG)."""
    words = spelling.replace("(", " ").split()
    return words[0].upper() if words else ""


def family_of_word(word: str) -> Family | None:
    """The family of a type's first word (upper case), None for a user type."""
    return NAMES.get(word)


def is_clob(spelling: str | None) -> bool:
    """A CLOB/NCLOB (Oracle binds it to a CLOB overload before a VARCHAR2 one, and text that is
    not one the other way round)."""
    return spelling is not None and spelling.strip().upper() in ("CLOB", "NCLOB")


# Oracle types a scalar argument (text, number, datetime) never converts to implicitly: a call
# with one cannot bind to such a parameter (PLS-00306). RAW and BLOB take text (as hex).
_NO_SCALAR = re.compile(r"^(BOOLEAN|XMLTYPE|SYS\.XMLTYPE|SYS_REFCURSOR|BFILE|ANYDATA|ROWID|UROWID)$")
_FROM_TEXT_ONLY = re.compile(r"^(RAW|LONG\s+RAW|BLOB)\b")


def takes_no_scalar(spelling: str) -> bool:
    """No scalar argument converts to this type (`spelling` upper case, single blanks)."""
    return _NO_SCALAR.match(spelling) is not None


def takes_text_only(spelling: str) -> bool:
    """Of the scalars only text converts to this binary type (as hex digits)."""
    return _FROM_TEXT_ONLY.match(spelling) is not None


# ---- PostgreSQL ---------------------------------------------------------------------------------
_PLAIN_PG = {
    "DATE": "timestamp(0)",  # Oracle DATE carries a time of day (to seconds)
    "CLOB": "text",
    "NCLOB": "text",
    "LONG": "text",
    "BINARY_FLOAT": "real",
    "BINARY_DOUBLE": "double precision",
    "XMLTYPE": "xml",
    "SYS.XMLTYPE": "xml",
    # ROWID values are opaque strings; PostgreSQL's ctid is not stable across updates.
    "ROWID": "text",
    "UROWID": "text",
    "BOOLEAN": "boolean",
    # Oracle INTEGER/INT/SMALLINT are all NUMBER(38): a 32-bit integer could overflow.
    "INTEGER": "numeric(38)",
    "INT": "numeric(38)",
    "SMALLINT": "numeric(38)",
    "SYS_REFCURSOR": "refcursor",
}


def postgres_type(t: OracleType, bounded: bool = False) -> str:
    """The PostgreSQL type that holds every value of `t` with Oracle's meaning.

    `bounded`: an integer NUMBER(p) / NUMBER(p,0) keeps its precision as numeric(p), so a value
    of more than p digits raises (Oracle's ORA-01438 / ORA-06502) instead of fitting the wider
    smallint/integer/bigint (see `is_bounded_integer`)."""
    if t.name in _PLAIN_PG:
        return _PLAIN_PG[t.name]
    if t.family is Family.PLS_INTEGER:
        # PL/SQL integer subtypes are 32-bit (their range/NOT NULL subtype constraints are not kept).
        return "smallint" if t.name == "SIGNTYPE" else "integer"
    if t.family is Family.DECIMAL:
        if t.name in NUMBER_SPELLINGS:
            return _number(t.precision, t.scale, bounded)
        # Oracle FLOAT/REAL/DOUBLE PRECISION are decimal NUMBER subtypes, not IEEE floats:
        # numeric keeps their exact decimal arithmetic (0.1 + 0.2 = 0.3 as in Oracle).
        return "numeric"
    if t.family is Family.VARCHAR:
        # Length semantics: PostgreSQL counts characters; n BYTE is never more than n characters,
        # so every value that fits Oracle fits PostgreSQL.
        return f"varchar({t.length})" if t.length is not None else "varchar"
    if t.family is Family.CHAR:
        return f"char({t.length})" if t.length is not None else "char(1)"
    if t.family is Family.TIMESTAMP:
        # Oracle allows up to 9 fractional digits, PostgreSQL 6.
        prec = f"({min(t.fraction, 6)})" if t.fraction is not None else ""
        return f"timestamp{prec}{' with time zone' if t.zone else ''}"
    if t.name == "INTERVAL YEAR TO MONTH":
        return "interval year to month"
    if t.name == "INTERVAL DAY TO SECOND":
        prec = f"({min(t.fraction, 6)})" if t.fraction is not None else ""
        return f"interval day to second{prec}"
    if t.name == "BFILE":  # a locator of a server file (directory, file name), not its bytes
        return "oracompat.bfile"
    if t.family is Family.BINARY:
        return "bytea"
    raise ValueError(f"no PostgreSQL type for {t}")


def is_bounded_integer(t: OracleType) -> bool:
    """NUMBER(p) / NUMBER(p,0) whose unbounded mapping is a PostgreSQL integer type wider than p
    digits (p <= 18): the types the ``bounded`` mapping of `postgres_type` changes."""
    return (
        t.family is Family.DECIMAL
        and t.name in NUMBER_SPELLINGS
        and isinstance(t.precision, int)
        and t.precision <= 18
        and not t.scale
    )


def _number(precision: int | Literal["*"] | None, scale: int | None, bounded: bool = False) -> str:
    # Plain NUMBER keeps arbitrary precision: turning it into bigint would truncate fractions.
    if precision is None:
        return "numeric"
    if precision == "*":
        # NUMBER(*,s): 38 digits of precision with scale s.
        return "numeric" if scale is None else f"numeric(38,{scale})"
    s = scale if scale is not None else 0
    if s == 0 and bounded:
        return f"numeric({precision})"
    if s == 0:
        # An integer of p digits fits the smallest PostgreSQL integer type that holds 10^p - 1.
        if precision <= 4:
            return "smallint"
        if precision <= 9:
            return "integer"
        if precision <= 18:
            return "bigint"
        return f"numeric({precision})"
    # Negative scale (rounding to tens/hundreds) and scale > precision are both accepted by
    # PostgreSQL >= 15 with the same rounding meaning as Oracle.
    return f"numeric({precision},{s})"
