"""``REF t`` (Oracle's reference to a row object) as the composite ``oracompat.object_ref`` (the
object's table and identifier: `object_refs.sql`), the type an object attribute, a column, a
collection element or a variable declared ``REF t`` gets (rule ddl.object_ref).

Why a (table, identifier) pair: an Oracle REF is opaque and names both (a system OID or the
primary key of the object table or view it points into); holding both keeps a stored reference
whole and comparable, and leaves room for DEREF to find the row. What makes or follows a
reference (REF(alias), MAKE_REF, DEREF, ``r.attribute``) needs object tables with object
identifiers, which this library does not create: those are reported, never guessed."""

from __future__ import annotations

import re
from pathlib import Path

OBJECT_REFS_SQL: str = Path(__file__).with_name("object_refs.sql").read_text(encoding="utf-8")

PG_TYPE = "oracompat.object_ref"
# `REF [schema.]type`, as a type spelling (an attribute's, a column's, a collection element's)
SPELLING = re.compile(r'^\s*REF\s+("(?:[^"]|"")*"|[^\W\d][\w$#]*)(\s*\.\s*("(?:[^"]|"")*"|[^\W\d][\w$#]*))?\s*$', re.I)
