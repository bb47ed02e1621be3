"""How far the current batch run has got: what an interruption (Ctrl-C) reports as kept.

One run per process (the command line's): `migrate` starts it, conversion counts each unit as it
is journalled (or taken from the journal on --resume). A unit in the journal is never redone by
`--resume`, so that is what an interrupted run has kept.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class RunProgress:
    total: int | None = None  # units of the schema, once it is read and ordered
    kept: int = 0  # units converted and journalled


CURRENT = RunProgress()


def start() -> RunProgress:
    """A new run: nothing known yet."""
    CURRENT.total, CURRENT.kept = None, 0
    return CURRENT


def interrupted_line() -> str:
    """The one line an interrupted `migrate` prints."""
    if CURRENT.total is None:
        return "interrupted before any unit was converted; 0 units kept; rerun with --resume"
    return f"interrupted; {CURRENT.kept} of {CURRENT.total} units kept; rerun with --resume"
