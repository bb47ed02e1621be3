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
    """The helper `suffix` of `owner`, as (schema, name)."""
    if len(owner) == 1:
        return owner[0], suffix
    return owner[0], f"{owner[-1]}__{suffix}"


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
