"""Calls into the SQL converter (sqlglot) with a memo and a fast path.

Most PL/SQL expressions are trivial (``v_count + 1``, ``p_id IS NULL``): their PostgreSQL text
equals their Oracle text modulo identifier case, so they skip sqlglot (a big share of the batch
converter's time). Anything with a function call, ``||``, ``/``, ``''``, Oracle pseudo-columns or
date-typed operands goes to `migrator.convert.sql.convert`. Results are memoised per run (`ctx.memo`) and per (text, relevant types)
together with the rule ids / unconverted items they produced, which are replayed on a hit.
"""

from __future__ import annotations

from harness.quoting import quote_ident
from migrator.convert.context import ConversionContext, unconverted_marker
from migrator.convert.sql import convert as sqlrules
from migrator.convert.sql.expression_types import NUMBER, STRING, classify
from migrator.convert.sql.names import ORACLE_RESERVED
from migrator.oracle_types import CHAR_TYPE

_KEYWORDS = {"AND", "OR", "NOT", "IS", "NULL", "TRUE", "FALSE", "IN", "BETWEEN", "LIKE"}
_ORACLE_SPECIAL = {
    "SYSDATE",
    "SYSTIMESTAMP",
    "USER",
    "ROWNUM",
    "LEVEL",
    "UID",
    "ROWID",
    "CURRENT_DATE",
    "CURRENT_TIMESTAMP",
    "LOCALTIMESTAMP",
    "DBTIMEZONE",
    "SESSIONTIMEZONE",
    "ESCAPE",
}
_COMPARE_OPS = {"=", "<", ">", "<=", ">=", "<>", "!=", "^=", "~="}
_MIXING_OPS = _COMPARE_OPS | {"+", "-", "*"}
_FAST_OPS = {"+", "-", "*", "=", "<", ">", "<=", ">=", "<>", "!=", "^=", "~=", "(", ")", ",", "."}


def convert(kind: str, text: str, ctx: ConversionContext, types: dict[str, str]) -> str:
    low = text.lower()
    rel = tuple(sorted((k, v) for k, v in types.items() if k.lower() in low))
    key = (kind, text, rel)
    memo = ctx.memo  # per run: a memo shared across runs would leak one rule set's output into another
    hit = memo.get(key) if memo is not None else None
    if hit is not None:
        out, applied, unconv, notes = hit
        for r in applied:
            ctx.applied(r)
        ctx.unconverted_items.extend(unconv)
        ctx.notes.extend(notes)
        return out
    n_app, n_unc, n_notes = len(ctx.applied_log), len(ctx.unconverted_items), len(ctx.notes)
    fn = sqlrules.convert_expression if kind == "expr" else sqlrules.convert_statement
    try:
        out = fn(text, ctx, types=dict(rel) or None)
    except Exception as exc:  # a crash in the SQL rules must not lose the unit: mark the fragment
        ctx.unconverted("sql " + kind, f"SQL converter failed on {text!r}: {type(exc).__name__}: {exc}")
        return unconverted_marker("sql " + kind, text)
    if memo is None:
        return out
    if len(memo) > 200_000:
        memo.clear()
    # the fragment's own rules in first-application order: replayed, they give a unit the same
    # rules_applied as converting the fragment afresh would
    memo[key] = (
        out,
        tuple(dict.fromkeys(ctx.applied_log[n_app:])),
        tuple(ctx.unconverted_items[n_unc:]),
        tuple(ctx.notes[n_notes:]),
    )
    return out


def fast_text(toks, scope_types: dict[str, str], is_known, ph_types: dict[str, str] | None = None) -> str | None:
    """PostgreSQL text for a trivial expression, or None when sqlglot must see it. `ph_types`:
    the Oracle types of placeholders where known (a collection element, a package variable)."""
    parts: list[str] = []
    n = len(toks)
    kinds: set[str | None] = set()  # of the operands, when the expression compares
    for i, t in enumerate(toks):
        k = t.kind
        if k == "word":
            u = t.text.upper()
            if u in _KEYWORDS:
                parts.append(u)
                continue
            if u in _ORACLE_SPECIAL or u in ORACLE_RESERVED or (i + 1 < n and toks[i + 1].text == "("):
                return None
            low = t.text.lower()
            if i > 0 and toks[i - 1].text == ".":
                field = scope_types.get(f"{toks[i - 2].text.lower()}.{low}", "") if i > 1 else ""
                if field.upper().startswith(("DATE", "TIMESTAMP")):
                    return None  # a date-typed record field: date arithmetic needs the SQL rules
                kinds.add(classify(field) if field else None)
                parts.append(quote_ident(low))  # as the SQL converter would write it (emp# → "emp#")
                continue
            ora = scope_types.get(low, "").upper()
            if not is_known(low) or ora.startswith(("DATE", "TIMESTAMP")) or CHAR_TYPE.match(ora):
                return None  # date arithmetic, CHAR comparisons: the SQL rules must see them
            kinds.add(classify(scope_types.get(low)))
            parts.append(quote_ident(low))
        elif k == "number":
            if not t.text[-1].isdigit() and t.text[-1] != ".":
                return None
            kinds.add(NUMBER)
            parts.append(t.text)
        elif k == "string":
            if t.text == "''" or not t.text.startswith("'"):
                return None
            parts.append(t.text)
        elif k == "ph":
            if ph_types and t.text in ph_types:
                kinds.add(classify(ph_types[t.text]))
            parts.append(t.text)
        elif k == "op" and t.text in _FAST_OPS:
            parts.append("<>" if t.text in ("!=", "^=", "~=") else t.text)
        else:
            return None
    if STRING in kinds and NUMBER in kinds and any(t.kind == "op" and t.text in _MIXING_OPS for t in toks):
        # a string compared with, or in arithmetic with, a number: the SQL rules convert it
        # (expr.implicit_from_text); PostgreSQL has no varchar + integer
        return None
    if None in kinds and any(
        t.kind == "word" and t.text.upper() == "IS" and toks[k + 1].text.upper() == "NOT"
        for k, t in enumerate(toks[:-1])
    ):
        return None  # `obj IS NOT NULL` of an object: sqlglot writes NOT (obj IS NULL), Oracle's test, not the row's
    return join(parts)


def join(parts: list[str]) -> str:
    out: list[str] = []
    for p in parts:
        if out and p not in (",", ")", ".") and out[-1] not in ("(", "."):
            out.append(" ")
        out.append(p)
    return "".join(out)
