"""Oracle types of record fields, so the SQL converter can tell `rec.hire_date` is a DATE (date
arithmetic, TRUNC) as it can for plain variables: fields of records, table %ROWTYPE, cursor
%ROWTYPE and cursor FOR loop records."""

from __future__ import annotations

from collections.abc import Callable

from migrator.convert.plsql.parser import norm_name

_QUERY_END = {
    "WHERE",
    "GROUP",
    "ORDER",
    "CONNECT",
    "START",
    "HAVING",
    "UNION",
    "INTERSECT",
    "MINUS",
    "FOR",
    "FETCH",
    "OFFSET",
    "EXCEPT",
}


def query_fields(toks, columns: Callable[[tuple[str, ...]], dict | None]) -> dict[str, str]:
    """{field: Oracle type} for the select-list items of a cursor query that are plain (possibly
    qualified, possibly aliased) columns of its FROM tables; other items stay untyped."""
    items, tables = _top_level(toks)
    cols: dict[str, dict] = {}
    for name, alias in tables:
        found = columns(name)
        if found:
            cols[alias or name[-1]] = found
    out = {}
    for item in items:
        typed = _item_type(item, cols)
        if typed is not None:
            out[typed[0]] = typed[1]
    return out


def _top_level(toks):
    """Select-list items (token lists) and FROM tables [(name, alias)] at nesting depth 0."""
    items, tables, cur, depth, where = [], [], [], 0, "start"
    for t in toks:
        if t.is_op("("):
            depth += 1
        elif t.is_op(")"):
            depth -= 1
        if depth or t.kind == "op" and t.text in "()":
            if where == "select":
                cur.append(t)
            continue
        if where == "start" and t.is_word("SELECT"):
            where = "select"
        elif where == "select" and t.is_word("FROM"):
            items.append(cur)
            cur, where = [], "from"
        elif where == "select" and t.is_op(","):
            items.append(cur)
            cur = []
        elif where == "select" and not t.is_word("DISTINCT", "UNIQUE", "ALL"):
            cur.append(t)
        elif where == "from":
            if t.kind == "word" and t.upper in _QUERY_END or t.is_word("JOIN", "ON"):
                break
            if t.is_op(","):
                tables.append(cur)
                cur = []
            else:
                cur.append(t)
    if where == "from":
        tables.append(cur)
    return items, [_table(t) for t in tables if t]


def _table(toks) -> tuple[tuple[str, ...], str | None]:
    """(name as plain parts, alias) of one FROM item."""
    words = [norm_name(t) for t in toks if not t.is_op(".")]
    dotted = [t for t in toks if t.is_op(".")]
    n = len(dotted) + 1
    return tuple(words[:n]), (words[n] if len(words) > n else None)


def _item_type(item, cols: dict[str, dict]) -> tuple[str, str] | None:
    words = [t for t in item if not t.is_op(".")]
    if not words or any(t.kind not in ("word", "qident") for t in words):
        return None
    dots = len(item) - len(words)
    expr, rest = words[: dots + 1], words[dots + 1 :]
    if rest and rest[0].is_word("AS"):
        rest = rest[1:]
    if len(rest) > 1 or len(expr) > 2:
        return None
    col = norm_name(expr[-1])
    pools = [cols.get(norm_name(expr[0]), {})] if len(expr) == 2 else list(cols.values())
    for pool in pools:
        if col in pool:
            return (norm_name(rest[0]) if rest else col), pool[col]
    return None
