"""Convert units on every core, results in the original order.

Units convert independently once the catalog is built (conversion never writes to the catalog),
so a schema can be split into chunks across forked worker processes. Results come back in order,
so the journal, the output files and the report are identical to a sequential run; a test checks
that. Fork shares the catalog copy-on-write; where fork does not exist (Windows, macOS default),
conversion stays sequential.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from migrator import forked
from migrator.batch.static_check import StaticResult, check_sql
from migrator.convert.context import Conversion, ConversionContext
from migrator.forked import forked_pool
from migrator.source.units import Unit

Converter = Callable[[Unit, ConversionContext], Conversion]
Writer = Callable[[Unit, Conversion], object]
# set in the parent before forking
_STATE: tuple[list[Unit], ConversionContext, Converter, Writer | None] | None = None

MIN_UNITS_FOR_WORKERS = 200  # below this, starting processes costs more than it saves...
# ...unless the units are large: a real library's packages (hundreds of lines each) take ~1 s per
# 100 units (about 860,000 characters) to convert, while forking a worker costs a few hundredths
# of a second. Text, not the count, is what conversion time grows with.
MIN_CHARS_FOR_WORKERS = 200_000
CHUNK = 24  # units in a chunk of work at most
# ...and characters of source at most (a unit of more is a chunk of its own). The dependency order
# puts the large units (package bodies) together near the end: 24 of them made a chunk of 0.15-0.2 s
# of a worker's time, and the other worker sat idle while the last one finished.
CHUNK_CHARS = 8000


def static_of(conversion: Conversion) -> StaticResult:
    return check_sql(conversion.output) if conversion.output.strip() else StaticResult(False, 0, 0, "no output")


def _convert_chunk(bounds: tuple[int, int]) -> list[tuple[Conversion, StaticResult]]:
    assert _STATE is not None, "set in the parent before the pool forks"
    units, ctx, convert, write = _STATE
    out = []
    for unit in units[bounds[0] : bounds[1]]:
        conversion = convert(unit, ctx)
        if write is not None:
            write(unit, conversion)
        out.append((conversion, static_of(conversion)))
    return out


def _chunks(units: list[Unit]) -> list[tuple[int, int]]:
    """Bounds of consecutive units, CHUNK of them at most and CHUNK_CHARS of text unless one unit
    alone has more: conversion time grows with a unit's text, so no chunk is much longer than
    another and the workers finish together."""
    bounds: list[tuple[int, int]] = []
    start = size = 0
    for i, unit in enumerate(units):
        if i > start and (i - start >= CHUNK or size + len(unit.text) > CHUNK_CHARS):
            bounds.append((start, i))
            start, size = i, 0
        size += len(unit.text)
    if start < len(units):
        bounds.append((start, len(units)))
    return bounds


def worth_workers(units: Sequence[Unit]) -> bool:
    """Enough work to share out: MIN_UNITS_FOR_WORKERS units, or MIN_CHARS_FOR_WORKERS of text."""
    return len(units) >= MIN_UNITS_FOR_WORKERS or sum(len(u.text) for u in units) >= MIN_CHARS_FOR_WORKERS


def default_workers(n_units: int, chars: int = 0) -> int:
    """Conversion processes for `n_units` units holding `chars` characters of source."""
    if chars >= MIN_CHARS_FOR_WORKERS:
        return forked.core_workers()
    return forked.default_workers(n_units, MIN_UNITS_FOR_WORKERS)


def convert_in_order(
    units: list[Unit], ctx: ConversionContext, convert: Converter, workers: int, write: Writer | None = None
) -> Iterator[tuple[Unit, Conversion, StaticResult]]:
    """Yield (unit, conversion, static check) for `units`, in their order. `write(unit,
    conversion)`, when given, runs where the unit was converted (in the worker), before the unit is
    yielded: creating files costs the kernel time, and the workers share it out over the cores."""
    if workers <= 1:
        for unit in units:
            conversion = convert(unit, ctx)
            if write is not None:
                write(unit, conversion)
            yield unit, conversion, static_of(conversion)
        return
    global _STATE
    _STATE = (units, ctx, convert, write)
    chunks = _chunks(units)
    try:
        with forked_pool(workers) as pool:
            for (start, _end), results in zip(chunks, pool.map(_convert_chunk, chunks)):
                for offset, (conversion, static) in enumerate(results):
                    yield units[start + offset], conversion, static
    finally:
        _STATE = None
