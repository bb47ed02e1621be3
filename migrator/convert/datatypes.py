"""Oracle data types → PostgreSQL types (shared by DDL, PL/SQL declarations and CAST), gated by rule.

The types and their PostgreSQL counterparts are `migrator.oracle_types`; this module adds the
conversion's side: each family has a rule id so a fix cycle can switch it off: when a rule is
disabled the Oracle spelling is returned unchanged (deployment then fails loudly instead of
guessing).
"""

from __future__ import annotations

import re

from harness.quoting import qualified
from migrator.convert.context import ConversionContext
from migrator.convert.oracompat import object_refs
from migrator.oracle_types import Family, is_bounded_integer, parse, postgres_type
from migrator.source.identifiers import fold

# The rule that converts each family (a fix cycle names these ids).
_RULES = {
    Family.DECIMAL: "ddl.number_type",
    Family.PLS_INTEGER: "ddl.plsql_integer",
    Family.BINARY_FLOAT: "ddl.binary_float",
    Family.VARCHAR: "ddl.varchar2",
    Family.CHAR: "ddl.char_type",
    Family.CLOB: "ddl.lob_types",
    Family.BINARY: "ddl.lob_types",
    Family.DATE: "ddl.date_type",
    Family.TIMESTAMP: "ddl.timestamp_type",
    Family.INTERVAL: "ddl.interval_type",
    Family.BOOLEAN: "ddl.boolean_type",
    Family.ROWID: "ddl.rowid_type",
    Family.XML: "ddl.xml_type",
    Family.REF_CURSOR: "ddl.ref_cursor",
}


def map_type(oracle_type: str, ctx: ConversionContext | None = None) -> str:
    """Map one Oracle type spelling (e.g. ``NUMBER(10)``, ``VARCHAR2(30 CHAR)``) to PostgreSQL.

    Unknown names (user-defined types) are returned as their PostgreSQL name, folded and quoted
    like every other name; other unknown spellings (%TYPE references) come back lower-cased:
    callers that know better resolve them first.
    """
    t = " ".join(oracle_type.split())
    parsed = parse(t)
    if parsed is not None:
        pg, rule = postgres_type(parsed), _RULES[parsed.family]
        if ctx is None:
            return pg
        if not ctx.enabled(rule):
            return t
        ctx.applied(rule)
        if is_bounded_integer(parsed) and ctx.enabled("ddl.number_precision"):
            # Oracle refuses a value of more than p digits in a NUMBER(p) column or variable
            # (ORA-01438, ORA-06502); smallint/integer/bigint would hold it. numeric(p) keeps the
            # bound and Oracle's rounding of fractions (benchmarks/bench_number_bounds.py: cost).
            ctx.applied("ddl.number_precision")
            return postgres_type(parsed, bounded=True)
        return pg
    if object_refs.SPELLING.match(t):  # REF t: the referenced object's table and identifier
        if ctx is None:
            return object_refs.PG_TYPE
        if not ctx.enabled("ddl.object_ref"):
            return t
        ctx.applied("ddl.object_ref")
        return object_refs.PG_TYPE
    name = _type_name(t)
    if len(name) == 1 and ctx is not None:
        # a supplied type named through Oracle's public synonym (SDO_GEOMETRY): its owner's
        entry = ctx.catalog.lookup(name[0])
        if entry is not None and (entry.schema, entry.name) in ctx.catalog.supplied:
            return qualified(entry.schema, entry.name)
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


def is_mapped(oracle_type: str) -> bool:
    """True when map_type knows this spelling (so an unchanged result means a user type)."""
    return parse(oracle_type) is not None
