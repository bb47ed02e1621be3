"""Forward GOTO as PL/pgSQL can say it: leaving a labelled block (rule plsql.goto).

PL/pgSQL has no GOTO, but `EXIT label` leaves any enclosing labelled block, from any depth of
loops, IFs and nested blocks. Oracle's GOTO may only jump to a label in the same or an enclosing
statement list (never into an IF, a loop or a block), so a forward jump — the label after the
GOTO, the common use: skip to the end of a loop body or a block — is exactly this: the
statements from the first one holding a GOTO to the label up to (not including) the labelled
statement are wrapped in a block labelled for the jump, and each `GOTO label` becomes
`EXIT <that block>`. Execution then continues at the labelled statement, as Oracle's does.

A backward GOTO (the label before the jump: a loop written by hand) is a loop: the statements
from the labelled one to the last one holding a GOTO to it are wrapped in a labelled `LOOP ...
EXIT; END LOOP`, and each `GOTO label` becomes `CONTINUE <that loop>`, which starts again at the
labelled statement from any depth, as Oracle's jump does. An unlabelled EXIT or CONTINUE among
those statements (outside a loop of their own) would bind to the new loop instead of the loop
Oracle means, and a backward region crossing a forward one has no nesting to write: both stay
reported.
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


def _jumps(body: list) -> list[set[str]]:
    """The GOTO targets each statement of the list holds (in itself or nested in it)."""
    jumps: list[set[str]] = []
    for st in body:
        found: set[str] = set()
        gotos_in(st, found)
        jumps.append(found)
    return jumps


def regions(body: list) -> list[Region]:
    """The blocks to wrap in this statement list, outermost only and in order (a region inside
    another is found again when the wrapped statements are emitted)."""
    if not any(getattr(st, "label", None) for st in body):  # no GOTO can land in this list
        return []
    jumps = _jumps(body)
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


def bare_loop_exits(node) -> bool:
    """Whether an unlabelled EXIT or CONTINUE in these statements leaves a loop around them
    (not one of their own loops)."""
    if isinstance(node, A.Exit):
        return node.target is None
    if isinstance(node, (A.Loop, A.While, A.ForRange, A.ForCursor)):
        return False
    if isinstance(node, (list, tuple)):
        return any(bare_loop_exits(item) for item in node)
    if isinstance(node, A.Handler):
        return bare_loop_exits(node.body)
    if isinstance(node, A.Block):
        return bare_loop_exits(node.body) or bare_loop_exits(node.handlers)
    if isinstance(node, A.Stmt):
        return any(
            bare_loop_exits(getattr(node, f.name))
            for f in dataclasses.fields(node)
            if isinstance(getattr(node, f.name), (list, tuple, A.Block, A.Stmt))
        )
    return False


def back_regions(body: list, forward: list[Region]) -> list[Region]:
    """Backward jumps in this statement list: for each label, the statements from it to the last
    one holding a GOTO to it (`end` is the index after that one), when they can be one loop."""
    if not any(getattr(st, "label", None) for st in body):
        return []
    jumps = _jumps(body)
    out: list[Region] = []
    for start, st in enumerate(body):
        label = (getattr(st, "label", None) or "").lower()
        last = next((k for k in range(len(body) - 1, start - 1, -1) if label and label in jumps[k]), None)
        if last is None:
            continue
        end = last + 1
        if any(not (r.end < start or r.start >= end) for r in out) or any(
            not (r.end < start or r.start >= end or (start <= r.start and r.end < end)) for r in forward
        ):
            continue  # inside a forward region (written when it is) or crossing a region
        if bare_loop_exits(body[start:end]):
            continue
        out.append(Region(start, end, label, f"goto_{label}_again"))
    return out
