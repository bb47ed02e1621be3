"""Oracle data types → PostgreSQL types (shared by DDL, PL/SQL declarations and CAST)."""

from __future__ import annotations

import re

from migrator.rules.context import ConversionContext

_NUMBER = re.compile(r"^\s*(NUMBER|NUMERIC|DECIMAL)\s*(?:\(\s*(\*|\d+)\s*(?:,\s*(-?\d+)\s*)?\))?\s*$", re.I)


def map_type(oracle_type: str, ctx: ConversionContext | None = None) -> str:
    """Map one Oracle type spelling (e.g. ``NUMBER(10)``, ``VARCHAR2(30 CHAR)``) to PostgreSQL.

    Unknown names (user-defined types, %TYPE references) are returned unchanged (lower-cased):
    callers that know better resolve them first.
    """
    t = oracle_type.strip()
    m = _NUMBER.match(t)
    if m:
        return _map_number(m.group(2), m.group(3))
    upper = t.upper()
    base = upper.split("(", 1)[0].strip()
    args = t[len(t.split("(", 1)[0]):].strip()
    if base in ("VARCHAR2", "NVARCHAR2", "VARCHAR"):
        n = re.sub(r"\s+(CHAR|BYTE)\s*\)", ")", args, flags=re.I)
        return f"varchar{n}" if n else "varchar"
    if base in ("CHAR", "NCHAR"):
        n = re.sub(r"\s+(CHAR|BYTE)\s*\)", ")", args, flags=re.I)
        return f"char{n}" if n else "char(1)"
    if base == "DATE":
        return "timestamp(0)"
    if base.startswith("TIMESTAMP"):
        return t.lower().replace("with local time zone", "with time zone")
    if base in ("CLOB", "NCLOB", "LONG"):
        return "text"
    if base in ("BLOB", "RAW", "LONG RAW", "BFILE"):
        return "bytea"
    if base in ("PLS_INTEGER", "BINARY_INTEGER", "SIMPLE_INTEGER", "NATURAL", "POSITIVE"):
        return "integer"
    if base == "INTEGER" or base == "INT" or base == "SMALLINT":
        return "numeric(38)" if base != "SMALLINT" else "smallint"
    if base == "BINARY_FLOAT":
        return "real"
    if base in ("BINARY_DOUBLE", "FLOAT"):
        return "double precision"
    if base == "BOOLEAN":
        return "boolean"
    if base == "ROWID" or base == "UROWID":
        return "text"
    return t.lower()


def _map_number(precision: str | None, scale: str | None) -> str:
    # Plain NUMBER keeps arbitrary precision: turning it into bigint would truncate fractions.
    if precision is None or precision == "*":
        return "numeric" if scale in (None, "0") or precision is None else f"numeric(38,{scale})"
    p = int(precision)
    s = int(scale) if scale is not None else 0
    if s == 0:
        if p <= 4:
            return "smallint"
        if p <= 9:
            return "integer"
        if p <= 18:
            return "bigint"
        return f"numeric({p})"
    if s < 0:
        return f"numeric({p - s})"
    return f"numeric({p},{s})"
