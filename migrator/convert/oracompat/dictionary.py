"""Oracle's data dictionary views (USER_/ALL_/DBA_ TABLES, TAB_COLUMNS, OBJECTS, CONSTRAINTS,
CONS_COLUMNS, INDEXES, IND_COLUMNS, TRIGGERS, SEQUENCES, SOURCE, PROCEDURES, ARGUMENTS,
TAB_COMMENTS, COL_COMMENTS, VIEWS, TYPES, DEPENDENCIES, SYNONYMS) in schema ``oracompat`` over
pg_catalog, with Oracle's column names and upper-case values (`dictionary.sql`). Deployed after the
rest of the library; the preamble records which PostgreSQL schemas are converted packages
(``oracompat.dict_package``) so the views show them as PACKAGE / PACKAGE BODY of their owner.

Converted code finds the views through the search_path (own schema, then ``oracompat``); a
``SYS.``-qualified reference is pointed at ``oracompat`` by the converter (`VIEWS`)."""

from __future__ import annotations

from pathlib import Path

DICTIONARY_SQL: str = Path(__file__).with_name("dictionary.sql").read_text(encoding="utf-8")

_FAMILIES = (
    "TABLES", "TAB_COLUMNS", "OBJECTS", "CONSTRAINTS", "CONS_COLUMNS", "INDEXES", "IND_COLUMNS", "TRIGGERS",
    "SEQUENCES", "SOURCE", "PROCEDURES", "ARGUMENTS", "TAB_COMMENTS", "COL_COMMENTS", "VIEWS", "TYPES",
    "DEPENDENCIES", "SYNONYMS",
)  # fmt: skip
VIEWS: frozenset[str] = frozenset(f"{p}_{f}" for p in ("USER", "ALL", "DBA") for f in _FAMILIES)
"""The dictionary views the library defines, upper-case as Oracle names them."""
