"""Names the converter derives for helper objects: lifted nested routines, record types, cursor
row views, autonomous-transaction bodies, trigger functions, package state accessors.

A helper is named after its owner — the routine, trigger or package whose code needs it — as
plain parts: ("hr", "pay") owns ("hr", "pay__rec"); a package-level declaration is owned by the
package schema alone, ("pkg",), and its helper is ("pkg", "rec"). The plain name is derived
first and the whole result quoted once when written (`sql`), so `"My Proc"` owns
`"My Proc__rec"`, never `"My Proc"__rec`.
"""

from __future__ import annotations

import hashlib
import re

from harness.quoting import qualified, quote_ident
from migrator.convert.plsql.parser import norm_name
from migrator.source.identifiers import oracle_text
from migrator.source.lexer import Token

Owner = tuple[str, ...]


def derived(owner: Owner, suffix: str) -> tuple[str, str]:
    """The helper `suffix` of `owner`, as (schema, name). A name longer than PostgreSQL keeps
    (63 bytes) is shortened here, with a hash of the whole name: PostgreSQL would cut it to its
    first 63 bytes, and two helpers whose names differ only after them (nested routines of one
    long-named method) would become one, the second definition replacing the first."""
    if len(owner) == 1:  # a package's own member or type: its Oracle name, as every unit spells it
        return owner[0], suffix
    return owner[0], short_name(f"{owner[-1]}__{suffix}")


_NAME_BYTES = 63  # PostgreSQL's NAMEDATALEN - 1
_SHORT_BYTES = 44  # kept of a shortened name: with "_" and 8 hex digits, 53 bytes, so that the
# suffixes added to a derived name (__proc, __out, __size, set__) still fit


def short_name(name: str) -> str:
    """`name` as is when PostgreSQL keeps it whole; else its first bytes and a hash of it all."""
    raw = name.encode()
    if len(raw) <= _NAME_BYTES:
        return name
    head = raw[:_SHORT_BYTES].decode(errors="ignore")
    return f"{head}_{hashlib.sha256(raw).hexdigest()[:8]}"


def sql(parts: tuple[str, ...]) -> str:
    """A name as PostgreSQL text, each part quoted on its own."""
    return qualified(*parts)


def oracle_tokens(parts) -> list[Token]:
    """Tokens spelling a (dotted) name the way Oracle source would, for token lists that are
    resolved or handed to the SQL converter again (which folds them back to the same parts)."""
    out: list[Token] = []
    for k, part in enumerate(parts):
        if k:
            out.append(Token("op", ".", 0, 0))
        text = oracle_text(part)
        out.append(Token("qident" if text.startswith('"') else "word", text, 0, 0))
    return out


def target_text(toks) -> str:
    """PL/pgSQL text of the tail of an assignment target (`.field`, `(1).field`): names quoted as
    PostgreSQL needs, other tokens as written."""
    return "".join(quote_ident(norm_name(t)) if t.kind in ("word", "qident") else t.text for t in toks)


def label(owner: Owner) -> str:
    """The owner as one string, for messages and for hashing into a SQLSTATE (not SQL text)."""
    return ".".join(owner)


def key_part(name: str) -> str:
    """`name` reduced to [a-z0-9_] for a key; a name that changes in the reduction gets a hash of
    its exact text, so two names that reduce alike ("a b", "a_b") never share a key."""
    clean = re.sub(r"[^a-z0-9_]", "_", name.lower())
    if clean == name:
        return clean
    return f"{clean}_{hashlib.md5(name.encode()).hexdigest()[:8]}"
