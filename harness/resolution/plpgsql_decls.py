"""The DECLARE sections of a PL/pgSQL body, read with PostgreSQL's own scanner (pglast).

`pglast.parse_plpgsql` (libpg_query) parses bodies without a catalog, so it keeps no type name for
record-like variables, rejects field access on `%ROWTYPE` variables and on composite types outside
`pg_catalog`/`public` ("LookupExplicitNamespace only supports pg_catalog and public"), and drops
`ALIAS FOR` declarations. The reference resolver needs all three: each declared name with its
declared type text (resolved later against the real catalog), and a copy of the body whose
problematic declared types are replaced by `record`/`text` so that libpg_query can parse it. The
scanner does the tokenising (strings, dollar quotes, comments, quoted names); this module only
walks tokens between `DECLARE` and the block's `BEGIN`.
"""

from __future__ import annotations

from dataclasses import dataclass

from pglast.parser import scan

# Tokens that end a declaration's type (what may follow it in PL/pgSQL's decl_statement).
_TYPE_END = {"COLLATE", "NOT", "DEFAULT", "COLON_EQUALS", "ASCII_61", "ASCII_59"}


@dataclass(frozen=True)
class Declaration:
    name: str  # folded as PostgreSQL folds it
    line: int  # 1-based line within the body, as PL/pgSQL numbers lines (libpg_query's lineno)
    kind: str  # "var" | "alias" | "cursor"
    type_text: str = ""  # the declared type as written (var); the aliased name (alias)
    type_span: tuple[int, int] | None = None  # character span of the type text in the body


def fold_name(text: str) -> str:
    """An identifier as PostgreSQL stores it: quoted names verbatim, others lower-cased."""
    if text.startswith('"') and text.endswith('"') and len(text) >= 2:
        return text[1:-1].replace('""', '"')
    return text.lower()


def _statements(body: str) -> list[list]:
    """Token lists of the declarations in every DECLARE section (paren depth 0, split at ';')."""
    out: list[list] = []
    current: list = []
    depth, declaring = 0, False
    for tok in scan(body):
        if tok.name == "DECLARE" and depth == 0:
            declaring, current = True, []
            continue
        if not declaring:
            continue
        if tok.name == "ASCII_40":
            depth += 1
        elif tok.name == "ASCII_41":
            depth -= 1
        elif depth == 0 and tok.name == "BEGIN_P":
            declaring = False
            continue
        elif depth == 0 and tok.name == "ASCII_59":
            if current:
                out.append(current)
            current = []
            continue
        current.append(tok)
    return out


def _declaration(body: str, toks: list) -> Declaration | None:
    text = [body[t.start : t.end + 1] for t in toks]
    name, line = fold_name(text[0]), body.count("\n", 0, toks[0].start) + 1
    i = 1
    if i < len(toks) and text[i].upper() == "CONSTANT":
        i += 1
    if i >= len(toks):
        return None
    word = text[i].upper()
    if word == "ALIAS" and i + 2 < len(toks) and text[i + 1].upper() == "FOR":
        return Declaration(name, line, "alias", text[i + 2])
    if word in ("CURSOR", "SCROLL", "NO"):
        return Declaration(name, line, "cursor", "refcursor")
    j = i
    while j < len(toks) and toks[j].name not in _TYPE_END:
        j += 1
    if j == i:
        return None
    span = (toks[i].start, toks[j - 1].end + 1)
    return Declaration(name, line, "var", body[span[0] : span[1]], span)


def declarations(body: str) -> list[Declaration]:
    """Every declaration of every DECLARE section, in order. A body the scanner cannot read
    yields none (the caller then has only what libpg_query reports)."""
    try:
        statements = _statements(body)
    except Exception:  # pglast raises its own error types for unterminated strings and the like
        return []
    return [d for d in (_declaration(body, toks) for toks in statements) if d is not None]


def rewrite_types(body: str, replacements: dict[tuple[int, int], str]) -> str:
    """The body with each type span replaced (line numbers kept: a replaced span's newlines stay)."""
    out, last = [], 0
    for (start, end), new in sorted(replacements.items()):
        out += [body[last:start], new, "\n" * body.count("\n", start, end)]
        last = end
    out.append(body[last:])
    return "".join(out)
