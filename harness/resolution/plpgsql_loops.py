"""FOR-loop records in a PL/pgSQL body read by pglast: which query gives each its fields.

`FOR r IN SELECT ...` and `FOR r IN cursor(...)` assign a record whose fields are the columns of
that query. When the loop is the record's only assignment (no INTO, FETCH, := or second loop
targets it), `r.field` has the type of that column — and a field the query does not return is a
run-time error ("record r has no field"), found here before anything runs.
"""

from __future__ import annotations


def _statements(node):
    """Every (statement kind, its fields) in a parse_plpgsql JSON tree, depth first."""
    if isinstance(node, list):
        for item in node:
            yield from _statements(item)
        return
    if not isinstance(node, dict):
        return
    for kind, body in node.items():
        if isinstance(body, dict):
            yield kind, body
            for value in body.values():
                yield from _statements(value)


def _record_targets(node, datums: list, found: list[str]) -> None:
    """Names of the records every statement under `node` assigns (INTO, FETCH, loops, :=)."""
    for kind, body in _statements(node):
        for key in ("var", "target"):
            rec = body.get(key, {}).get("PLpgSQL_rec") if isinstance(body.get(key), dict) else None
            if rec is not None:
                found.append(rec.get("refname", ""))
        if kind == "PLpgSQL_stmt_assign" and "PLpgSQL_rec" in datums[body.get("varno", 0)]:
            found.append(datums[body.get("varno", 0)]["PLpgSQL_rec"].get("refname", ""))


def _loop_queries(node, datums: list, out: list[tuple[str, str]]) -> None:
    for kind, body in _statements(node):
        rec = body.get("var", {}).get("PLpgSQL_rec", {}).get("refname") if isinstance(body.get("var"), dict) else None
        if kind == "PLpgSQL_stmt_fors" and rec:
            out.append((rec, body.get("query", {}).get("PLpgSQL_expr", {}).get("query", "")))
        elif kind == "PLpgSQL_stmt_forc" and rec:
            cursor = next(iter(datums[body.get("curvar", 0)].values()))
            out.append((rec, cursor.get("cursor_explicit_expr", {}).get("PLpgSQL_expr", {}).get("query", "")))


def loop_records(tree: dict, typed: set[str]) -> dict[str, str]:
    """Record name -> loop query, for FOR-loop records whose only assignment is their one loop
    and that are declared once without a type of their own (`typed`): their fields are the
    query's columns."""
    datums = tree.get("datums", [])
    targets: list[str] = []
    loops: list[tuple[str, str]] = []
    _record_targets(tree.get("action", {}), datums, targets)
    _loop_queries(tree.get("action", {}), datums, loops)
    declared = [next(iter(d.values())).get("refname") for d in datums]
    return {
        name: query
        for name, query in loops
        if query and targets.count(name) == 1 and declared.count(name) == 1 and name not in typed
    }
