"""Where the statement emitters write: lines of PL/pgSQL at the current indentation.

`Out` owns the indentation (one level is `IND`), so an emitter writes `out.line("END IF;")` and
nests with `with out.indented():` instead of passing an indent string down every call; and it
owns the quoting of identifiers (`out.ident`) and literals (`out.literal`), as pglast's output
stream does, so an emitter never spells quotes itself. Some constructs decide what encloses a
body only after the body is written (a handler that reads SQLERRM is wrapped in a block fetching
its diagnostics; an empty branch gets NULL): `aside()` collects what is written in its `with`
for the caller to `place()` afterwards, deeper when it wraps the lines in a new level.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager

from harness.quoting import pg_string, quote_ident

IND = "    "


class Out:
    def __init__(self) -> None:
        self.lines: list[str] = []
        self.indent = ""  # the current indentation: `IND` per level

    def line(self, text: str) -> None:
        """One line at the current indentation."""
        self.lines.append(self.indent + text)

    def each(self, texts: Iterable[str]) -> None:
        """Each text one line at the current indentation."""
        self.lines.extend(self.indent + text for text in texts)

    @contextmanager
    def indented(self, levels: int = 1) -> Iterator[None]:
        """The lines written inside the `with` stand `levels` deeper."""
        outer = self.indent
        self.indent = outer + IND * levels
        try:
            yield
        finally:
            self.indent = outer

    @contextmanager
    def aside(self) -> Iterator[list[str]]:
        """The lines written inside the `with` go into the list it gives (at the indentation they
        were written at), not into the output; the caller places them once it knows what
        surrounds them."""
        outer, self.lines = self.lines, []
        try:
            yield self.lines
        finally:
            self.lines = outer

    def place(self, lines: list[str], deeper: int = 0) -> None:
        """Lines from `aside`, added as they are or moved `deeper` levels in."""
        prefix = IND * deeper
        self.lines.extend(prefix + line for line in lines)

    @staticmethod
    def ident(name: str) -> str:
        return quote_ident(name)

    @staticmethod
    def literal(text: str) -> str:
        return pg_string(text)
