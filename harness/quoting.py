"""The one quoting path: every identifier the tool writes into SQL text goes through `quote_ident`,
every string literal through `pg_string`.

Converted code is untrusted input (an export may name a package `"x; COPY ... TO PROGRAM ...; --"`),
so a name is never pasted into SQL as it is. `quote_ident` behaves like PostgreSQL's own
`quote_ident()`: a name that PostgreSQL would read back unchanged without quotes (lower case,
`[a-z_][a-z0-9_$]*`, not a keyword other than an unreserved one) stays bare, so ordinary output
stays readable; anything else is quoted as psycopg's `sql.Identifier` quotes without a connection
(doubled inner quotes).
Code that talks to a server composes statements with `psycopg.sql.Identifier` / `sql.Literal`
directly — the same escaping, applied by the driver.
"""

from __future__ import annotations

import re

from pglast.keywords import COL_NAME_KEYWORDS, RESERVED_KEYWORDS, TYPE_FUNC_NAME_KEYWORDS

_BARE = re.compile(r"[a-z_][a-z0-9_$]*")
# As PostgreSQL's quote_identifier(): every keyword that is not unreserved is quoted, because the
# same name may land in a position (column, type, function) where that keyword class is refused.
_KEYWORDS = frozenset(RESERVED_KEYWORDS) | frozenset(COL_NAME_KEYWORDS) | frozenset(TYPE_FUNC_NAME_KEYWORDS)


class UnsafeName(ValueError):
    """A name PostgreSQL cannot hold at all (a NUL character, or empty)."""


def quote_ident(name: str) -> str:
    """`name` as one PostgreSQL identifier: bare when that reads back unchanged, else quoted."""
    if not name:
        raise UnsafeName("an empty name cannot be an identifier")
    if "\x00" in name:
        raise UnsafeName(f"name {name!r} holds a NUL character, which PostgreSQL cannot store")
    if _BARE.fullmatch(name) and name not in _KEYWORDS:
        return name
    # psycopg's sql.Identifier(name).as_string(None) written out (its connection-less path, the
    # one this used: UTF-8 encoded, inner quotes doubled, quoted): importing psycopg for the first
    # quoted name cost a `migrate --no-deploy` ~0.15 s of CPU, ~5 % of converting a 100-unit code
    # base. encode() is kept for what it refuses (a lone surrogate), as psycopg's encoding did.
    name.encode()
    return '"' + name.replace('"', '""') + '"'


def pg_string(value: str) -> str:
    """`value` as one standard-conforming PostgreSQL string literal (inner quotes doubled). The one
    place literals are quoted, for the converter and the judge alike."""
    return "'" + value.replace("'", "''") + "'"


def qualified(*parts: str) -> str:
    """A dotted name (schema.object, schema.object.column), each part quoted on its own."""
    return ".".join(quote_ident(p) for p in parts)


def comment_text(text: str) -> str:
    """`text` made safe for a `-- ...` comment line: a line break in an untrusted name must not end
    the comment and turn the rest of the name into SQL (control characters become escapes)."""
    return "".join(ch if ch.isprintable() or ch == "\t" else repr(ch)[1:-1] for ch in text)
