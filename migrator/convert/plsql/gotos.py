"""Forward GOTO as PL/pgSQL can say it: leaving a labelled block (rule plsql.goto).

PL/pgSQL has no GOTO, but `EXIT label` leaves any enclosing labelled block, from any depth of
loops, IFs and nested blocks. Oracle's GOTO may only jump to a label in the same or an enclosing
statement list (never into an IF, a loop or a block), so a forward jump — the label after the
GOTO, the common use: skip to the end of a loop body or a block — is exactly this: the
statements from the first one holding a GOTO to the label up to (not including) the labelled
statement are wrapped in a block labelled for the jump, and each `GOTO label` becomes
`EXIT <that block>`. Execution then continues at the labelled statement, as Oracle's does.

A backward GOTO (the label before the jump: a loop written by hand) is not converted; the unit
reports it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from migrator.convert.plsql import ast as A


@dataclass(frozen=True)
class Region:
    start: int  # first statement wrapped
    end: int  # the labelled statement (not wrapped)
    target: str  # the label, lower case
    block: str  # the label of the wrapping block


def gotos_in(node, found: set[str]) -> None:
    """The targets (lower case) of every GOTO in a statement, its branches, bodies and nested
    blocks' handlers; not in nested routines (a GOTO never leaves its routine)."""
    if isinstance(node, A.Goto):
        found.add(node.target.lower())
    elif isinstance(node, (list, tuple)):
        for item in node:
            gotos_in(item, found)
    elif isinstance(node, A.Handler):
        gotos_in(node.body, found)
    elif isinstance(node, A.Block):
        gotos_in(node.body, found)
        gotos_in(node.handlers, found)
    elif isinstance(node, A.Stmt):
        for f in dataclasses.fields(node):
            value = getattr(node, f.name)
            if isinstance(value, (list, tuple, A.Block, A.Stmt)):
                gotos_in(value, found)


def regions(body: list) -> list[Region]:
    """The blocks to wrap in this statement list, outermost only and in order (a region inside
    another is found again when the wrapped statements are emitted)."""
    if not any(getattr(st, "label", None) for st in body):  # no GOTO can land in this list
        return []
    jumps: list[set[str]] = []
    for st in body:
        found: set[str] = set()
        gotos_in(st, found)
        jumps.append(found)
    out: list[Region] = []
    for end in range(len(body) - 1, -1, -1):  # the last label first: later regions are wider
        label = (body[end].label or "").lower()
        start = next((k for k in range(end) if label and label in jumps[k]), None)
        if start is None:
            continue
        inside = next((r for r in out if r.start <= start and end < r.end), None)
        if inside is not None:
            continue  # wrapped by a later label's region: emitted with it
        crossing = next((r for r in out if start < r.start < end), None)
        if crossing is not None:  # a later region starting inside this one: start it here, wrap this
            out[out.index(crossing)] = dataclasses.replace(crossing, start=start)
            continue
        out.append(Region(start, end, label, f"goto_{label}"))
    return sorted(out, key=lambda r: r.start)
